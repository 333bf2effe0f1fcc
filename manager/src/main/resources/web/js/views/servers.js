// System / Server Management: module cards, the environment's gateway configuration (deployed bundle, what each
// Worker pod applied or refused), a pod table per Worker and Cache, auto-refresh with short history.
import * as api from '../api.js';
import { listOf } from '../api.js';
import { h, clear, field, notify } from '../dom.js';
import * as fmt from '../format.js';
import { sparkline } from '../sparkline.js';
import { mergePods, rowError, versionSkew, memberDisagreement, answeredLine } from '../pods.js';
import { openSection, openThreadDump, downloadHeapDump } from '../panels.js';
import { openHotThreads, openHistogram, openLoggers, openRecordings } from '../sre.js';
import { outliersByPod, driftLines } from '../compare.js';
import { recentCaptures, openCaptures, openFleetCaptures } from '../captures.js';
import * as gw from '../gateway.js';

const HISTORY = 30;
const history = new Map(); // "env/module/pod" -> [{heap, threads}]
// What the pod table needs, and what is drawn when it arrives (the data grid members, the black box's captures).
const MODULE_CALLS = { worker: ['jvm', 'threads', 'health'], cache: ['jvm', 'threads', 'health'] };
const LATER_CALLS = { worker: ['postmortem'], cache: ['datagrid', 'postmortem'] };
const EXTRA = { worker: ['connections', 'Connections'], cache: ['datagrid', 'Data grid'] };
// a second details panel per pod: the Worker's gateway configuration as the pod itself reports it
const MORE = { worker: ['config', 'Config'] };

export async function render(main, session) {
  const admin = session.me.role === 'admin';
  const heading = h('h1', {}, 'Server Management');
  main.append(heading);
  let environments;
  try {
    environments = listOf(await api.json('/apiops/environments'), 'environments');
  } catch (err) {
    main.append(h('p', { class: 'error-text', role: 'alert' }, api.explain(err)));
    return null;
  }
  if (!environments.length) {
    main.append(h('p', {}, 'There is no environment yet. ', admin ? h('a', { href: '#/environments' }, 'Create one') : 'Ask an administrator to create one', '.'));
    return null;
  }
  const saved = sessionStorage.getItem('pylon.environment');
  const envSelect = h('select', { id: 'env-select' }, environments.map((e) => h('option', { value: e.name, selected: e.name === saved }, e.name)));
  const intervalSelect = h('select', { id: 'refresh-interval' },
    [['0', 'Off'], ['5', 'Every 5 s'], ['10', 'Every 10 s'], ['30', 'Every 30 s'], ['60', 'Every minute']].map(([v, label]) =>
      h('option', { value: v, selected: v === (sessionStorage.getItem('pylon.refresh') || '10') }, label)));
  const pause = h('button', { type: 'button', class: 'button secondary', 'aria-pressed': 'false' }, 'Pause');
  const refreshNow = h('button', { type: 'button', class: 'button' }, 'Refresh now');
  const updated = h('span', { class: 'muted', id: 'last-updated', 'aria-live': 'off' }, '');
  const content = h('div', { id: 'server-content', 'aria-busy': 'true' });
  main.append(h('div', { class: 'toolbar' },
    field('Environment', envSelect), field('Auto-refresh', intervalSelect), pause, refreshNow, updated), content);

  let timer = null;
  let paused = false;
  let stopped = false;
  let inFlight = null;

  const schedule = () => {
    clearTimeout(timer);
    const seconds = Number(intervalSelect.value);
    if (!stopped && !paused && seconds > 0) timer = setTimeout(refresh, seconds * 1000);
  };

  async function refresh() {
    clearTimeout(timer);
    if (inFlight) return inFlight;
    const env = envSelect.value;
    const show = (slot, node) => {
      if (stopped || env !== envSelect.value) return;
      const old = content.querySelector(`:scope > [data-slot="${slot}"]`);
      node.dataset.slot = slot;
      if (old) old.replaceWith(node);
      else {
        content.querySelector(':scope > p.loading')?.remove();
        const after = [...content.children].find((c) => SLOTS.indexOf(c.dataset.slot) > SLOTS.indexOf(slot));
        content.insertBefore(node, after || null);
      }
    };
    content.setAttribute('aria-busy', 'true');
    inFlight = load(env, admin, show).then(() => {
      if (stopped || env !== envSelect.value) return;
      content.setAttribute('aria-busy', 'false');
      updated.textContent = 'Updated ' + fmt.time(new Date());
    }).catch((err) => {
      if (!stopped) notify(api.explain(err), 'error');
    }).finally(() => { inFlight = null; schedule(); });
    return inFlight;
  }

  envSelect.addEventListener('change', () => {
    sessionStorage.setItem('pylon.environment', envSelect.value);
    content.setAttribute('aria-busy', 'true');
    clear(content).append(h('p', { class: 'muted loading' }, 'Loading…'));
    refresh();
  });
  intervalSelect.addEventListener('change', () => { sessionStorage.setItem('pylon.refresh', intervalSelect.value); schedule(); });
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    pause.setAttribute('aria-pressed', String(paused));
    updated.dataset.paused = String(paused);
    if (paused) clearTimeout(timer); else refresh();
  });
  refreshNow.addEventListener('click', refresh);
  content.append(h('p', { class: 'muted loading' }, 'Loading…'));
  refresh();
  return () => { stopped = true; clearTimeout(timer); };
}

