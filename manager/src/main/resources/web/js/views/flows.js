// Integration flows: the list (trigger, state, last run, next run); an editor of the document as YAML or JSON that
// validates as one types and shows each problem at the step and field it names; run now; the run history, newest
// first and paged by keyset, with each run's step attempts (input, output, error, timing); enable and disable.
// Viewers read only; the API refuses their changes anyway.
import * as api from '../api.js';
import { h, put, clear, field, notify, openDialog } from '../dom.js';
import * as fmt from '../format.js';
import * as gw from '../gateway.js';
import { problemOffset, lineOf, statusClass, between, triggerText } from '../flow-text.js';

const PAGE = 25;
const VALIDATE_AFTER_MS = 500;
const TEMPLATE = `name: sync-rates
trigger: {schedule: {cron: "0 */5 * * * ?", timezone: UTC}, http: false}
concurrency: forbid
steps:
  - id: fetch
    http: {method: GET, url: "http://rates.internal/today", timeout: 5s, expect: [200]}
    retry: {maxAttempts: 3, initialDelay: 1s, multiplier: 2, maxDelay: 10s}
  - id: shape
    transform: '{"eur": fetch.body.rates[code="EUR"].value}'
`;

const flowPath = (name) => '/apiops/flows/' + api.enc(name);

