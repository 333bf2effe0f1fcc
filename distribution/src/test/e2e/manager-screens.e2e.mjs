// The Manager's first minutes in Debian's headless Chromium, one phase per run (ManagerScreensEndToEndTest):
//   signin - a wrong password shows the form's error at once (no browser login prompt, no endless "Signing in…"),
//            then the right one signs in
//   panels - the JVM, Threads, Connections and Data grid panels of a pod read as a person reads them
//   audit  - the audit log screen: the sign-ins of this run listed, a filter, paging
// Settings come from the environment. Exits non-zero with the reason on any failure; screenshots in SCREENSHOTS.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = (name, fallback) => process.env[name] ?? fallback;
const BASE = env('PYLON_URL');
const PHASE = env('PHASE', 'signin');
const SHOTS = env('SCREENSHOTS', 'target/e2e-screenshots');
const ADMIN = [env('ADMIN_USER', 'admin'), env('ADMIN_PASSWORD')];
mkdirSync(SHOTS, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `screens-${PHASE}-${name}.png`), fullPage: true });
}

async function fillSignIn(page, user, password) {
  await page.goto(BASE + '/');
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
}

async function signIn(page) {
  await fillSignIn(page, ...ADMIN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
}

async function signin(page) {
  await fillSignIn(page, ADMIN[0], 'not-the-password');
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/apiops/auth/token'), { timeout: 30_000 }),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  check(answer.status() === 401, 'a wrong password is refused with 401, got ' + answer.status());
  check(!('www-authenticate' in answer.headers()), 'the refusal of form credentials carries no WWW-Authenticate challenge: '
    + answer.headers()['www-authenticate']);
  const error = page.locator('form.signin [role="alert"]');
  await error.waitFor({ state: 'visible', timeout: 15_000 });
  check(/Wrong username or password/.test(await error.innerText()), 'the form says why: ' + await error.innerText());
  const button = page.getByRole('button', { name: 'Sign in' });
  check(await button.isEnabled(), 'the button is usable again, not stuck on "Signing in…"');
  await shot(page, '01-wrong-password');
  await page.getByLabel('Password').fill(ADMIN[1]);
  await button.click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
}

const ONE_DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

async function openPanel(page, label) {
  await page.getByRole('button', { name: label }).click();
  const dialog = page.locator('dialog');
  await dialog.locator('.intro, table').first().waitFor({ timeout: 60_000 });
  return dialog;
}

async function closeDialog(page) {
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog', { state: 'detached' });
}

/** No generic camelCase labels, no raw fractions, no second date format in a panel. */
async function readable(dialog, what) {
  const text = await dialog.innerText();
  for (const label of ['Vm Name', 'Gc', 'Process Cpu Load', 'Start Time', 'Object Pending']) {
    check(!new RegExp('^' + label + '\\b', 'm').test(text), `${what}: no generic label "${label}"`);
  }
  check(!/\b\d{1,2}\/\d{1,2}\/\d{4}\b/.test(text), `${what}: no day/month/year dates`);
  check(!/\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text.replace(/Raw JSON[\s\S]*$/, '')), `${what}: no ISO timestamps outside the raw JSON`);
  check(!/(^|\s)0\.\d{3,}(\s|$)/m.test(text.replace(/Raw JSON[\s\S]*$/, '')), `${what}: no raw fractions`);
}

