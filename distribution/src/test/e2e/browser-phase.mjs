// What every screen script shares: the settings from the environment, checks, waits, screenshots, signing in to the
// Manager UI and the Portal, the Portal's developer steps, and running one phase in a fresh headless Chromium profile.
// A phase fails on a script error, a console error other than a refused resource, or a 5xx from the screen's own API
// calls (apiPattern), on any page of the phase; the process exits non-zero with the reason.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const env = (name, fallback) => process.env[name] ?? fallback;
export const BASE = env('PYLON_URL');
export const PHASE = env('PHASE', 'operator');
export const LONG = { timeout: 60_000 };
const SHOTS = env('SCREENSHOTS', 'target/e2e-screenshots');

export function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

/** A function that saves a full-page screenshot as <prefix>-<phase>-<name>.png. */
export function screenshots(prefix) {
  mkdirSync(SHOTS, { recursive: true });
  return (page, name) => page.screenshot({ path: join(SHOTS, `${prefix}-${PHASE}-${name}.png`), fullPage: true });
}

/** Polls probe() every `every` ms until it returns a truthy value (returned) or `timeout` ms passed (thrown). */
export async function until(what, probe, timeout = 45_000, every = 500) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeout) throw new Error('timed out after ' + timeout + ' ms waiting for ' + what);
    await new Promise(r => setTimeout(r, every));
  }
}

/** Signs in to the Manager UI at `base` (default PYLON_URL). */
export async function signIn(page, user, password, base = BASE) {
  await page.goto(base + '/');
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor(LONG);
}

/** A call through a Worker with the API key in X-API-Key (none when key is null): its status and body. */
export async function callApi(url, key) {
  const response = await fetch(url, { headers: key ? { 'X-API-Key': key } : {} });
  return { status: response.status, body: await response.text() };
}

// The Portal's developer steps, on its own pages (portal-web): the same labels and classes a developer sees.
export const portal = {
  /** Signs up `email` on the Portal at `base`; returns the sentence the Portal shows after it. */
  async signUp(page, base, email, password) {
    // a new document each time: a hash change on a page that ran Swagger UI is not what is tested here
    await page.goto(base + '/?as=' + encodeURIComponent(email) + '#/signup');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/#\/signin$/, LONG);
    const status = page.locator('#status');
    await status.filter({ hasText: /\S/ }).waitFor(LONG);
    return status.textContent();
  },
  /** Fills the sign-in form (the current page must show it); returns the Portal's answer status line, '' when in. */
  async trySignIn(page, email, password) {
    const status = page.locator('#status');
    const before = await status.textContent();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const mine = page.getByRole('heading', { name: 'My applications' });
    return (await until('the Portal to answer the sign-in of ' + email, async () => {
      if (await mine.count()) return { refused: '' };
      const now = (await status.textContent()) || '';
      return now.trim() && now !== before ? { refused: now } : null;
    }, 60_000, 100)).refused;
  },
  async signIn(page, base, email, password) {
    await page.goto(base + '/#/signin');
    const refused = await portal.trySignIn(page, email, password);
    check(refused === '', 'signed in to the Portal as ' + email + ': ' + refused);
  },
  /** The card of a new application of the signed-in developer. */
  async createApplication(page, name) {
    await page.getByLabel('New application').fill(name);
    await page.getByRole('button', { name: 'Create application' }).click();
    const card = portal.card(page, name);
    await card.waitFor(LONG);
    return card;
  },
  card(page, name) {
    return page.locator('.card', { has: page.getByRole('heading', { name }) });
  },
  /** Subscribes the application to `proxy` and waits for the subscription to show `status`. */
  async subscribe(page, name, proxy, status = 'active') {
    const card = portal.card(page, name);
    await card.locator('select[name="proxy"]').selectOption(proxy);
    await card.locator('.subscribe').click();
    await portal.card(page, name).getByText(`${proxy}: ${status}`).waitFor(LONG);
  },
  /** Issues a key for the application: the key as shown once. */
  async issueKey(page, name) {
    await portal.card(page, name).locator('.issue').click();
    const shown = portal.card(page, name).locator('#new-key');
    await shown.waitFor(LONG);
    return (await shown.textContent()).trim();
  },
  /** The application's usage chart once it shows `requests` requests (Refresh usage until the Worker's report is in). */
  async usageChart(page, name, requests, timeout = 60_000) {
    const chart = portal.card(page, name).locator('svg.usage-chart');
    await until(`the Portal's usage chart of ${name} to show ${requests} requests`, async () => {
      await portal.card(page, name).locator('.usage-refresh').click();
      await page.waitForTimeout(300);
      return (await chart.count()) === 1 && (await chart.getAttribute('data-requests')) === String(requests);
    }, timeout);
    return chart;
  },
};

/** Every page of the context reports script errors, console errors and 5xx answers of apiPattern into problems. */
function watch(context, apiPattern, problems) {
  const onPage = (page) => {
    page.on('pageerror', (e) => problems.push(e.message));
    // a refused request is logged as 'Failed to load resource' (the start page's diagnostics calls reach pods that do
    // not exist in these tests: 502); what counts is a 5xx from the screen's own calls, CSP refusals and script errors
    page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(m.text()); });
    page.on('response', (r) => {
      if (r.status() >= 500 && apiPattern.test(r.url())) problems.push(`${r.status()} from ${r.url()}`);
    });
  };
  context.pages().forEach(onPage);
  context.on('page', onPage);
}

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Debian's Chromium, headless, for a script that opens several contexts itself. */
export function launchBrowser() {
  return chromium.launch({ executablePath: env('CHROMIUM', '/usr/bin/chromium'), headless: true, args: CHROMIUM_ARGS });
}

/** Runs phases[PHASE] on a page of a fresh browser profile, prints PHASE <name> OK or FAILED, and exits. */
export async function runPhase(prefix, phases, apiPattern) {
  const shot = screenshots(prefix);
  const profile = mkdtempSync(join(tmpdir(), 'pylon-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: env('CHROMIUM', '/usr/bin/chromium'),
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const problems = [];
  watch(context, apiPattern, problems);
  const page = context.pages()[0] || await context.newPage();
  let failed = false;
  try {
    await phases[PHASE](page, shot);
    check(problems.length === 0, 'no script errors, CSP refusals or 5xx in the page: ' + problems.join('; '));
    console.log(`PHASE ${PHASE} OK`);
  } catch (err) {
    failed = true;
    console.error(`PHASE ${PHASE} FAILED: ${err.stack || err}`);
    await shot(page, 'failure').catch(() => {});
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}