export async function render(main, session) {
  const writer = gw.canWrite(session);
  put(main, h('h1', {}, 'Flows'),
    h('p', { class: 'intro' }, 'Integration flows: call an API, reshape its answer, decide, notify, on a schedule or when called. The Integration pods run them.'),
    gw.readOnlyNote(session));
  const toolbar = h('div', { class: 'toolbar' },
    h('button', { type: 'button', class: 'button', id: 'new-flow', disabled: !writer, onclick: () => edit(null) }, 'New flow'),
    h('button', { type: 'button', class: 'button secondary', id: 'refresh-flows', onclick: () => reload() }, 'Refresh'));
  const list = h('div', { id: 'flow-list', 'aria-busy': 'true' });
  main.append(toolbar, list);

  async function reload() {
    list.setAttribute('aria-busy', 'true');
    try {
      const flows = [];
      let after = null;
      do { // every page: a Manager holds at most pylon.integration.max-flows
        const answer = await api.json('/apiops/flows?limit=500' + (after ? '&after=' + api.enc(after) : ''));
        flows.push(...api.listOf(answer, 'flows'));
        after = answer && answer.next;
      } while (after);
      clear(list).append(gw.table('flows', ['Name', 'Trigger', 'State', 'Last run', 'Next run', 'Actions'], flows.map(row),
        'No flows yet.' + (writer ? ' Create one with "New flow".' : '')));
    } catch (err) {
      gw.showError(list, err);
    }
    list.setAttribute('aria-busy', 'false');
  }

  function row(f) {
    const btn = (label, onclick, cls = 'small', extra = {}) => h('button', { type: 'button', class: 'button ' + cls,
      'aria-label': `${label} ${f.name}`, onclick, ...extra }, label);
    const last = f.lastRun;
    return h('tr', { dataset: { flow: f.name, enabled: String(f.enabled) } },
      h('th', { scope: 'row', 'data-label': 'Name' }, f.name, h('div', { class: 'muted small' }, `version ${f.version}`)),
      h('td', { 'data-label': 'Trigger', class: 'mono' }, triggerText(f.trigger)),
      h('td', { 'data-label': 'State' }, h('span', { class: 'badge ' + (f.enabled ? 'up' : 'neutral') }, f.enabled ? 'enabled' : 'disabled')),
      h('td', { 'data-label': 'Last run', class: 'last-run' }, last
        ? [statusBadge(last.status), ' ', h('span', { class: 'nowrap' }, fmt.dateTime(last.startedAt || last.scheduledAt))]
        : h('span', { class: 'muted' }, 'none yet')),
      h('td', { 'data-label': 'Next run', class: 'nowrap' }, f.nextRun ? fmt.dateTime(f.nextRun) : (f.enabled ? '–' : 'off')),
      h('td', { class: 'actions' },
        btn(writer ? 'Edit' : 'View', () => edit(f.name)),
        btn('Runs', () => runs(f.name), 'small secondary'),
        writer ? btn('Run now', () => runNow(f.name), 'small secondary') : null,
        writer ? btn(f.enabled ? 'Disable' : 'Enable', () => setEnabled(f.name, !f.enabled), 'small secondary') : null,
        writer ? btn('Delete', () => remove(f.name), 'small danger') : null));
  }

  async function setEnabled(name, enabled) {
    try {
      const flow = await api.json(flowPath(name) + (enabled ? '/enable' : '/disable'), { method: 'POST' });
      notify(`Flow ${name} is ${enabled ? 'enabled' : 'disabled'}` + (enabled && flow.nextRun ? `; next run ${fmt.dateTime(flow.nextRun)}.` : '.'), 'success');
    } catch (err) {
      notify(api.explain(err), 'error');
    }
    reload();
  }

  async function remove(name) {
    if (!confirm(`Delete the flow ${name}? Its schedule ends; its history stays until pruned.`)) return;
    try {
      await api.json(flowPath(name), { method: 'DELETE' });
      notify(`Flow ${name} deleted.`, 'success');
    } catch (err) {
      notify(api.explain(err), 'error');
    }
    reload();
  }

  async function edit(name) {
    let current = null;
    if (name) {
      try {
        current = await api.json(flowPath(name));
      } catch (err) {
        notify(api.explain(err), 'error');
        return;
      }
    }
    const { body, close } = openDialog(name ? `Flow ${name}` + (writer ? ` (version ${current.version})` : '') : 'New flow', { wide: true });
    const text = h('textarea', { id: 'flow-document', class: 'code-editor', rows: 20, spellcheck: 'false', readonly: !writer,
      'aria-describedby': 'flow-problems' }, current ? current.document : TEMPLATE);
    const problems = h('div', { class: 'field-error', id: 'flow-problems', role: 'alert', hidden: true });
    const state = h('p', { class: 'muted', id: 'flow-validity', 'aria-live': 'polite' });
    const save = h('button', { type: 'submit', class: 'button', id: 'save-flow' }, name ? 'Save' : 'Create flow');
    const form = h('form', { novalidate: true, class: 'flow-editor' },
      field('Flow document (YAML or JSON)', text, 'Checked against the published flow schema as you type; docs/integration.md describes every field.'),
      problems, state, writer ? h('div', {}, save) : null);
    let timer = null;
    let checked = 0;
    const validate = async () => {
      const id = ++checked;
      try {
        const answer = await api.json('/apiops/flows/validate', { method: 'POST', headers: { 'Content-Type': contentType(text.value) }, body: text.value });
        if (id !== checked) return;
        showProblems(text, problems, state, answer.valid ? [] : answer.problems || [], false);
      } catch (err) {
        if (id === checked) state.textContent = 'Not checked: ' + api.explain(err);
      }
    };
    if (writer) {
      text.addEventListener('input', () => {
        clearTimeout(timer);
        state.textContent = 'Checking…';
        timer = setTimeout(validate, VALIDATE_AFTER_MS);
      });
    }
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearTimeout(timer);
      checked++;
      save.disabled = true;
      try {
        const saved = await api.json(current ? flowPath(current.name) : '/apiops/flows',
          { method: current ? 'PUT' : 'POST', headers: { 'Content-Type': contentType(text.value) }, body: text.value });
        close();
        notify(`Flow ${saved.name} saved (version ${saved.version}).`, 'success');
        if (saved.triggerKey) showTriggerKey(saved.name, saved.triggerKey);
        reload();
      } catch (err) {
        const listed = err instanceof api.ApiError && err.details && Array.isArray(err.details.problems) ? err.details.problems : null;
        if (listed) showProblems(text, problems, state, listed, true);
        else {
          clear(problems).append(api.explain(err));
          problems.hidden = false;
        }
      } finally {
        save.disabled = false;
      }
    });
    body.append(form);
    text.focus();
    validate();
  }

  function showTriggerKey(name, key) {
    const { body } = openDialog(`Trigger key of ${name}`);
    body.append(h('p', {}, 'Shown only now. A caller starts a run with ', h('code', {}, 'X-Trigger-Key'),
      ' on POST /<segment>/integration/flows/' + name + '/runs of the Integration pod.'),
    h('pre', { id: 'trigger-key' }, key),
    h('button', { type: 'button', class: 'button secondary', onclick: () => navigator.clipboard.writeText(key).then(() => notify('Copied.', 'success')) }, 'Copy'));
  }

  function runNow(name) {
    const { body } = openDialog(`Run ${name} now`, { wide: true });
    const input = h('textarea', { id: 'run-input', class: 'code-editor', rows: 6, spellcheck: 'false', placeholder: '{"day": "today"}' });
    const error = h('div', { class: 'field-error', role: 'alert', hidden: true });
    const start = h('button', { type: 'submit', class: 'button', id: 'start-run' }, 'Run now');
    const result = h('div', { id: 'run-now-result', 'aria-live': 'polite' });
    const form = h('form', { novalidate: true },
      field('Input (JSON, optional): the run\'s $input', input), error, start, result);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      const text = input.value.trim();
      if (text) {
        try { JSON.parse(text); } catch (e) {
          error.textContent = 'The input is not JSON: ' + e.message;
          error.hidden = false;
          return;
        }
      }
      start.disabled = true;
      clear(result).append(h('p', { class: 'muted' }, 'Running… (the answer waits up to 30 s for the run to end)'));
      try {
        const run = await api.json(flowPath(name) + '/runs?wait=30s', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
        clear(result).append(runDetail(name, run));
        reload();
      } catch (err) {
        clear(result);
        error.textContent = api.explain(err);
        error.hidden = false;
      } finally {
        start.disabled = false;
      }
    });
    body.append(form);
    input.focus();
  }

  function runs(name) {
    const { body } = openDialog(`Runs of ${name}`, { wide: true });
    const status = h('p', { class: 'muted', id: 'runs-status', 'aria-live': 'polite' });
    const newer = h('button', { type: 'button', class: 'button secondary', id: 'runs-newer', disabled: true }, 'Newer');
    const older = h('button', { type: 'button', class: 'button secondary', id: 'runs-older', disabled: true }, 'Older');
    const table = h('div', { id: 'runs-table' });
    const detail = h('div', { id: 'run-detail-box' });
    body.append(h('div', { class: 'toolbar' }, newer, older,
      h('button', { type: 'button', class: 'button secondary', onclick: () => load(pages[pages.length - 1]) }, 'Refresh')), status, table, detail);
    const pages = [undefined];
    let next = null;
    async function load(before) {
      older.disabled = true;
      newer.disabled = true;
      status.textContent = 'Loading…';
      try {
        const answer = await api.json(`${flowPath(name)}/runs?limit=${PAGE}` + (before ? '&before=' + before : ''));
        const list = api.listOf(answer, 'runs');
        next = answer && typeof answer.next === 'number' ? answer.next : null;
        clear(table).append(gw.table('runs', ['Scheduled', 'Status', 'Trigger', 'Started', 'Took', 'Attempts', 'Pod', 'Error', ''],
          list.map((r) => h('tr', { dataset: { run: r.id, status: r.status } },
            h('td', { 'data-label': 'Scheduled', class: 'nowrap' }, fmt.dateTime(r.scheduledAt || r.createdAt)),
            h('td', { 'data-label': 'Status' }, statusBadge(r.status)),
            h('td', { 'data-label': 'Trigger' }, r.trigger),
            h('td', { 'data-label': 'Started', class: 'nowrap' }, r.startedAt ? fmt.dateTime(r.startedAt) : '–',
              r.startedAt && r.scheduledAt ? h('div', { class: 'muted small' }, fmt.millis(between(r.scheduledAt, r.startedAt)) + ' after due') : null),
            h('td', { 'data-label': 'Took', class: 'num' }, fmt.millis(between(r.startedAt, r.finishedAt))),
            h('td', { 'data-label': 'Attempts', class: 'num' }, r.attempts),
            h('td', { 'data-label': 'Pod', class: 'mono' }, r.pod || '–'),
            h('td', { 'data-label': 'Error', class: 'run-error' }, r.error || ''),
            h('td', { class: 'actions' }, h('button', { type: 'button', class: 'button small secondary', 'aria-label': 'Steps of run ' + r.id,
              onclick: () => openRun(r.id) }, 'Steps')))),
          'No runs yet.'));
        status.textContent = list.length ? `Page ${pages.length}: ${list.length} runs, newest first.` : '';
      } catch (err) {
        gw.showError(table, err);
        status.textContent = '';
      }
      older.disabled = next === null;
      newer.disabled = pages.length <= 1;
    }
    async function openRun(id) {
      clear(detail).append(h('p', { class: 'muted' }, 'Loading the run…'));
      try {
        const run = await api.json(`${flowPath(name)}/runs/${api.enc(id)}`);
        clear(detail).append(runDetail(name, run));
        detail.scrollIntoView({ block: 'start' });
      } catch (err) {
        gw.showError(detail, err);
      }
    }
    older.addEventListener('click', () => { pages.push(next); load(next); });
    newer.addEventListener('click', () => { pages.pop(); load(pages[pages.length - 1]); });
    load(undefined);
  }

  reload();
  return null;
}

