// The gateway screens in Debian's headless Chromium, one phase per run (GatewayScreensEndToEndTest):
//   operator - create a proxy, see the refusal at the field it names, fix it; a revision and its diff; an OpenAPI
//              import; deploy to an environment whose Worker pods follow the Manager and see both in sync; deploy a
//              change one pod refuses and see it rejected, also in Server Management's gateway configuration; roll
//              back and see both in sync again
//   viewer   - the same screens read-only: no way to change or deploy
// Settings come from the environment. Exits non-zero with the reason on any failure; screenshots in SCREENSHOTS.
import { env, BASE, LONG, check, signIn, runPhase } from './browser-phase.mjs';

const ENVIRONMENT = env('PYLON_ENVIRONMENT', 'test');
const UPSTREAM = env('UPSTREAM_URL');

async function go(page, route, ready) {
  await page.goto(BASE + '/#/' + route);
  await page.locator(ready).first().waitFor(LONG);
}

async function saveDefinition(page, text) {
  await page.locator('#definition').fill(text);
  await page.locator('#save-proxy').click();
}

async function podStates(page) {
  return page.$$eval('#gateway tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.pod, r.dataset.state])));
}

async function waitForStates(page, expected) {
  const deadline = Date.now() + 60_000;
  let states = {};
  while (Date.now() < deadline) {
    await go(page, 'gateway', '#gateway, #gateway-empty');
    states = await podStates(page);
    if (Object.entries(expected).every(([pod, state]) => states[pod] === state)) return states;
    await page.waitForTimeout(1000);
  }
  throw new Error('pods never reached ' + JSON.stringify(expected) + ': ' + JSON.stringify(states));
}

const DEFINITION = `name: orders
description: Orders API
pathPrefix: /orders
upstreams:
  - ${UPSTREAM}
rateLimit:
  requests: -5
  per: second
`;

async function operator(page, shot) {
  await signIn(page, 'admin', env('ADMIN_PASSWORD'));
  await go(page, 'proxies', '#proxies-empty, #proxies');
  check(!/\bnull\b|undefined/.test(await page.locator('main').innerText()), 'no "null" or "undefined" on the screen');
  await page.locator('#new-proxy').click();
  await saveDefinition(page, DEFINITION);
  const error = page.locator('#definition-error');
  await error.waitFor({ state: 'visible', ...LONG });
  check(await error.getAttribute('data-field') === 'rateLimit.requests', 'the refusal names its field: ' + await error.innerText());
  check(/line 7/.test(await error.innerText()), 'the refusal names the line of that field: ' + await error.innerText());
  check(await page.locator('#definition').getAttribute('aria-invalid') === 'true', 'the editor is marked invalid');
  const selected = await page.locator('#definition').evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
  check(/requests: -5/.test(selected), 'the field is selected in the editor: ' + selected);
  await shot(page, '01-field-error');

  await saveDefinition(page, DEFINITION.replace('-5', '50'));
  await page.waitForSelector('dialog', { state: 'detached', ...LONG });
  await page.locator('#proxies tr[data-proxy="orders"]').waitFor(LONG);

  // a second revision, and the diff of the two
  await page.getByRole('button', { name: 'Edit orders' }).click();
  const editor = page.locator('#definition');
  await editor.waitFor(LONG);
  check(/requests: 50/.test(await editor.inputValue()), 'the editor shows the stored definition as YAML');
  await editor.fill((await editor.inputValue()).replace('Orders API', 'Orders API, v2'));
  await page.locator('#definition-comment').fill('clearer description');
  await page.locator('#save-proxy').click();
  await page.waitForSelector('dialog', { state: 'detached', ...LONG });
  await page.getByRole('button', { name: 'Revisions orders' }).click();
  await page.locator('#diff-list li[data-path="/description"]').waitFor(LONG);
  const diff = await page.locator('#diff-list').innerText();
  check(/Changed description/.test(diff) && /Orders API, v2/.test(diff), 'the diff reads as a change: ' + diff);
  await shot(page, '02-revisions-diff');
  await page.keyboard.press('Escape');

  // an OpenAPI document, pasted
  await page.locator('#import-openapi').click();
  await page.locator('#openapi-document').fill(`openapi: 3.0.3
info: {title: Pet Store, version: "1"}
servers: [{url: "${UPSTREAM}/pets"}]
paths:
  /pets: {get: {responses: {"200": {description: ok}}}}
`);
  await page.locator('#import-submit').click();
  await page.locator('#proxies tr[data-proxy="pet-store"]').waitFor(LONG);
  // ...and one uploaded as a file, named here
  await page.locator('#import-openapi').click();
  await page.locator('#openapi-file').setInputFiles({ name: 'users.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({
    openapi: '3.1.0', info: { title: 'Users', version: '2' }, servers: [{ url: UPSTREAM }],
    paths: { '/users': { get: { responses: { 200: { description: 'ok' } } } } } })) });
  await page.waitForFunction(() => document.querySelector('#openapi-document').value.includes('"openapi"'));
  await page.locator('#openapi-name').fill('people');
  await page.locator('#openapi-prefix').fill('/people');
  await page.locator('#import-submit').click();
  await page.locator('#proxies tr[data-proxy="people"]').waitFor(LONG);
  await shot(page, '03-list');

  // deploy to the environment: both pods apply it
  await go(page, 'deploy', '#deploy-choice');
  await page.locator('#gw-environment').selectOption(ENVIRONMENT);
  await page.getByLabel('Deploy orders').check();
  await page.locator('#deploy-comment').fill('first');
  await page.locator('#deploy-submit').click();
  await page.locator('#deploy-result').waitFor(LONG);
  const applied = await page.$$eval('#deploy-pods tbody tr', (rows) => rows.map((r) => r.dataset.state));
  check(applied.length === 2 && applied.every((s) => s === 'applied'), 'both pods applied version 1: ' + applied);
  await shot(page, '04-deployed');
  await waitForStates(page, { 'gw-one': 'in-sync', 'gw-two': 'in-sync' });
  await shot(page, '05-in-sync');

  // a change pod gw-two refuses (its platform paths are under /ops): rejected, shown as such
  await go(page, 'proxies', '#proxies');
  await page.getByRole('button', { name: 'Edit orders' }).click();
  await editor.waitFor(LONG);
  await editor.fill((await editor.inputValue()).replace('pathPrefix: /orders', 'pathPrefix: /ops/orders'));
  await page.locator('#save-proxy').click();
  await page.waitForSelector('dialog', { state: 'detached', ...LONG });
  await go(page, 'deploy', '#deploy-choice');
  await page.getByLabel('Deploy orders').check();
  await page.locator('#deploy-submit').click();
  await page.locator('#deploy-result').waitFor(LONG);
  const states = await page.$$eval('#deploy-pods tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.pod, r.dataset.state])));
  check(states['gw-two'] === 'rejected' && states['gw-one'] === 'applied', 'gw-two rejected version 2: ' + JSON.stringify(states));
  check(/NOT applied/.test(await page.locator('#deploy-summary').innerText()), 'the summary says it failed');
  await shot(page, '06-rejected');
  await waitForStates(page, { 'gw-one': 'in-sync', 'gw-two': 'rejected' });
  await shot(page, '07-status-rejected');
  await serverManagementConfig(page, shot);

  // roll back to version 1: both in sync again
  await go(page, 'deployments', '#deployments');
  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: `Roll back ${ENVIRONMENT} to version 1` }).click();
  await page.locator('#deploy-result').waitFor(LONG);
  const back = await page.$$eval('#deploy-pods tbody tr', (rows) => rows.map((r) => r.dataset.state));
  check(back.length === 2 && back.every((s) => s === 'applied'), 'both pods applied the rollback: ' + back);
  await page.locator('#deployments tr[data-version="3"] .badge.current').waitFor(LONG);
  await page.locator('#deployments tr[data-version="1"] details.snapshot summary').click();
  await page.locator('#deployments tr[data-version="1"] details.snapshot li').first().waitFor(LONG);
  check(/orders @ revision 2/.test(await page.locator('#deployments tr[data-version="1"] details.snapshot').innerText()),
    'version 1 deployed orders at revision 2');
  await shot(page, '08-rolled-back');
  await waitForStates(page, { 'gw-one': 'in-sync', 'gw-two': 'in-sync' });
  await shot(page, '09-in-sync-again');
}

