// The developer portal in Debian's headless Chromium, one phase per run (PortalEndToEndTest):
//   journey - sign up, sign in, create an application, subscribe to the published API, copy the key shown once,
//             call the API through the real Worker (the upstream's 200), revoke the key: 401 within 3 s
//   hostile - a script in the API's description and OpenAPI document stays text; subscribe without the CSRF token
//             is refused; another developer's application id is refused; oversized and malformed sign-ups are 4xx
//   admin   - in the Manager UI an admin publishes an API with approval by an admin; a developer's subscription waits
//             (the Worker answers 403 subscription_pending); the admin approves it and the key works through the
//             Worker; suspending, disabling the developer and enabling again reach the Worker within 3 s
//   tryit   - the docs page's "Try it out" calls the real Worker with the key issued on the page: the upstream's 200
//             and the request's X-Request-Id
//   plans   - in the Manager UI an admin creates, edits and deletes plans and gives one to a developer's subscription
//             (only the plans that fit its API are offered; a held plan is not deleted)
//   security - a rotated key stops within 3 s and its successor works; sign-in replaces a planted session cookie;
//             unknown address and wrong password get the same answer in similar time; guessing is throttled (429)
// Settings come from the environment. Exits non-zero with the reason on any failure; screenshots in SCREENSHOTS.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { env, LONG, check, signIn, callApi, portal, launchBrowser } from './browser-phase.mjs';

const PORTAL = env('PORTAL_URL');
const WORKER = env('WORKER_URL');
const PHASE = env('PHASE', 'journey');
const MANAGER = env('MANAGER_URL');
const ADMIN_PASSWORD = env('ADMIN_PASSWORD');
const PASSWORD = 'dev-Passw0rd-e2e-1';
const SHOTS = env('SCREENSHOTS', 'target/e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `portal-${PHASE}-${name}.png`), fullPage: true });
}

function callWorker(key, path = '/orders') {
  return callApi(WORKER + path, key);
}

// polls the Worker until it answers `status` (and the body has `text`), at most 10 s; returns how long it took
async function workerAnswers(key, path, status, text) {
  const started = Date.now();
  let answer = await callWorker(key, path);
  while (!(answer.status === status && (!text || answer.body.includes(text))) && Date.now() - started < 10_000) {
    await new Promise(r => setTimeout(r, 50));
    answer = await callWorker(key, path);
  }
  const took = Date.now() - started;
  check(answer.status === status && (!text || answer.body.includes(text)), `${path} with the key: ${status} ${text || ''}`
    + ` expected, got ${answer.status} ${answer.body}`);
  check(took < 3_000, `${path}: ${status} ${text || ''} reached the Worker within 3 s, took ${took} ms`);
  return took;
}

async function signUpAndIn(page, email) {
  await portal.signUp(page, PORTAL, email, PASSWORD);
  const refused = await portal.trySignIn(page, email, PASSWORD);
  check(refused === '', 'signed in as ' + email + ': ' + refused);
}