const SLOTS = ['cards', 'config', 'worker', 'cache', 'footer'];

/** Starts every call at once and draws each part of the screen as soon as its answers are in. */
async function load(env, admin, show) {
  const started = performance.now();
  const fetchAll = (module, names) => Promise.all(names.map((name) => api.json(api.diagnosticsPath(env, module, name))
    .then((body) => [name, body], (err) => [name, { failure: err }]))).then(Object.fromEntries);
  const cards = api.json(`/apiops/environments/${api.enc(env)}/modules`).then((modules) => show('cards', moduleCards(modules)));
  const config = api.json(`/apiops/environments/${api.enc(env)}/gateway-status`)
    .then((status) => show('config', configSection(env, status)), (err) => show('config', configSection(env, null, err)));
  const sections = Object.keys(MODULE_CALLS).map(async (module) => {
    const later = LATER_CALLS[module].length ? fetchAll(module, LATER_CALLS[module]) : null;
    // the comparison has its own shape (outliers, drift): it marks cells, it adds no rows; a failure only hides marks
    const comparison = api.json(api.diagnosticsPath(env, module, 'compare')).catch(() => null);
    const answers = await fetchAll(module, MODULE_CALLS[module]);
    const rows = mergePods(answers);
    recordHistory(env, module, rows);
    const compared = await comparison;
    show(module, podSection(env, module, answers, rows, admin, LATER_CALLS[module].includes('datagrid'), compared));
    if (later) {
      const all = { ...answers, ...await later };
      show(module, podSection(env, module, all, mergePods(all), admin, false, compared));
    }
  });
  await Promise.all([cards, config, ...sections]);
  show('footer', h('p', { class: 'muted small' }, `Collected in ${Math.round(performance.now() - started)} ms.`));
}

function recordHistory(env, module, rows) {
  for (const row of rows) {
    if (rowError(row)) continue;
    const heap = row.sections.jvm?.memory?.heap || {};
    const key = `${env}/${module}/${row.podName}`;
    const samples = history.get(key) || [];
    samples.push({ heap: fmt.percent(heap.used, heap.max), threads: row.sections.threads?.summary?.threadCount });
    if (samples.length > HISTORY) samples.shift();
    history.set(key, samples);
  }
}

function statusBadge(status) {
  const cls = status === 'UP' ? 'up' : status === 'NOT_CONFIGURED' ? 'neutral' : 'down';
  return h('span', { class: 'badge ' + cls }, status === 'NOT_CONFIGURED' ? 'NOT CONFIGURED' : status);
}

function moduleCards(modules) {
  return h('section', { 'aria-labelledby': 'modules-h' },
    h('h2', { id: 'modules-h' }, 'Modules'),
    h('ul', { class: 'cards' }, modules.modules.map((m) =>
      h('li', { class: 'card module-card status-' + m.status.toLowerCase(), dataset: { module: m.module } },
        h('h3', {}, m.displayName, ' ', statusBadge(m.status)),
        h('dl', {},
          h('dt', {}, 'Version'), h('dd', {}, m.version || '–'),
          h('dt', {}, 'Check took'), h('dd', {}, m.responseTime !== undefined ? m.responseTime + ' ms' : '–'),
          h('dt', {}, 'Checked'), h('dd', {}, m.checkedAt ? fmt.time(new Date(m.checkedAt)) : '–')),
        m.url ? h('p', { class: 'muted small url' }, m.url) : null,
        m.error ? h('p', { class: 'error-text small' }, m.error) : null,
        downChecks(m)))));
}

