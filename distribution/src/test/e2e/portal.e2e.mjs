// The developer portal in Debian's headless Chromium, one phase per run (PortalEndToEndTest):
//   journey - sign up, sign in, create an application, subscribe to the published API, copy the key shown once,
//             call the API through the real Worker (the upstream's 200), revoke the key: 401 within 3 s
//   hostile - a script in the API's description and OpenAPI document stays text; subscribe without the CSRF token
//             is refused; another developer's application id is refused; oversized and malformed sign-ups are 4xx
// Settings come from the environment. Exits non-zero with the reason on any failure; screenshots in SCREENSHOTS.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const env = (name, fallback) => process.env[name] ?? fallback;
const PORTAL = env('PORTAL_URL');
const WORKER = env('WORKER_URL');
const PHASE = env('PHASE', 'journey');
const SHOTS = env('SCREENSHOTS', 'target/e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `portal-${PHASE}-${name}.png`), fullPage: true });
}

async function callWorker(key) {
  const response = await fetch(WORKER + '/orders', { headers: key ? { 'X-API-Key': key } : {} });
  return { status: response.status, body: await response.text() };
}

async function signUpAndIn(page, email) {
  await page.goto(PORTAL + '/#/signup');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('dev-Passw0rd-e2e-1');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/#\/signin$/, { timeout: 30_000 });
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('dev-Passw0rd-e2e-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'My applications' }).waitFor({ timeout: 30_000 });
}

async function createApplication(page, name) {
  await page.getByLabel('New application').fill(name);
  await page.getByRole('button', { name: 'Create application' }).click();
  const card = page.locator('.card', { has: page.getByRole('heading', { name }) });
  await card.waitFor({ timeout: 30_000 });
  return card;
}

async function journey(page) {
  await signUpAndIn(page, 'dev-journey@example.com');
  const cookies = await page.context().cookies();
  const session = cookies.find(c => c.name === 'pylon_portal_session');
  check(session && session.httpOnly && session.sameSite === 'Strict', 'session cookie HttpOnly, SameSite=Strict: '
    + JSON.stringify(session));
  check(await page.evaluate(() => document.cookie) === '', 'the session cookie is not readable by scripts');

  let card = await createApplication(page, 'shop');
  await card.locator('.subscribe').click();
  await card.getByText('orders: active').waitFor({ timeout: 30_000 });
  card = page.locator('.card', { has: page.getByRole('heading', { name: 'shop' }) });
  await card.locator('.issue').click();
  const shown = page.locator('#new-key');
  await shown.waitFor({ timeout: 30_000 });
  const key = (await shown.textContent()).trim();
  check(/^pylon_key_[A-Za-z0-9_-]{40,}$/.test(key), 'a key is shown: ' + key);
  await shot(page, 'key-shown');

  // the key works through the real Worker within 3 s of being issued
  let started = Date.now();
  let answer = await callWorker(key);
  while (answer.status !== 200 && Date.now() - started < 10_000) {
    await new Promise(r => setTimeout(r, 100));
    answer = await callWorker(key);
  }
  check(answer.status === 200 && answer.body.includes('"orders"'), 'the upstream answers with the key: '
    + answer.status + ' ' + answer.body);
  check(Date.now() - started < 3_000, 'the key worked within 3 s, took ' + (Date.now() - started) + ' ms');
  const none = await callWorker(null);
  check(none.status === 401, 'without a key: 401, got ' + none.status);

  // shown once: after a reload only the prefix is on the page
  await page.reload();
  await page.getByRole('heading', { name: 'My applications' }).waitFor({ timeout: 30_000 });
  check(!(await page.content()).includes(key), 'the key is not shown again');

  await page.locator('.revoke').first().click();
  await page.getByText('Key revoked.').waitFor({ timeout: 30_000 });
  started = Date.now();
  answer = await callWorker(key);
  while (answer.status !== 401 && Date.now() - started < 10_000) {
    await new Promise(r => setTimeout(r, 50));
    answer = await callWorker(key);
  }
  const took = Date.now() - started;
  check(answer.status === 401 && answer.body.includes('invalid_api_key'), 'revoked key: 401 invalid_api_key, got '
    + answer.status + ' ' + answer.body);
  check(took < 3_000, 'revocation reached the Worker within 3 s, took ' + took + ' ms');
  console.log('revocation reached the Worker in ' + took + ' ms');
  await shot(page, 'revoked');
}

async function hostile(page) {
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  // the catalog and the docs page show the description as text; no script of it runs
  await page.goto(PORTAL + '/');
  const description = page.locator('[data-api="orders"] .description');
  await description.waitFor({ timeout: 30_000 });
  check((await description.textContent()).includes('<script>'), 'the description is shown as text');
  await page.goto(PORTAL + '/#/docs/orders');
  await page.locator('.swagger-ui .info').waitFor({ timeout: 60_000 });
  await page.getByText('List orders').waitFor({ timeout: 30_000 });
  await shot(page, 'docs');
  check(await page.evaluate(() => window.__xss) === undefined, 'no injected script ran');
  const csp = (await page.request.get(PORTAL + '/')).headers()['content-security-policy'] || '';
  check(csp.includes("script-src 'self'") && !csp.includes('unsafe-inline'), 'strict CSP: ' + csp);

  // an unknown API's docs: 404
  check((await page.request.get(PORTAL + '/api/catalog/nope')).status() === 404, 'unknown API 404');

  // oversized and malformed sign-ups
  const big = await page.request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ email: 'a'.repeat(20_000) + '@example.com', password: 'x'.repeat(20) }) });
  check(big.status() === 413, 'oversized sign-up 413, got ' + big.status());
  const broken = await page.request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
    data: '{"email":' });
  check(broken.status() === 400, 'malformed sign-up 400, got ' + broken.status());
  const badEmail = await page.request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ email: 'not-an-address', password: 'dev-Passw0rd-e2e-1' }) });
  check(badEmail.status() === 400, 'bad e-mail 400, got ' + badEmail.status());

  // the victim's application
  await signUpAndIn(page, 'victim@example.com');
  const victimCard = await createApplication(page, 'victim-app');
  const victimApp = await victimCard.getAttribute('data-app');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('link', { name: 'Sign in' }).waitFor({ timeout: 30_000 });

  // the attacker, signed in: no CSRF token, no luck; the victim's id, no luck
  await signUpAndIn(page, 'attacker@example.com');
  const ownCard = await createApplication(page, 'attacker-app');
  const ownApp = await ownCard.getAttribute('data-app');
  const noCsrf = await page.evaluate(async (app) => (await fetch('/api/applications/' + app + '/subscriptions', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ proxy: 'orders' })
  })).status, ownApp);
  check(noCsrf === 403, 'subscribe without the CSRF token: 403, got ' + noCsrf);
  const wrongCsrf = await page.evaluate(async (app) => (await fetch('/api/applications/' + app + '/subscriptions', {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'guess' },
    body: JSON.stringify({ proxy: 'orders' })
  })).status, ownApp);
  check(wrongCsrf === 403, 'subscribe with a wrong CSRF token: 403, got ' + wrongCsrf);
  const theirs = await page.evaluate(async (app) => {
    const me = await (await fetch('/api/me')).json();
    const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf };
    const subscribe = await fetch('/api/applications/' + app + '/subscriptions', {
      method: 'POST', headers, body: JSON.stringify({ proxy: 'orders' }) });
    const key = await fetch('/api/applications/' + app + '/keys', { method: 'POST', headers });
    return [subscribe.status, key.status];
  }, victimApp);
  check(theirs[0] === 404 && theirs[1] === 404, 'another developer\'s application: 404, got ' + theirs);
  const listed = await page.evaluate(async () => await (await fetch('/api/applications')).text());
  check(!listed.includes(victimApp), 'the attacker does not see the victim\'s application');
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
}

const browser = await chromium.launch({ executablePath: env('CHROMIUM', '/usr/bin/chromium'), headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (PHASE === 'journey') await journey(page);
  else if (PHASE === 'hostile') await hostile(page);
  else throw new Error('unknown phase ' + PHASE);
  console.log('phase ' + PHASE + ' passed');
} finally {
  await browser.close();
}