async function journey(page) {
  await signUpAndIn(page, 'dev-journey@example.com');
  const cookies = await page.context().cookies();
  const session = cookies.find(c => c.name === 'pylon_portal_session');
  check(session && session.httpOnly && session.sameSite === 'Strict', 'session cookie HttpOnly, SameSite=Strict: '
    + JSON.stringify(session));
  check(await page.evaluate(() => document.cookie) === '', 'the session cookie is not readable by scripts');

  await portal.createApplication(page, 'shop');
  await portal.subscribe(page, 'shop', 'orders', 'active');
  const key = await portal.issueKey(page, 'shop');
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
  const victimCard = await portal.createApplication(page, 'victim-app');
  const victimApp = await victimCard.getAttribute('data-app');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('link', { name: 'Sign in' }).waitFor({ timeout: 30_000 });

  // the attacker, signed in: no CSRF token, no luck; the victim's id, no luck
  await signUpAndIn(page, 'attacker@example.com');
  const ownCard = await portal.createApplication(page, 'attacker-app');
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

async function portalScreen(page) {
  await page.locator('#portal-refresh').click();
  await page.locator('#publications').waitFor(LONG);
}

async function admin(browser) {
  const adminPage = await (await browser.newContext()).newPage();
  const errors = [];
  adminPage.on('pageerror', e => errors.push(String(e)));
  await signIn(adminPage, 'admin', ADMIN_PASSWORD, MANAGER);
  await adminPage.getByRole('link', { name: 'Developer portal' }).click();
  await adminPage.locator('#publications').waitFor(LONG);
  const billing = adminPage.locator('#publications tr[data-proxy="billing"]');
  check(await billing.getAttribute('data-published') === 'false', 'billing starts unpublished');
  check(await adminPage.locator('#publications tr[data-proxy="orders"]').getAttribute('data-published') === 'true',
    'orders is shown as published');
  await billing.locator('select.approval').selectOption('admin');
  await billing.getByRole('button', { name: 'Publish billing' }).click();
  await adminPage.locator('#publications tr[data-proxy="billing"][data-published="true"]').waitFor(LONG);
  await shot(adminPage, 'published');

  // the developer subscribes: pending, and the Worker says so
  const devPage = await (await browser.newContext()).newPage();
  await signUpAndIn(devPage, 'dev-admin@example.com');
  await portal.createApplication(devPage, 'ledger');
  await portal.subscribe(devPage, 'ledger', 'billing', 'pending');
  const key = await portal.issueKey(devPage, 'ledger');
  await workerAnswers(key, '/billing/invoices', 403, 'subscription_pending');

  // the admin approves it in the Manager UI: the key works through the Worker within 3 s
  await portalScreen(adminPage);
  const pending = adminPage.locator('#subscriptions tr[data-proxy="billing"][data-application="ledger"]');
  await pending.waitFor(LONG);
  check(await pending.getAttribute('data-status') === 'pending', 'the subscription waits for approval');
  check((await pending.textContent()).includes('dev-admin@example.com'), 'the row names the developer');
  await shot(adminPage, 'pending');
  let clicked = Date.now();
  await pending.getByRole('button', { name: /^Approve / }).click();
  await adminPage.locator('#subscriptions-empty').waitFor(LONG);
  let took = await workerAnswers(key, '/billing/invoices', 200, '"orders"');
  console.log('approval reached the Worker ' + (Date.now() - clicked) + ' ms after the click (' + took + ' ms polling)');
  const upstreamPath = JSON.parse((await callWorker(key, '/billing/invoices')).body).path;
  check(upstreamPath === '/invoices', 'billing strips its prefix: upstream saw ' + upstreamPath);

  // suspend: 403 within 3 s; approve again: 200
  await adminPage.locator('#subscription-status').selectOption('');
  const row = adminPage.locator('#subscriptions tr[data-proxy="billing"][data-application="ledger"]');
  await row.getByRole('button', { name: /^Suspend / }).click();
  await adminPage.locator('#subscriptions tr[data-proxy="billing"][data-application="ledger"][data-status="suspended"]')
    .waitFor(LONG);
  await workerAnswers(key, '/billing/invoices', 403, 'subscription_suspended');
  await row.getByRole('button', { name: /^Approve / }).click();
  await workerAnswers(key, '/billing/invoices', 200, '"orders"');

  // a slow answer for an older filter does not overwrite the newer filter's list (answers arrive out of order)
  const slowPending = async (route) => { await new Promise((r) => setTimeout(r, 1500)); await route.continue(); };
  await adminPage.route('**/apiops/developers?status=pending', slowPending);
  await adminPage.locator('#developer-status').selectOption('pending');
  await adminPage.locator('#developer-status').selectOption('');
  await adminPage.locator('#developers tr[data-developer="dev-admin@example.com"]').waitFor(LONG);
  await adminPage.waitForTimeout(2500);
  check(await adminPage.locator('#developers tr[data-developer="dev-admin@example.com"]').count() === 1,
    'the list of the filter chosen last stays after the older filter\'s slow answer');
  await adminPage.unroute('**/apiops/developers?status=pending', slowPending);

  // disable the developer: their key stops (401) and their session ends; enable: it works again
  await adminPage.locator('#developer-status').selectOption('');
  const developer = adminPage.locator('#developers tr[data-developer="dev-admin@example.com"]');
  await developer.waitFor(LONG);
  adminPage.once('dialog', d => d.accept());
  await developer.getByRole('button', { name: /^Disable / }).click();
  await adminPage.locator('#developers tr[data-developer="dev-admin@example.com"][data-status="disabled"]').waitFor(LONG);
  await workerAnswers(key, '/billing/invoices', 401, 'invalid_api_key');
  const me = await devPage.evaluate(async () => (await fetch('/api/me')).status);
  check(me === 401, 'a disabled developer\'s session ended: /api/me ' + me);
  await developer.getByRole('button', { name: /^Enable / }).click();
  await adminPage.locator('#developers tr[data-developer="dev-admin@example.com"][data-status="active"]').waitFor(LONG);
  await workerAnswers(key, '/billing/invoices', 200, '"orders"');
  await shot(adminPage, 'developers');

  // a viewer-free check of the API behind the screen: an unknown filter is a 400 naming the parameter
  const token = await adminPage.evaluate(() => sessionStorage.getItem('pylon.token'));
  const bad = await fetch(MANAGER + '/apiops/subscriptions?status=nope', { headers: { Authorization: 'Bearer ' + token } });
  const badBody = await bad.text();
  check(bad.status === 400 && badBody.includes('status'), 'unknown status filter: 400, got ' + bad.status + ' ' + badBody);
  check(errors.length === 0, 'no page errors in the Manager UI: ' + errors.join('; '));
}

async function tryIt(page) {
  const errors = [];
  const consoleLines = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => consoleLines.push(m.type() + ': ' + m.text()));
  await signUpAndIn(page, 'dev-tryit@example.com');
  await portal.createApplication(page, 'explorer');
  await portal.subscribe(page, 'explorer', 'orders', 'active');
  const key = await portal.issueKey(page, 'explorer');
  await workerAnswers(key, '/orders', 200, '"orders"');

  const csp = (await page.request.get(PORTAL + '/')).headers()['content-security-policy'] || '';
  check(csp.includes('connect-src \'self\' ' + WORKER), 'the page may call the Worker: ' + csp);
  // same document: the key issued above is still in the page's memory
  await page.evaluate(() => { location.hash = '#/docs/orders'; });
  await page.locator('.swagger-ui .info').waitFor(LONG);
  const chooser = page.locator('#try-key-choice');
  check((await chooser.inputValue()) === '0', 'the key issued on this page is chosen for Try it');
  await page.locator('.opblock-summary', { hasText: '/orders' }).first().click();
  await page.getByRole('button', { name: 'Try it out' }).click();
  await page.getByRole('button', { name: 'Execute' }).click();
  const status = page.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor(LONG);
  const body = (await page.locator('.live-responses-table .response .response-col_description').first().textContent()) || '';
  const code = ((await status.textContent()) || '').trim();
  const requestUrl = ((await page.locator('.request-url pre').first().textContent()) || '').trim();
  await shot(page, 'tryit');
  check(code === '200', 'Try it: the Worker answered 200, got ' + code + ' ' + body + '; console: '
    + consoleLines.filter(l => !l.includes('inline event handler')).join(' | '));
  check(body.includes('"orders"') && body.includes('/orders'), 'Try it shows the upstream\'s answer: ' + body);
  check(requestUrl.startsWith(WORKER + '/orders'), 'Try it called the Worker: ' + requestUrl);
  const shown = ((await page.locator('.live-responses-table .response').first().textContent()) || '').toLowerCase();
  check(/x-request-id: ?[0-9a-f-]{36}/.test(shown), 'Try it shows the request\'s X-Request-Id: ' + shown);

  // without a key the same console gets the Worker's 401; another origin gets no CORS admission
  await chooser.selectOption('');
  await page.getByRole('button', { name: 'Execute' }).click();
  await page.locator('.live-responses-table .response .response-col_status', { hasText: '401' }).first().waitFor(LONG);
  const foreign = await fetch(WORKER + '/orders', { headers: { Origin: 'http://evil.example', 'X-API-Key': key } });
  check(!foreign.headers.get('access-control-allow-origin'), 'another origin is not admitted');
  const portalOrigin = new URL(PORTAL).origin;
  const preflight = await fetch(WORKER + '/orders', { method: 'OPTIONS', headers: { Origin: portalOrigin,
    'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' } });
  check(preflight.status === 204 && preflight.headers.get('access-control-allow-origin') === portalOrigin
    && /x-api-key/i.test(preflight.headers.get('access-control-allow-headers') || ''),
    'the Portal origin\'s preflight is admitted: ' + preflight.status + ' ' + JSON.stringify([...preflight.headers]));
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
}

