// One developer's whole way through the Portal on the platform `pylon up` starts, in Debian's headless Chromium
// (PortalJourneyOnUpTest), in one go: sign up (the account waits), an admin approves it in the Manager UI, sign in,
// create an application, subscribe it to the published sample API, copy the key shown once, call the API from
// "Try it" on the docs page (the upstream's 200 through the real Worker), revoke the key (401 on every Worker within
// 3 s), and the usage chart shows exactly the calls that reached the upstream, in the Portal and in the Manager UI.
// Settings come from the environment; screenshots in SCREENSHOTS.
import { env, LONG, check, signIn, until, callApi, portal, runPhase } from './browser-phase.mjs';

const PORTAL = env('PORTAL_URL');
const MANAGER = env('MANAGER_URL');
const WORKERS = env('WORKER_URLS').split(',');
const PROXY = env('PROXY');
const PREFIX = env('PROXY_PREFIX');
const EMAIL = 'journey@example.com';
const PASSWORD = 'journey-Passw0rd-1';
const APP = 'journey';

async function approveInManagerUi(admin, shot) {
  await signIn(admin, 'admin', env('ADMIN_PASSWORD'), MANAGER);
  await admin.getByRole('link', { name: 'Developer portal' }).click();
  await admin.locator('#developer-status').selectOption('pending');
  const row = admin.locator(`#developers tr[data-developer="${EMAIL}"]`);
  await row.waitFor(LONG);
  check(await row.getAttribute('data-status') === 'pending', 'the new developer waits for approval');
  await shot(admin, 'developer-pending');
  await row.getByRole('button', { name: 'Approve ' + EMAIL }).click();
  await admin.locator('#developer-status').selectOption('');
  await admin.locator(`#developers tr[data-developer="${EMAIL}"][data-status="active"]`).waitFor(LONG);
}

// "Try it out" of GET /hello on the docs page, with the key pasted into the Portal's key field; the answers the
// browser got from the Worker for the call itself (not the CORS preflight) are counted in `calls`
async function tryIt(page, key, calls) {
  await page.evaluate((name) => { location.hash = '#/docs/' + name; }, PROXY);
  await page.locator('.swagger-ui .info').waitFor(LONG);
  await page.locator('#try-key').fill(key);
  await page.locator('.opblock-summary', { hasText: '/hello' }).first().click();
  await page.getByRole('button', { name: 'Try it out' }).click();
  const execute = page.getByRole('button', { name: 'Execute' });
  // the key reaches the Workers within seconds of being issued: until then the Worker answers 401
  const answer = await until('Try it to get the upstream\'s 200 through the Worker', async () => {
    const response = page.waitForResponse(r => r.url().startsWith(WORKERS[0] + PREFIX + '/hello')
      && r.request().method() === 'GET', LONG);
    await execute.click();
    const got = await response;
    if (got.status() !== 401) calls.count++;
    return got.status() === 200 ? got : null;
  }, 10_000, 250);
  // twice more: the chart must count each call, not each key or minute
  for (let i = 0; i < 2; i++) {
    const response = page.waitForResponse(r => r.url().startsWith(WORKERS[0] + PREFIX + '/hello')
      && r.request().method() === 'GET', LONG);
    await execute.click();
    check((await response).status() === 200, 'Try it again: 200, got ' + (await response).status());
    calls.count++;
  }
  const shown = page.locator('.live-responses-table .response .response-col_status', { hasText: '200' }).first();
  await shown.waitFor(LONG);
  const body = (await page.locator('.live-responses-table .response .response-col_description').first().textContent()) || '';
  check(/"service":\s*"sample"/.test(body) && /"path":\s*"\/hello"/.test(body), 'Try it shows the upstream\'s answer: ' + body);
  check(answer.url().startsWith(WORKERS[0] + PREFIX), 'Try it called the Worker: ' + answer.url());
}