async function panels(page) {
  await signIn(page);
  await page.locator('#worker-pods tbody tr').first().waitFor({ timeout: 60_000 });
  const worker = await page.locator('#worker-pods tbody tr').first().getAttribute('data-pod');
  const cache = await page.locator('#cache-pods tbody tr').first().getAttribute('data-pod');

  const jvm = await openPanel(page, `JVM of ${worker}`);
  check(/^Heap \S+ \S+ of \S+ \S+, non-heap .*, up .*, CPU [\d.]+ %\.$/.test(await jvm.locator('.intro').innerText()),
    'the JVM panel leads with heap, non-heap, uptime and CPU: ' + await jvm.locator('.intro').innerText());
  const pools = await jvm.locator('#memory-pools tbody tr').allInnerTexts();
  check(pools.length >= 4 && pools.every((r) => / of \S+ \S+/.test(r)), 'every memory pool shows its usage: ' + pools.slice(0, 3));
  check(/heap/.test(pools[0]), 'the heap pools come first: ' + pools[0]);
  const row = async (label) => jvm.locator('table.kv tr', { has: page.locator('th', { hasText: new RegExp('^' + label + '$') }) }).locator('td').innerText();
  check(/^\d+$/.test(await row('Process ID')), 'the process ID has no thousands separator: ' + await row('Process ID'));
  check(ONE_DATE.test(await row('Started')), 'the start time in the one date format: ' + await row('Started'));
  check(/^[\d.]+ % of \d+ processors$/.test(await row('Process CPU')), 'process CPU as a percentage: ' + await row('Process CPU'));
  await readable(jvm, 'JVM');
  await shot(page, '01-jvm');
  await closeDialog(page);

  const threads = await openPanel(page, `Threads of ${worker}`);
  check(/^\d+ threads \(peak \d+/.test(await threads.locator('.intro').innerText()), 'the threads panel leads with the counts');
  check(await threads.locator('#executor-pools tbody tr').count() >= 1, 'the executor pools are listed');
  await readable(threads, 'Threads');
  await shot(page, '02-threads');
  await closeDialog(page);

  const connections = await openPanel(page, `Connections of ${worker}`);
  check(/^\d+ active and \d+ idle backend connections, \d+ waiting for one; \d+ client connections open/.test(
    await connections.locator('.intro').innerText()), 'the connections panel leads with backend and client connections');
  check(/^\d+$/.test(await connections.locator('table.kv tr', { has: page.locator('th', { hasText: /^Port$/ }) }).locator('td').innerText()),
    'the port without a thousands separator');
  check(/^CONNECTED since \d{4}-/.test(await connections.locator('table.kv tr', { has: page.locator('th', { hasText: /^State$/ }) }).locator('td').innerText()),
    'the data grid client is connected, since a date in the one format');
  check(/^(No proxied request in flight\.|\d+ proxied requests? in flight)/.test(
    await connections.locator('#exchanges-in-flight-count').innerText()), 'the connections panel says what is in flight');
  await readable(connections, 'Connections');
  await shot(page, '03-connections');
  await closeDialog(page);

  const grid = await openPanel(page, `Data grid of ${cache}`);
  check(/^1 members, cluster ACTIVE, safe \(checked \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\); this member owns \d+ of \d+ partitions\.$/.test(
    await grid.locator('.intro').innerText()), 'the data grid panel leads with members, state and safety: ' + await grid.locator('.intro').innerText());
  check(await grid.locator('#grid-members tbody tr').count() === 1, 'the member is listed');
  check(await grid.locator('#grid-members tbody td[data-label="Master"]').innerText() === 'yes',
    'a lone member is the grid\'s master');
  await readable(grid, 'Data grid');
  await shot(page, '04-datagrid');
  await closeDialog(page);
}

async function audit(page) {
  await signIn(page);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.locator('#audit tbody tr').first().waitFor({ timeout: 30_000 });
  const rows = page.locator('#audit tbody tr');
  check(await rows.count() === 50, 'a page holds 50 events: ' + await rows.count());
  check(!/\bnull\b/.test(await page.locator('#audit').innerText()), 'no "null" in the table');
  const times = await page.$$eval('#audit tbody td[data-label="Time"]', (tds) => tds.map((td) => td.innerText));
  check(times.every((t) => ONE_DATE.test(t)), 'every time in the one date format: ' + times.slice(0, 2));
  await shot(page, '01-audit-log');

  await page.getByLabel('Filter').fill('token.issued');
  const issued = await rows.allInnerTexts();
  check(issued.length >= 40 && issued.every((r) => r.includes('token.issued')), 'the filter keeps the matching events: ' + issued.length);
  check(/of 50 events match the filter/.test(await page.locator('#audit-status').innerText()), 'the status counts the matches');
  await page.getByLabel('Filter').fill('nothing-is-called-this');
  check(await rows.count() === 0, 'a filter nothing matches leaves no rows');
  await page.getByLabel('Filter').fill('');

  const first = await rows.first().getAttribute('data-id');
  await page.getByRole('button', { name: 'Older' }).click();
  await page.waitForFunction((id) => document.querySelector('#audit tbody tr')?.dataset.id !== id, first);
  const older = Number(await rows.first().getAttribute('data-id'));
  check(older < Number(first) - 49, `the older page starts before the first page ended (${older} < ${first})`);
  check(/^Page 2:/.test(await page.locator('#audit-status').innerText()), 'the status names page 2');
  await shot(page, '02-audit-older');
  await page.getByRole('button', { name: 'Newer' }).click();
  await page.waitForFunction((id) => document.querySelector('#audit tbody tr')?.dataset.id === id, first);
}

const phases = { signin, panels, audit };
const profile = mkdtempSync(join(tmpdir(), 'pylon-e2e-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: env('CHROMIUM', '/usr/bin/chromium'),
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 800 },
});
const page = context.pages()[0] || await context.newPage();
const consoleErrors = [];
page.on('pageerror', (e) => consoleErrors.push(e.message));
let failed = false;
try {
  await phases[PHASE](page, { signIn, shot, check });
  check(consoleErrors.length === 0, 'no script errors in the page: ' + consoleErrors.join('; '));
  console.log(`PHASE ${PHASE} OK`);
} catch (err) {
  failed = true;
  console.error(`PHASE ${PHASE} FAILED: ${err.stack || err}`);
  await page.screenshot({ path: join(SHOTS, `screens-${PHASE}-failure.png`), fullPage: true }).catch(() => {});
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