// the Plans card of the Manager UI's Developer portal screen: create, edit, give to a subscription, delete
async function savePlan(adminPage, name, requests, per, proxy) {
  if (name) await adminPage.locator('#plan-name').fill(name);
  await adminPage.locator('#plan-requests').fill(String(requests));
  await adminPage.locator('#plan-per').selectOption(per);
  await adminPage.locator('#plan-proxy').selectOption(proxy);
  await adminPage.getByRole('button', { name: 'Save plan' }).click();
}

async function planCells(adminPage, name) {
  const row = adminPage.locator(`#plans tr[data-plan="${name}"]`);
  await row.waitFor(LONG);
  return (await row.locator('th, td').allTextContents()).slice(0, 3).join(' | ');
}

async function plans(browser) {
  const adminPage = await (await browser.newContext()).newPage();
  const errors = [];
  adminPage.on('pageerror', e => errors.push(String(e)));
  await signIn(adminPage, 'admin', ADMIN_PASSWORD, MANAGER);
  await adminPage.getByRole('link', { name: 'Developer portal' }).click();
  await adminPage.getByRole('heading', { name: 'Plans' }).waitFor(LONG);

  // a name the API would refuse is refused in the form; a plan for one API, then edited
  await savePlan(adminPage, 'Bad Name', 2, 'minute', 'orders');
  check(/lower-case/.test(await adminPage.locator('#plan-error').textContent()), 'a bad plan name is refused in the form');
  await savePlan(adminPage, 'bronze', 2, 'minute', 'orders');
  check(await planCells(adminPage, 'bronze') === 'bronze | 2 per minute | orders', 'bronze listed: '
    + await planCells(adminPage, 'bronze'));
  await adminPage.getByRole('button', { name: 'Edit plan bronze' }).click();
  check(await adminPage.locator('#plan-name').isDisabled() && await adminPage.locator('#plan-name').inputValue() === 'bronze',
    'editing keeps the name');
  await savePlan(adminPage, null, 5, 'second', 'orders');
  await adminPage.locator('#plans tr[data-plan="bronze"]', { hasText: '5 per second' }).waitFor(LONG);
  await savePlan(adminPage, 'any-api', 100, 'minute', '');
  check(await planCells(adminPage, 'any-api') === 'any-api | 100 per minute | any', 'a plan for any API');
  await savePlan(adminPage, 'billing-only', 10, 'minute', 'billing');
  await planCells(adminPage, 'billing-only');

  // a developer's subscription gets a plan in the subscriptions table: only the plans that fit its API are offered
  const devPage = await (await browser.newContext()).newPage();
  await signUpAndIn(devPage, 'dev-plans@example.com');
  await portal.createApplication(devPage, 'planned');
  await portal.subscribe(devPage, 'planned', 'orders', 'active');
  await adminPage.locator('#subscription-status').selectOption('');
  await portalScreen(adminPage);
  const row = adminPage.locator('#subscriptions tr[data-proxy="orders"][data-application="planned"]');
  await row.waitFor(LONG);
  const offered = await row.locator('select.plan option').evaluateAll(os => os.map(o => o.value));
  check(JSON.stringify(offered) === JSON.stringify(['', 'any-api', 'bronze']), 'the plans that fit orders: ' + offered);
  await row.locator('select.plan').selectOption('bronze');
  await adminPage.locator('#subscriptions tr[data-application="planned"][data-plan="bronze"]').waitFor(LONG);
  const token = await adminPage.evaluate(() => sessionStorage.getItem('pylon.token'));
  const listed = await (await fetch(MANAGER + '/apiops/subscriptions?status=active', { headers: { Authorization: 'Bearer ' + token } })).json();
  const planned = listed.subscriptions.find(x => x.applicationName === 'planned');
  check(planned && planned.plan === 'bronze', 'the API has the plan: ' + JSON.stringify(planned));
  await shot(adminPage, 'plans');

  // a held plan is not deleted (the Manager's 409 is shown); without holders it is
  adminPage.on('dialog', d => d.accept());
  await adminPage.getByRole('button', { name: 'Delete plan bronze' }).click();
  await adminPage.locator('#notice', { hasText: 'held by 1 subscription' }).waitFor(LONG);
  check(await adminPage.locator('#plans tr[data-plan="bronze"]').count() === 1, 'the held plan stays');
  await adminPage.locator('#subscriptions tr[data-application="planned"] select.plan').selectOption('');
  await adminPage.locator('#subscriptions tr[data-application="planned"][data-plan=""]').waitFor(LONG);
  for (const name of ['bronze', 'any-api', 'billing-only']) {
    await adminPage.getByRole('button', { name: 'Delete plan ' + name }).click();
    await adminPage.locator(`#plans tr[data-plan="${name}"]`).waitFor({ state: 'detached', ...LONG });
  }
  await adminPage.locator('#plans-empty').waitFor(LONG);
  check(errors.length === 0, 'no page errors in the Manager UI: ' + errors.join('; '));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function signInAnswer(request, email, password) {
  const started = performance.now();
  const response = await request.post(PORTAL + '/api/signin', { headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ email, password }) });
  return { status: response.status(), body: await response.text(), ms: performance.now() - started };
}