/** The deployed bundle of the environment and, per Worker pod, the bundle it applied or refused (gateway status). */
function configSection(env, status, err) {
  const section = h('section', { 'aria-labelledby': 'config-h', id: 'gateway-config' }, h('h2', { id: 'config-h' }, 'Gateway configuration'));
  if (!status) {
    section.append(h('p', { class: 'flag-banner', role: 'alert' }, 'The gateway configuration cannot be read: ' + api.explain(err)));
    return section;
  }
  const pods = status.pods || [];
  const inSync = pods.filter((p) => p.inSync).length;
  section.append(h('p', { id: 'config-deployed' }, `Deployed to ${env}: version `, h('strong', { class: 'version' }, String(status.version)),
    ', hash ', h('code', { class: 'hash', title: status.hash }, status.hash), `. ${inSync} of ${pods.length} Worker pod${pods.length === 1 ? '' : 's'} in sync.`));
  const grid = status.gridCopy;
  if (grid) {
    section.append(h('p', { id: 'config-grid', class: grid.lastError ? 'error-text small' : 'muted small' },
      grid.version === null ? 'Data grid copy: none yet' : `Data grid copy: version ${grid.version}`,
      grid.storedAt ? `, stored ${fmt.dateTime(grid.storedAt)}` : '', grid.lastError ? ` (not up to date: ${grid.lastError})` : '', '.'));
  }
  section.append(gw.table('config-pods', ['Pod', 'State', 'Applied version', 'Applied hash', 'Source', 'Rejected version', 'Rejection / last error', 'Last contact'],
    pods.map((p) => h('tr', { dataset: { pod: p.podName, state: p.state } },
      h('th', { scope: 'row', class: 'pod-name' }, p.podName, h('div', { class: 'muted small mono' }, p.podIp || '')),
      h('td', {}, gw.stateBadge(p.state)),
      h('td', { class: 'num applied' }, p.appliedVersion ?? '–'),
      h('td', {}, gw.shortHash(p.appliedHash)),
      h('td', {}, p.source || '–'),
      h('td', { class: 'num rejected' + (p.state === 'rejected' ? ' flag' : '') }, p.rejectedVersion ?? '–'),
      h('td', { class: 'small' + (p.state === 'rejected' ? ' error-text' : '') }, p.lastError || '–'),
      h('td', { class: 'nowrap' }, fmt.dateTime(p.lastContact)))),
    `No Worker pod of ${env} has polled the Manager in the last minutes.`));
  return section;
}

function downChecks(m) {
  if (!m.checks || m.status === 'UP') return null;
  const down = Object.entries(m.checks).filter(([, c]) => c && c.status && c.status !== 'UP').map(([name]) => name);
  return down.length ? h('p', { class: 'error-text small' }, 'Failing checks: ' + down.join(', ')) : null;
}