function statusBadge(status) {
  return h('span', { class: 'badge ' + statusClass(status), dataset: { status } }, status === 'false' ? 'condition false' : status);
}

function contentType(text) {
  return /^\s*[{[]/.test(text) ? 'application/json' : 'application/yaml';
}

/** The problems the API found, at their places: listed under the editor, the first one's line selected. */
function showProblems(text, box, state, problems, focus) {
  clear(box);
  if (!problems.length) {
    box.hidden = true;
    text.removeAttribute('aria-invalid');
    state.textContent = 'The document is valid.';
    return;
  }
  state.textContent = problems.length === 1 ? '1 problem.' : `${problems.length} problems.`;
  text.setAttribute('aria-invalid', 'true');
  const items = problems.map((p) => {
    const offset = problemOffset(text.value, p.at);
    const line = offset < 0 ? null : lineOf(text.value, offset);
    const select = () => {
      if (offset < 0) return;
      const end = text.value.indexOf('\n', offset);
      text.focus();
      text.setSelectionRange(offset, end < 0 ? text.value.length : end);
      const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 18;
      text.scrollTop = Math.max(0, (line - 3) * lineHeight);
    };
    return { select, el: h('li', { dataset: { at: p.at, line: line ?? '' } },
      h('strong', { class: 'field-name' }, p.at), line ? [' (', h('a', { href: '#', onclick: (e) => { e.preventDefault(); select(); } }, `line ${line}`), ')'] : '',
      ': ', p.message) };
  });
  box.append(h('ul', { class: 'problems' }, items.map((i) => i.el)));
  box.hidden = false;
  if (focus) items[0].select();
}

/** A run and its step attempts: each attempt's status, timing and HTTP status, its output and error unfolded. */
function runDetail(name, run) {
  const steps = run.steps || [];
  const facts = [
    ['Status', statusBadge(run.status)], ['Trigger', run.trigger], ['Scheduled', fmt.dateTime(run.scheduledAt)],
    ['Started', run.startedAt ? fmt.dateTime(run.startedAt) : 'not yet'], ['Finished', run.finishedAt ? fmt.dateTime(run.finishedAt) : 'not yet'],
    ['Took', fmt.millis(between(run.startedAt, run.finishedAt))], ['Attempts', run.attempts], ['Pod', run.pod || '–']];
  const rows = steps.map((s) => {
    const failed = s.status === 'failed';
    return h('tr', { dataset: { step: s.step, status: s.status, attempt: s.attempt } },
      h('th', { scope: 'row', 'data-label': 'Step' }, s.step, s.phase === 'onFailure' ? h('div', { class: 'muted small' }, 'on failure') : null),
      h('td', { 'data-label': 'Kind' }, s.kind),
      h('td', { 'data-label': 'Attempt', class: 'num' }, s.attempt),
      h('td', { 'data-label': 'Status' }, statusBadge(s.status)),
      h('td', { 'data-label': 'HTTP', class: 'num' }, s.httpStatus ?? '–'),
      h('td', { 'data-label': 'Started', class: 'nowrap' }, fmt.dateTime(s.startedAt)),
      h('td', { 'data-label': 'Took', class: 'num' }, fmt.millis(between(s.startedAt, s.finishedAt))),
      h('td', { 'data-label': 'Output and error', class: 'step-io' },
        s.error ? h('p', { class: 'error-text step-error' }, s.error) : null,
        s.output === null || s.output === undefined ? h('span', { class: 'muted' }, 'no output')
          : h('details', { class: 'raw step-output', open: failed || undefined },
            h('summary', {}, `Output (${fmt.bytes(s.outputBytes)}${s.truncated ? ', cut to what history keeps' : ''})`),
            h('pre', {}, show(s.output)))));
  });
  return h('section', { class: 'card run-detail', id: 'run-detail', dataset: { run: run.id, status: run.status } },
    h('h3', {}, `Run ${run.id}`),
    h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    run.error ? h('p', { class: 'error-text', id: 'run-error' }, run.error) : null,
    run.input !== null && run.input !== undefined ? h('details', { class: 'raw' }, h('summary', {}, 'Input ($input)'), h('pre', { id: 'run-input-shown' }, show(run.input))) : null,
    gw.table('run-steps', ['Step', 'Kind', 'Attempt', 'Status', 'HTTP', 'Started', 'Took', 'Output and error'], rows,
      run.status === 'queued' ? 'Queued: no step has run yet.' : 'No step attempts recorded.'),
    run.nextSteps ? h('p', { class: 'muted' }, `The first ${steps.length} step attempts; the rest: GET /apiops/flows/${name}/runs/${run.id}/steps?after=${run.nextSteps}`) : null);
}

function show(value) {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
