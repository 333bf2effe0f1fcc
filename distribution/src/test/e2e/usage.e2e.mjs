// Usage charts in Debian's headless Chromium (UsageChartsEndToEndTest): a developer signs up on the Portal, creates
// an application, subscribes, gets a key; the test calls the API through the real Worker 7 times with the upstream's
// 200 and 3 times with its 500; the Portal's usage chart of the application then shows exactly 10 requests and
// 3 errors, and so does the Manager's API usage screen for the API, with the application in its table.
// Settings come from the environment. Exits non-zero with the reason on any failure; screenshots in SCREENSHOTS.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { env, check, until, signIn, portal, launchBrowser } from './browser-phase.mjs';

const PORTAL = env('PORTAL_URL');
const WORKER = env('WORKER_URL');
const MANAGER = env('MANAGER_URL');
const ADMIN = [env('ADMIN_USER', 'admin'), env('ADMIN_PASSWORD')];
const SHOTS = env('SCREENSHOTS', 'target/e2e-screenshots');
mkdirSync(SHOTS, { recursive: true });

async function callWorker(path, key) {
  const response = await fetch(WORKER + path, { headers: { 'X-API-Key': key } });
  await response.arrayBuffer();
  return response.status;
}

function watchErrors(page, errors) {
  page.on('pageerror', e => errors.push(e.message));
  // answers with an error status (signed out, the landing page's unreachable pods) are the app's normal life
  page.on('console', m => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
}

async function portalJourney(page) {
  await portal.signUp(page, PORTAL, 'metered@example.com', 'dev-Passw0rd-usage-1');
  await portal.signIn(page, PORTAL, 'metered@example.com', 'dev-Passw0rd-usage-1');
  const card = await portal.createApplication(page, 'metered');
  await portal.subscribe(page, 'metered', 'orders', 'active');
  const key = await portal.issueKey(page, 'metered');
  const appId = await card.getAttribute('data-app');

  // the first 200 is the first counted request: refusals before the key reached the Worker have no application
  await until('the key to work on the Worker', async () => (await callWorker('/orders/ok', key)) === 200);
  for (let i = 0; i < 6; i++) check(await callWorker('/orders/ok', key) === 200, 'a call with the key is 200');
  for (let i = 0; i < 3; i++) check(await callWorker('/orders/fail', key) === 500, 'the upstream\'s 500 passes');

  const chart = await portal.usageChart(page, 'metered', 10);
  check(await chart.getAttribute('data-errors') === '3', 'the chart counts 3 errors');
  const bars = await card.locator('g.usage-minute').evaluateAll(gs => gs.reduce((n, g) => n + Number(g.dataset.requests), 0));
  check(bars === 10, 'the bars add up to 10 requests, got ' + bars);
  const summary = await card.locator('.usage-summary').textContent();
  check(summary.startsWith('10 requests, 3 errors (0 4xx, 3 5xx)'), 'the summary in words: ' + summary);
  check((await chart.getAttribute('aria-label')).includes('10 requests'), 'the chart says its figures to screen readers');
  await page.screenshot({ path: join(SHOTS, 'usage-portal.png'), fullPage: true });
  return appId;
}

async function managerScreen(page, appId) {
  await signIn(page, ADMIN[0], ADMIN[1], MANAGER);
  await page.getByRole('link', { name: 'API usage' }).click();
  await page.getByRole('heading', { name: 'API usage' }).waitFor({ timeout: 30_000 });
  await page.locator('#usage-proxy option[value="orders"]').waitFor({ state: 'attached', timeout: 30_000 });
  await page.selectOption('#usage-proxy', 'orders');
  const chart = page.locator('#usage-chart svg.usage-chart');
  await until('the Manager chart to show 10 requests', async () =>
    (await chart.count()) === 1 && (await chart.getAttribute('data-requests')) === '10');
  check(await chart.getAttribute('data-errors') === '3', 'the Manager chart counts 3 errors');
  const row = page.locator(`#usage-breakdown tr[data-row="${appId}"] td`);
  // the breakdown table is drawn after the chart: wait for the application's row before reading it
  await until('the application row in the breakdown', async () => (await row.count()) > 0);
  const cells = await row.allTextContents();
  check(cells[0].startsWith('metered') && cells[1] === '10' && cells[2] === '3' && cells[4] === '3',
    'the application row: ' + cells.join(' | '));
  check((await page.locator('#usage-summary').textContent()).startsWith('10 requests, 3 errors'), 'the summary');
  await page.screenshot({ path: join(SHOTS, 'usage-manager.png'), fullPage: true });
}

const browser = await launchBrowser();
try {
  const errors = [];
  const portalPage = await (await browser.newContext()).newPage();
  watchErrors(portalPage, errors);
  const appId = await portalJourney(portalPage);
  const managerPage = await (await browser.newContext()).newPage();
  watchErrors(managerPage, errors);
  await managerScreen(managerPage, appId);
  check(errors.length === 0, 'no page errors (CSP included): ' + errors.join('; '));
  console.log('phase charts passed');
} finally {
  await browser.close();
}