async function security(browser, page) {
  // rotation: the new key is shown once and works, the old one stops within 3 s
  await signUpAndIn(page, 'dev-rotate@example.com');
  await portal.createApplication(page, 'rotor');
  await portal.subscribe(page, 'rotor', 'orders', 'active');
  const rotor = portal.card(page, 'rotor');
  const oldKey = await portal.issueKey(page, 'rotor');
  await workerAnswers(oldKey, '/orders', 200, '"orders"');
  await rotor.locator('.rotate').first().click();
  await page.getByText('Key rotated').waitFor(LONG);
  const shown = page.locator('.card', { has: page.getByRole('heading', { name: 'rotor' }) }).locator('#new-key');
  const newKey = (await shown.textContent()).trim();
  check(newKey !== oldKey && /^pylon_key_/.test(newKey), 'a new key is shown');
  const took = await workerAnswers(oldKey, '/orders', 401, 'invalid_api_key');
  console.log('the rotated key stopped on the Worker in ' + took + ' ms');
  await workerAnswers(newKey, '/orders', 200, '"orders"');
  await page.reload();
  await page.getByRole('heading', { name: 'My applications' }).waitFor(LONG);
  check(!(await page.content()).includes(newKey), 'the new key is not shown again');

  // session fixation: a planted cookie is replaced at sign-in and never becomes a session
  const context = await browser.newContext();
  const fixed = await context.newPage();
  await context.addCookies([{ name: 'pylon_portal_session', value: 'pylon_ds_planted-by-attacker', url: PORTAL }]);
  await signUpAndIn(fixed, 'dev-fixation@example.com');
  const cookie = (await context.cookies()).find(c => c.name === 'pylon_portal_session');
  check(cookie && cookie.value !== 'pylon_ds_planted-by-attacker' && cookie.value.startsWith('pylon_ds_'),
    'sign-in set a new session id');
  const planted = await fixed.request.get(PORTAL + '/api/me', { headers: { Cookie: 'pylon_portal_session=pylon_ds_planted-by-attacker' } });
  check(planted.status() === 401, 'the planted id is no session: ' + planted.status());
  const first = cookie.value;
  await fixed.getByRole('button', { name: 'Sign out' }).click();
  await fixed.getByRole('link', { name: 'Sign in' }).waitFor(LONG);
  await portal.signIn(fixed, PORTAL, 'dev-fixation@example.com', PASSWORD);
  const second = (await context.cookies()).find(c => c.name === 'pylon_portal_session').value;
  check(second !== first, 'every sign-in gets a new session id');
  const old = await fixed.request.get(PORTAL + '/api/me', { headers: { Cookie: 'pylon_portal_session=' + first } });
  check(old.status() === 401, 'the signed-out session is gone: ' + old.status());

  // enumeration: an unknown address and a wrong password answer alike, in similar time
  const request = page.request;
  const known = ['dev-enum-1@example.com', 'dev-enum-2@example.com', 'dev-enum-3@example.com'];
  for (const email of known) {
    const r = await request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
      data: JSON.stringify({ email, password: 'dev-Passw0rd-e2e-1' }) });
    check(r.status() === 202, 'sign-up ' + r.status());
  }
  const unknown = [];
  const wrong = [];
  for (let i = 0; i < 12; i++) {
    const a = await signInAnswer(request, `nobody-${i}@example.com`, 'wrong-Passw0rd-guess');
    const b = await signInAnswer(request, known[i % 3], 'wrong-Passw0rd-guess');
    check(a.status === 401 && b.status === 401 && a.body === b.body, 'unknown and wrong answer alike: '
      + a.status + ' ' + a.body + ' / ' + b.status + ' ' + b.body);
    unknown.push(a.ms);
    wrong.push(b.ms);
  }
  const mu = median(unknown);
  const mw = median(wrong);
  console.log(`sign-in answer, median of 12: unknown address ${mu.toFixed(1)} ms, wrong password ${mw.toFixed(1)} ms`);
  check(Math.abs(mu - mw) < Math.max(25, 0.5 * Math.max(mu, mw)), 'similar timing: unknown ' + mu + ' ms, wrong ' + mw + ' ms');
  const taken = await request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ email: known[0], password: 'dev-Passw0rd-e2e-1' }) });
  const fresh = await request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ email: 'dev-enum-new@example.com', password: 'dev-Passw0rd-e2e-1' }) });
  check(taken.status() === fresh.status() && (await taken.text()) === (await fresh.text()),
    'sign-up answers a taken and a new address alike');

  // guessing one account from one address: throttled with 429 before any password check
  const target = 'dev-guess@example.com';
  await request.post(PORTAL + '/api/signup', { headers: { 'Content-Type': 'application/json' },
    data: JSON.stringify({ email: target, password: 'dev-Passw0rd-e2e-1' }) });
  const statuses = [];
  for (let i = 0; i < 7; i++) statuses.push((await signInAnswer(request, target, 'guess-Passw0rd-' + i)).status);
  check(statuses.slice(0, 5).every(s => s === 401) && statuses.slice(5).every(s => s === 429),
    'five guesses then 429: ' + statuses);
  const right = await signInAnswer(request, target, 'dev-Passw0rd-e2e-1');
  check(right.status === 429, 'even the right password waits out the throttle: ' + right.status);
}

const browser = await launchBrowser();
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (PHASE === 'journey') await journey(page);
  else if (PHASE === 'hostile') await hostile(page);
  else if (PHASE === 'admin') await admin(browser);
  else if (PHASE === 'tryit') await tryIt(page);
  else if (PHASE === 'security') await security(browser, page);
  else if (PHASE === 'plans') await plans(browser);
  else throw new Error('unknown phase ' + PHASE);
  console.log('phase ' + PHASE + ' passed');
} finally {
  await browser.close();
}