// Server Management's gateway configuration: version 2 deployed with its hash; gw-one applied it, gw-two refused it
// and serves version 1; gw-one (the environment's Worker URL) shows its own config section in a panel
async function serverManagementConfig(page, shot) {
  await go(page, 'servers', '#gateway-config');
  await page.locator('#config-pods tbody tr').first().waitFor(LONG);
  const deployed = await page.locator('#config-deployed').innerText();
  check(/version 2\b/.test(deployed), 'version 2 is deployed: ' + deployed);
  const hash = await page.locator('#config-deployed code.hash').innerText();
  check(/^[0-9a-f]{64}$/.test(hash), 'the deployed hash is shown in full: ' + hash);
  const rows = await page.$$eval('#config-pods tbody tr', (trs) => Object.fromEntries(trs.map((r) => [r.dataset.pod, {
    state: r.dataset.state, applied: r.querySelector('.applied').innerText, rejected: r.querySelector('.rejected').innerText,
    hash: r.querySelector('code')?.title, text: r.innerText }])));
  check(rows['gw-one']?.state === 'in-sync' && rows['gw-one'].applied === '2' && rows['gw-one'].hash === hash,
    'gw-one applied version 2 with the deployed hash: ' + JSON.stringify(rows['gw-one']));
  check(rows['gw-two']?.state === 'rejected' && rows['gw-two'].applied === '1' && rows['gw-two'].rejected === '2'
    && rows['gw-two'].hash !== hash && /\/ops/.test(rows['gw-two'].text),
    'gw-two serves version 1 and shows why it refused version 2: ' + JSON.stringify(rows['gw-two']));
  await shot(page, '07b-server-management-config');
  await page.getByRole('button', { name: 'Config of gw-one' }).click();
  await page.locator('dialog table.kv').first().waitFor(LONG);
  const panel = await page.locator('dialog').innerText();
  check(/Applied version\s+2\b/.test(panel) && /Source\s+manager/.test(panel), 'the pod\'s own config section: ' + panel.slice(0, 400));
  await shot(page, '07c-worker-config-panel');
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog', { state: 'detached' });
}