function podSection(env, module, answers, rows, admin, checking, comparison) {
  const title = module === 'worker' ? 'Worker pods' : 'Cache pods';
  const section = h('section', { 'aria-labelledby': module + '-pods-h', class: 'pods', dataset: { module } },
    h('h2', { id: module + '-pods-h' }, title));
  const failures = Object.entries(answers).filter(([, body]) => body && body.failure);
  if (failures.length === Object.keys(answers).length) {
    const err = failures[0][1].failure;
    const words = err.error === 'module_not_configured' ? api.explain(err) : `The ${module} cannot be read: ${api.explain(err)}`;
    section.append(h('p', { class: 'flag-banner', role: 'alert' }, words));
    return section;
  }
  for (const [name, body] of failures) {
    section.append(h('p', { class: 'flag-banner' }, `${name} could not be read: ${api.explain(body.failure)}`));
  }
  section.append(h('p', { class: 'muted answered' }, answeredLine(rows, answers.jvm)));
  section.append(fleetTools(env, module, admin));
  const skew = versionSkew(rows);
  if (skew) {
    section.append(h('p', { class: 'flag-banner', role: 'alert' }, 'Version skew: ' +
      [...skew.entries()].map(([v, pods]) => `${v} on ${pods.join(', ')}`).join('; ') + '.'));
  }
  const drift = driftLines(comparison);
  if (drift) {
    section.append(h('div', { class: 'flag-banner drift-banner', role: 'alert' },
      h('p', {}, 'Drift between pods:'), h('ul', {}, drift.map((line) => h('li', {}, line)))));
  }
  const outliers = outliersByPod(comparison);
  const disagreement = module === 'cache' ? memberDisagreement(rows) : null;
  if (checking) section.append(h('p', { class: 'muted small', role: 'status' }, 'Comparing the data grid members of the pods…'));
  if (disagreement) {
    section.append(h('p', { class: 'flag-banner', role: 'alert' }, 'Data grid members disagree: ' +
      disagreement.map((d) => `${d.pod} sees ${d.members.length} (${d.members.join(', ')}), most pods see ${d.majority.length}`).join('; ') + '.'));
  }
  const table = h('table', { class: 'data pod-table', id: module + '-pods' },
    h('caption', { class: 'visually-hidden' }, title),
    h('thead', {}, h('tr', {}, ['Pod', 'Node', 'Namespace', 'Version', 'Status', 'Uptime', 'Heap used / max', 'Threads total / peak / daemon / started',
      'Thread states', 'Deadlocks', 'Outliers', 'History', 'Details'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.map((row) => markOutliers(podRow(env, module, row, skew, disagreement, admin),
      outliers.get(row.podName)))));
  section.append(h('div', { class: 'table-scroll', role: 'region', 'aria-label': title, tabindex: '0' }, table));
  const captures = recentCaptures(env, module, answers.postmortem);
  if (captures) section.append(captures);
  return section;
}

/** The panels that ask every pod of the module at once. */
function fleetTools(env, module, admin) {
  const name = module === 'worker' ? 'Worker' : 'Cache';
  const tool = (label, action, key) => h('button', { type: 'button', class: 'button small secondary',
    'aria-label': `${label} of every ${name} pod`, dataset: { action: key }, onclick: action }, label);
  return h('div', { class: 'toolbar fleet-tools', role: 'group', 'aria-label': `${name} fleet diagnostics` },
    tool('Hot threads', () => openHotThreads(env, module), 'hotthreads'),
    tool('Class histogram', () => openHistogram(env, module), 'histogram'),
    tool('Log levels', () => openLoggers(env, module, admin), 'loggers'),
    tool('Captures', () => openFleetCaptures(env, module), 'postmortem'),
    admin ? tool('Flight recordings', () => openRecordings(env, module), 'jfr') : null);
}

function podRow(env, module, row, skew, disagreement, admin) {
  const error = rowError(row);
  const nameCell = h('th', { scope: 'row', 'data-label': 'Pod' }, h('span', { class: 'pod-name' }, row.podName), h('br'), h('span', { class: 'muted small' }, row.podIp || ''));
  if (error) {
    return h('tr', { class: 'pod-error', dataset: { pod: row.podName } }, nameCell,
      h('td', { colspan: 3, 'data-label': 'Node' }, row.nodeName || ''),
      h('td', { 'data-label': 'Status' }, h('span', { class: 'badge down' }, 'NO ANSWER')),
      h('td', { colspan: 8, class: 'error-text', 'data-label': 'Error', role: 'status' }, 'This pod did not answer: ' + error));
  }
  const jvm = row.sections.jvm || {};
  const threads = row.sections.threads || {};
  const health = row.sections.health || {};
  const heap = jvm.memory && jvm.memory.heap || {};
  const pct = fmt.percent(heap.used, heap.max);
  const s = threads.summary || {};
  const st = threads.states || {};
  const deadlocks = health.checks && health.checks.threads ? health.checks.threads.deadlocks : undefined;
  const status = health.status || (row.errors.length ? 'PARTIAL' : '–');
  const samples = history.get(`${env}/${module}/${row.podName}`) || [];
  const uptime = jvm.uptime ?? health.uptime;
  const skewed = skew && skew.size > 1;
  const grid = disagreement && disagreement.some((d) => d.pod === row.podName);
  const [extraName, extraTitle] = EXTRA[module];
  const button = (label, action, name) => h('button', { type: 'button', class: 'button small', 'aria-label': `${label} of ${row.podName}`, dataset: { action: name }, onclick: action }, label);
  return h('tr', { class: (deadlocks > 0 ? 'deadlocked ' : '') + (grid ? 'flagged' : ''), dataset: { pod: row.podName } },
    nameCell,
    h('td', { 'data-label': 'Node' }, row.nodeName || '–'),
    h('td', { 'data-label': 'Namespace' }, row.namespace || '–'),
    h('td', { 'data-label': 'Version', class: skewed ? 'flag' : '' }, row.version || '–', skewed ? h('span', { class: 'visually-hidden' }, ' (version skew)') : null),
    h('td', { 'data-label': 'Status' }, h('span', { class: 'badge ' + (status === 'UP' ? 'up' : 'down') }, status),
      row.errors.length ? h('div', { class: 'error-text small' }, row.errors.map((e) => `${e.name}: ${e.message}`).join('; ')) : null),
    h('td', { 'data-label': 'Uptime' }, fmt.duration(uptime)),
    h('td', { 'data-label': 'Heap' }, heapBar(heap, pct)),
    h('td', { 'data-label': 'Threads', class: 'num' }, [s.threadCount, s.peakThreadCount, s.daemonThreadCount, s.totalStartedThreadCount].map(fmt.number).join(' / ')),
    h('td', { 'data-label': 'Thread states' }, stateList(st)),
    h('td', { 'data-label': 'Deadlocks', class: deadlocks > 0 ? 'flag num' : 'num' }, deadlocks === undefined ? '–' : String(deadlocks)),
    h('td', { 'data-label': 'Outliers', class: 'outliers small' }),
    h('td', { 'data-label': 'History', class: 'history' },
      sparkline(samples.map((x) => x.heap), { label: 'Heap %', unit: '%', max: 100 }),
      sparkline(samples.map((x) => x.threads), { label: 'Threads' })),
    h('td', { 'data-label': 'Details', class: 'actions' },
      button('JVM', () => openSection(env, module, row.podName, 'jvm', 'JVM'), 'jvm'),
      button('Threads', () => openSection(env, module, row.podName, 'threads', 'Threads'), 'threads'),
      button(extraTitle, () => openSection(env, module, row.podName, extraName, extraTitle), extraName),
      MORE[module] ? button(MORE[module][1], () => openSection(env, module, row.podName, MORE[module][0], 'Gateway configuration'), MORE[module][0]) : null,
      button('Thread dump', () => openThreadDump(env, module, row.podName), 'threaddump'),
      button(captureLabel(row), () => openCaptures(env, module, row.podName), 'captures'),
      admin ? button('Heap dump', () => downloadHeapDump(env, module, row.podName), 'heapdump') : null,
      admin ? button('Env', () => openSection(env, module, row.podName, 'env', 'Environment'), 'env') : null));
}

/** Marks the cells of a pod that stands out from the fleet, with the reason in words (title and hidden text). */
function markOutliers(tr, outliers) {
  if (!outliers || tr.classList.contains('pod-error')) return tr;
  const cell = (label) => tr.querySelector(`:scope > [data-label="${label}"]`);
  for (const o of outliers) {
    const target = o.column && cell(o.column);
    if (target) {
      target.classList.add('flag', 'outlier');
      target.dataset.outlier = [target.dataset.outlier, o.metric].filter(Boolean).join(' ');
      target.title = [target.title, o.text].filter(Boolean).join('\n');
    }
  }
  const list = cell('Outliers');
  list.classList.add('flag', 'outlier');
  list.append(h('ul', { class: 'plain' }, outliers.map((o) => h('li', { dataset: { metric: o.metric } }, o.text))));
  return tr;
}

function captureLabel(row) {
  const count = row.sections.postmortem?.count;
  return count ? `Captures (${count})` : 'Captures';
}

function heapBar(heap, pct) {
  const text = `${fmt.bytes(heap.used)} / ${fmt.bytes(heap.max)}`;
  if (pct === null) return h('span', {}, text);
  const fill = h('span', { class: 'bar-fill' + (pct >= 90 ? ' high' : pct >= 75 ? ' warn' : '') });
  fill.style.width = pct.toFixed(1) + '%';
  return h('div', { class: 'heap' },
    h('span', { class: 'bar', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': pct.toFixed(0), 'aria-label': `Heap ${pct.toFixed(0)}% used` }, fill),
    h('span', { class: 'small' }, `${text} (${pct.toFixed(0)}%)`));
}

const STATE_SHORT = [['RUNNABLE', 'run'], ['WAITING', 'wait'], ['TIMED_WAITING', 'timed'], ['BLOCKED', 'blocked']];
function stateList(states) {
  return h('span', { class: 'states small' }, STATE_SHORT.map(([k, label]) =>
    h('span', { class: k === 'BLOCKED' && states[k] > 0 ? 'flag' : '', title: k }, `${label} ${states[k] ?? 0}`)));
}