async function journey(page, shot) {
  const context = page.context();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(PORTAL).origin });

  // sign-up: the account waits for an admin, and says so; signing in is refused until then
  const notice = await portal.signUp(page, PORTAL, EMAIL, PASSWORD);
  check(/approval/.test(notice), 'the sign-up says the account waits for approval: ' + notice);
  const refused = await portal.trySignIn(page, EMAIL, PASSWORD);
  check(/approval/.test(refused), 'a pending account cannot sign in: ' + refused);

  const admin = await context.newPage();
  await approveInManagerUi(admin, shot);

  await portal.signIn(page, PORTAL, EMAIL, PASSWORD);
  await portal.createApplication(page, APP);
  await portal.subscribe(page, APP, PROXY, 'active');
  const key = await portal.issueKey(page, APP);
  check(/^pylon_key_[A-Za-z0-9_-]{40,}$/.test(key), 'a key is shown: ' + key);
  await portal.card(page, APP).getByRole('button', { name: 'Copy' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === key, 'Copy put the key on the clipboard');
  await shot(page, 'key-shown');
  // shown once: after a reload only its prefix is on the page, and the key is only on the clipboard
  await page.reload();
  await page.getByRole('heading', { name: 'My applications' }).waitFor(LONG);
  check(!(await page.content()).includes(key), 'the key is not shown again');

  const calls = { count: 0 };
  await tryIt(page, copied, calls);
  await shot(page, 'try-it');
  // the key works on every Worker pod before it is revoked, so that the 401 below is the revocation's
  for (const worker of WORKERS.slice(1)) {
    await until('the key to work on ' + worker, async () => {
      const answer = await callApi(worker + PREFIX + '/hello', key);
      if (answer.status !== 401) calls.count++;
      return answer.status === 200;
    }, 10_000, 100);
  }

  await page.evaluate(() => { location.hash = '#/apps'; });
  await page.getByRole('heading', { name: 'My applications' }).waitFor(LONG);
  // revoked is when the Portal confirms it (the Manager has stored it); the click's round trip is printed beside
  const clicked = Date.now();
  const confirmed = page.waitForResponse(r => /\/api\/applications\/[^/]+\/keys\/[^/]+$/.test(r.url())
    && r.request().method() === 'DELETE', LONG);
  await portal.card(page, APP).locator('.revoke').first().click();
  check((await confirmed).status() === 204, 'the Portal revoked the key');
  const revoked = Date.now();
  for (const worker of WORKERS) {
    const answer = await until('the revoked key to be refused by ' + worker, async () => {
      const got = await callApi(worker + PREFIX + '/hello', key);
      if (got.status !== 401) calls.count++;
      return got.status === 401 ? got : null;
    }, 10_000, 50);
    const took = Date.now() - revoked;
    check(answer.body.includes('invalid_api_key'), 'revoked key: 401 invalid_api_key, got ' + answer.body);
    check(took < 3_000, `the revocation reached ${worker} within 3 s, took ${took} ms`);
    console.log(`revocation reached ${worker} ${took} ms after the Portal confirmed it (${Date.now() - clicked} ms after the click)`);
  }
  await page.getByText('Key revoked.').waitFor(LONG);

  // the usage the Workers report every few seconds: exactly the calls that reached the upstream
  console.log(`calls that reached the upstream with the key: ${calls.count}`);
  check(calls.count >= 3 + WORKERS.length - 1, 'three calls from Try it and one per other Worker counted: ' + calls.count);
  const reported = Date.now();
  const chart = await portal.usageChart(page, APP, calls.count);
  console.log(`the Portal's chart showed them ${Date.now() - reported} ms after the revocation`);
  check(await chart.getAttribute('data-errors') === '0', 'no errors counted');
  const bars = await portal.card(page, APP).locator('g.usage-minute')
    .evaluateAll(gs => gs.reduce((n, g) => n + Number(g.dataset.requests), 0));
  check(bars === calls.count, `the bars add up to ${calls.count} requests, got ${bars}`);
  await shot(page, 'usage');

  await admin.getByRole('link', { name: 'API usage' }).click();
  await admin.locator(`#usage-proxy option[value="${PROXY}"]`).waitFor({ state: 'attached', ...LONG });
  await admin.selectOption('#usage-proxy', PROXY);
  const managerChart = admin.locator('#usage-chart svg.usage-chart');
  await until('the Manager UI\'s chart to show the calls', async () =>
    (await managerChart.count()) === 1 && (await managerChart.getAttribute('data-requests')) === String(calls.count));
  await shot(admin, 'usage');
}

await runPhase('portal-journey', { journey }, /\/(api|apiops)\//);