async function viewer(page, shot) {
  await signIn(page, 'viewer', env('VIEWER_PASSWORD'));
  await go(page, 'proxies', '#proxies, #proxies-empty');
  check(await page.locator('#read-only-note').isVisible(), 'a viewer is told the screen is read-only');
  check(!/\bnull\b|undefined/.test(await page.locator('main').innerText()), 'no "null" or "undefined" on the screen');
  check(await page.locator('#new-proxy').isDisabled() && await page.locator('#import-openapi').isDisabled(), 'no creating');
  check(await page.getByRole('button', { name: /^Delete / }).count() === 0, 'no deleting');
  if (await page.getByRole('button', { name: 'View orders' }).count()) {
    await page.getByRole('button', { name: 'View orders' }).click();
    check(await page.locator('#definition').getAttribute('readonly') !== null, 'the definition is read-only');
    check(await page.locator('#save-proxy').count() === 0, 'no save button');
    await page.keyboard.press('Escape');
  }
  await shot(page, '01-proxies');
  await go(page, 'deploy', '#deploy-choice, #deploy-choice-empty');
  check(await page.locator('#deploy-submit').isDisabled(), 'no deploying');
  await go(page, 'deployments', '#deployments, #deployments-empty');
  const enabled = await page.$$eval('#deployments button', (b) => b.filter((x) => !x.disabled).length);
  check(enabled === 0, 'no rolling back');
  await shot(page, '02-deployments');
}

await runPhase('gateway', { operator, viewer }, /\/apiops\/(proxies|environments\/[^/]+\/(deployments|gateway-status))/);
