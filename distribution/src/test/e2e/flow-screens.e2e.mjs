// The Flows screen in Debian's headless Chromium, one phase per run (FlowScreensEndToEndTest):
//   operator - a flow with a bad JSONata expression: the problem shown at its step and field (line named, text
//              selected); fixed and created; run now: the run fails at its third step, whose error and the earlier
//              steps' outputs are read in the run's steps; the list shows the failed last run; the history has the
//              run; disable and enable
//   viewer   - the same screen read-only: no new flow, no run now, no enable or disable, the editor read-only, and
//              the API refuses a change
// Settings come from the environment. Exits non-zero with the reason on any failure; screenshots in SCREENSHOTS.
import { env, BASE, LONG, check, signIn, runPhase } from './browser-phase.mjs';

const STUB = env('STUB_URL');

async function flowsScreen(page) {
  await page.goto(BASE + '/#/flows');
  await page.locator('#flow-list[aria-busy="false"]').waitFor(LONG);
}

const flow = (transform) => `name: rates-digest
trigger: {schedule: {cron: "0 0 12 * * ?", timezone: Europe/Paris}}
concurrency: forbid
steps:
  - id: fetch
    http: {method: GET, url: "${STUB}/rates", timeout: 10s, expect: [200]}
  - id: shape
    transform: '${transform}'
  - id: publish
    http: {method: POST, url: "${STUB}/broken", body: shape, timeout: 10s}
`;

async function operator(page, shot) {
  await signIn(page, 'operator', env('OPERATOR_PASSWORD'));
  await flowsScreen(page);
  check(await page.locator('#flows-empty').isVisible(), 'no flows at first');
  await page.locator('#new-flow').click();
  const editor = page.locator('#flow-document');
  const problems = page.locator('#flow-problems');

  // a typo in the expression: shown as one types, at the step and field it names
  await editor.fill(flow('{"eur": fetch.body.rates[code="EUR"].value'));
  await problems.waitFor({ state: 'visible', ...LONG });
  const problem = problems.locator('li[data-at="steps[1] (shape).transform"]');
  await problem.waitFor(LONG);
  check((await problem.innerText()).includes('line 8'), 'the problem names line 8: ' + await problem.innerText());
  check(await editor.getAttribute('aria-invalid') === 'true', 'the editor is marked invalid');
  await shot(page, '01-problem');

  // saving anyway: refused by the API, the text of that field selected
  await page.locator('#save-flow').click();
  await page.waitForFunction(() => {
    const t = document.getElementById('flow-document');
    return document.activeElement === t && t.value.slice(t.selectionStart, t.selectionEnd).startsWith('transform:');
  }, null, LONG);

  // fixed: valid as one types, then created
  await editor.fill(flow('{"eur": fetch.body.rates[code="EUR"].value}'));
  await page.locator('#flow-validity', { hasText: 'The document is valid.' }).waitFor(LONG);
  check(await problems.isHidden(), 'no problems left');
  await page.locator('#save-flow').click();
  const row = page.locator('#flows tr[data-flow="rates-digest"]');
  await row.waitFor(LONG);
  const cells = await row.innerText();
  check(cells.includes('0 0 12 * * ? (Europe/Paris)'), 'the trigger is listed: ' + cells);
  check(/none yet/.test(cells) && /enabled/.test(cells), 'no run yet, enabled: ' + cells);
  check(/\d{4}-\d\d-\d\d \d\d:00:00/.test(cells), 'the next run is listed: ' + cells);

  // run now: the third step fails (the stub answers 500); the run's steps say where and why
  await page.getByRole('button', { name: 'Run now rates-digest' }).click();
  await page.locator('#run-input').fill('{"day": "today"}');
  await page.locator('#start-run').click();
  const detail = page.locator('#run-detail');
  await detail.waitFor(LONG);
  check(await detail.getAttribute('data-status') === 'failed', 'the run failed: ' + await detail.innerText());
  const failedStep = detail.locator('tr[data-step="publish"][data-status="failed"]');
  const error = await failedStep.locator('.step-error').innerText();
  check(/500/.test(error), 'the failed step names the status: ' + error);
  const fetched = detail.locator('tr[data-step="fetch"][data-status="succeeded"]');
  await fetched.locator('summary').click();
  check((await fetched.locator('pre').innerText()).includes('"EUR"'), 'the first step\'s output is readable');
  check((await detail.locator('tr[data-step="shape"] pre').textContent()).includes('1.08'), 'the transform\'s output is there');
  await shot(page, '02-run-now');
  await page.keyboard.press('Escape');

  // the list shows the failed run; the history has it and its steps
  await flowsScreen(page);
  await row.locator('.last-run [data-status="failed"]').waitFor(LONG);
  await page.getByRole('button', { name: 'Runs rates-digest' }).click();
  const runRow = page.locator('#runs tr[data-status="failed"]');
  await runRow.waitFor(LONG);
  check((await runRow.innerText()).includes('manual'), 'the run was started by hand');
  await runRow.getByRole('button', { name: /^Steps of run/ }).click();
  await page.locator('#run-detail tr[data-step="publish"] .step-error').waitFor(LONG);
  check((await page.locator('#run-detail #run-input-shown').textContent()).includes('today'), 'the run\'s input is shown');
  await shot(page, '03-history');
  await page.keyboard.press('Escape');

  // disable: no next run; enable: the schedule is back
  await page.getByRole('button', { name: 'Disable rates-digest' }).click();
  await page.locator('#flows tr[data-flow="rates-digest"][data-enabled="false"]').waitFor(LONG);
  check((await row.innerText()).includes('off'), 'a disabled flow has no next run');
  await page.getByRole('button', { name: 'Enable rates-digest' }).click();
  await page.locator('#flows tr[data-flow="rates-digest"][data-enabled="true"]').waitFor(LONG);
  await shot(page, '04-list');
}

async function viewer(page, shot) {
  await signIn(page, 'viewer', env('VIEWER_PASSWORD'));
  await flowsScreen(page);
  await page.locator('#read-only-note').waitFor(LONG);
  check(await page.locator('#new-flow').isDisabled(), 'no new flow');
  const row = page.locator('#flows tr[data-flow="rates-digest"]');
  await row.waitFor(LONG);
  for (const label of ['Run now', 'Disable', 'Enable', 'Delete', 'Edit']) {
    check(await page.getByRole('button', { name: `${label} rates-digest` }).count() === 0, `no ${label} button`);
  }
  await page.getByRole('button', { name: 'View rates-digest' }).click();
  const editor = page.locator('#flow-document');
  await editor.waitFor(LONG);
  check(await editor.getAttribute('readonly') !== null, 'the editor is read-only');
  check(await page.locator('#save-flow').count() === 0, 'no save');
  await page.keyboard.press('Escape');
  // the history is readable
  await page.getByRole('button', { name: 'Runs rates-digest' }).click();
  await page.locator('#runs tr[data-status="failed"]').waitFor(LONG);
  await shot(page, '01-read-only');
  const refused = await page.evaluate(async () => {
    const r = await fetch('/apiops/flows/rates-digest/disable', { method: 'POST', headers: { Authorization: 'Bearer ' + sessionStorage.getItem('pylon.token') } });
    return r.status;
  });
  check(refused === 403, 'the API refuses a viewer\'s change: ' + refused);
}

await runPhase('flows', { operator, viewer }, /\/apiops\/flows/);
