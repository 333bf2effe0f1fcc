// The fleet panels an SRE opens after the snapshot: hot threads, class histogram, log levels with a TTL.
// Each asks every pod of the module at once (a broadcast through the Manager) and shows the fleet summary first.
import * as api from './api.js';
import { h, clear, put, openDialog, field, notify, download } from './dom.js';
import * as fmt from './format.js';

function loading(body, words = 'Asking every pod…') {
  clear(body).append(h('p', { class: 'muted', role: 'status' }, words));
}

function failed(body, err) {
  clear(body).append(h('p', { class: 'error-text', role: 'alert' }, api.explain(err)));
}

function podErrors(answer) {
  const failedPods = (answer.pods || []).filter((p) => p.error);
  if (!failedPods.length) return null;
  return h('p', { class: 'flag-banner' }, 'Not answered: ' +
    failedPods.map((p) => `${p.podName} (${p.error.message || 'HTTP ' + p.error.status})`).join('; ') + '.');
}

/** A table whose column headers sort it; rows are plain objects, columns {key, label, num, render}. */
export function sortableTable(id, columns, rows, initial) {
  let sortKey = initial.key;
  let descending = initial.descending;
  const tbody = h('tbody');
  const headers = columns.map((c) => {
    const b = h('button', { type: 'button', class: 'sort', dataset: { key: c.key } }, c.label);
    const th = h('th', { scope: 'col' }, b);
    b.addEventListener('click', () => {
      descending = sortKey === c.key ? !descending : !!c.num;
      sortKey = c.key;
      draw();
    });
    return th;
  });
  const draw = () => {
    const sorted = [...rows].sort((a, b) => {
      const x = a[sortKey];
      const y = b[sortKey];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
      return descending ? -order : order;
    });
    headers.forEach((th, i) => th.setAttribute('aria-sort', columns[i].key === sortKey ? (descending ? 'descending' : 'ascending') : 'none'));
    clear(tbody).append(...sorted.map((row) => h('tr', { class: row.flagged ? 'flagged' : '' },
      columns.map((c) => h('td', { class: c.num ? 'num' : '', 'data-label': c.label }, c.render ? c.render(row) : String(row[c.key] ?? '–'))))));
  };
  draw();
  return h('div', { class: 'table-scroll' }, h('table', { class: 'data', id }, h('thead', {}, h('tr', {}, headers)), tbody));
}

/** Hot threads of every pod: stuck stacks grouped across pods, then every pod's hottest threads, sortable. */
export async function openHotThreads(env, module) {
  const { body } = openDialog(`Hot threads · ${module}`, { wide: true });
  const interval = h('select', { id: 'ht-interval' }, ['100ms', '200ms', '500ms', '1s'].map((v) => h('option', { value: v, selected: v === '200ms' }, v)));
  const samples = h('input', { id: 'ht-samples', type: 'number', min: 1, max: 50, value: 5 });
  const top = h('input', { id: 'ht-top', type: 'number', min: 1, max: 500, value: 10 });
  const out = h('div', { class: 'ht-result' });
  const run = async () => {
    loading(out, 'Sampling the threads of every pod…');
    try {
      const answer = await api.json(api.diagnosticsPath(env, module, 'hotthreads',
        { interval: interval.value, samples: samples.value, top: top.value }));
      showHotThreads(out, answer);
    } catch (err) {
      failed(out, err);
    }
  };
  put(body, h('form', { class: 'toolbar', onsubmit: (e) => { e.preventDefault(); run(); } },
    field('Interval', interval), field('Samples', samples), field('Top threads per pod', top),
    h('button', { type: 'submit', class: 'button' }, 'Sample')), out);
  run();
}

function showHotThreads(out, answer) {
  const groups = (answer.hotThreads && answer.hotThreads.stuckGroups) || [];
  const rows = [];
  for (const pod of answer.pods || []) {
    for (const t of (pod.hotThreads && pod.hotThreads.threads) || []) {
      rows.push({ pod: pod.podName, name: t.name, state: t.state, cpuMillis: t.cpuMillis, cpuPercent: t.cpuPercent,
        stuck: t.stuck ? 'stuck' : '', top: (t.stack || [])[0] || '(no Java frames)', flagged: t.stuck });
    }
  }
  const note = (answer.pods || []).map((p) => p.hotThreads && p.hotThreads.virtualThreads && p.hotThreads.virtualThreads.note).find(Boolean);
  put(clear(out),
    h('h3', {}, 'Stuck stacks across pods'),
    groups.length ? h('ul', { class: 'stuck-groups' }, groups.map((g) => h('li', {},
      h('details', {}, h('summary', {}, g.summary), h('pre', { class: 'stack' }, g.frames.join('\n')),
        h('p', { class: 'muted small' }, 'Pods: ' + g.pods.join(', '))))))
      : h('p', { class: 'muted' }, 'No thread kept the same stack in every sample.'),
    podErrors(answer),
    h('h3', {}, 'Hottest threads'),
    sortableTable('hot-threads', [
      { key: 'pod', label: 'Pod' },
      { key: 'name', label: 'Thread' },
      { key: 'state', label: 'State' },
      { key: 'cpuMillis', label: 'CPU ms', num: true, render: (r) => fmt.number(Math.round(r.cpuMillis)) },
      { key: 'cpuPercent', label: 'CPU %', num: true },
      { key: 'stuck', label: 'Stuck' },
      { key: 'top', label: 'Top frame', render: (r) => h('code', {}, r.top) },
    ], rows, { key: 'cpuMillis', descending: true }),
    note ? h('p', { class: 'muted small' }, note) : null);
}

/** The class histogram of every pod next to the fleet median, outliers flagged. */
export async function openHistogram(env, module) {
  const { body } = openDialog(`Class histogram · ${module}`, { wide: true });
  const top = h('input', { id: 'hg-top', type: 'number', min: 1, max: 1000, value: 20 });
  const live = h('select', { id: 'hg-live' }, h('option', { value: 'false', selected: true }, 'every object (no full GC)'),
    h('option', { value: 'true' }, 'live objects only (full GC)'));
  const out = h('div', { class: 'hg-result' });
  const run = async () => {
    loading(out, 'Counting the classes on every pod…');
    try {
      showHistogram(out, await api.json(api.diagnosticsPath(env, module, 'histogram', { top: top.value, live: live.value })));
    } catch (err) {
      failed(out, err);
    }
  };
  put(body, h('form', { class: 'toolbar', onsubmit: (e) => { e.preventDefault(); run(); } },
    field('Top classes per pod', top), field('Objects', live), h('button', { type: 'submit', class: 'button' }, 'Count')), out);
  run();
}

function showHistogram(out, answer) {
  const fleet = answer.histogram || { classes: [], flagged: [] };
  const flaggedKeys = new Set(fleet.flagged.map((f) => f.podName + ' ' + f.className));
  const rows = [];
  for (const c of fleet.classes) {
    for (const [pod, bytes] of Object.entries(c.pods)) {
      rows.push({ className: c.className, pod, bytes, medianBytes: c.medianBytes,
        ratio: c.medianBytes ? Math.round((bytes / c.medianBytes) * 10) / 10 : null,
        flagged: flaggedKeys.has(pod + ' ' + c.className) });
    }
  }
  put(clear(out),
    fleet.flagged.length
      ? h('div', { class: 'flag-banner', role: 'alert', id: 'histogram-flags' }, h('strong', {}, 'Above ' + fleet.factor + '× the fleet median: '),
        fleet.flagged.map((f) => `${f.podName} holds ${fmt.bytes(f.bytes)} of ${f.className} (median ${fmt.bytes(f.medianBytes)})`).join('; ') + '.')
      : h('p', { class: 'muted' }, `No pod holds more than ${fleet.factor}× the fleet median of a class.`),
    podErrors(answer),
    sortableTable('histogram', [
      { key: 'className', label: 'Class', render: (r) => h('code', {}, r.className) },
      { key: 'pod', label: 'Pod' },
      { key: 'bytes', label: 'Bytes', num: true, render: (r) => fmt.bytes(r.bytes) },
      { key: 'medianBytes', label: 'Fleet median', num: true, render: (r) => fmt.bytes(r.medianBytes) },
      { key: 'ratio', label: '× median', num: true, render: (r) => r.ratio === null ? '–' : String(r.ratio) },
    ], rows, { key: 'bytes', descending: true }));
}

/** Log levels of every pod; admins change one for a while (it reverts by itself) or revert it at once. */
export async function openLoggers(env, module, admin) {
  const { body } = openDialog(`Log levels · ${module}`, { wide: true });
  const prefix = h('input', { id: 'lg-prefix', type: 'search', value: 'io.pylon', placeholder: 'io.pylon' });
  const out = h('div', { class: 'lg-result' });
  const load = async () => {
    loading(out);
    try {
      showLoggers(out, await api.json(api.diagnosticsPath(env, module, 'loggers', { prefix: prefix.value })), env, module, admin, load);
    } catch (err) {
      failed(out, err);
    }
  };
  put(body, h('form', { class: 'toolbar', onsubmit: (e) => { e.preventDefault(); load(); } },
    field('Logger name starts with', prefix), h('button', { type: 'submit', class: 'button' }, 'List')),
  admin ? changeForm(env, module, load) : h('p', { class: 'muted small' }, 'Changing a level needs the admin role.'), out);
  load();
}

function changeForm(env, module, reload) {
  const logger = h('input', { id: 'lg-logger', required: true, placeholder: 'io.pylon.worker' });
  const level = h('select', { id: 'lg-level' }, ['FINEST', 'FINER', 'FINE', 'CONFIG', 'INFO', 'WARNING', 'SEVERE', 'OFF']
    .map((l) => h('option', { value: l, selected: l === 'FINE' }, l)));
  const ttl = h('select', { id: 'lg-ttl' }, ['1m', '5m', '10m', '30m', '1h'].map((t) => h('option', { value: t, selected: t === '10m' }, t)));
  return h('form', { class: 'toolbar', id: 'logger-change', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const answer = await api.json(api.diagnosticsPath(env, module, 'loggers', { logger: logger.value, level: level.value, ttl: ttl.value }), { method: 'PUT' });
      const ok = (answer.pods || []).filter((p) => !p.error).length;
      notify(`${logger.value} is ${level.value} on ${ok} of ${(answer.pods || []).length} pods for ${ttl.value}.`, 'success');
      reload();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  } }, field('Logger', logger), field('Level', level), field('Reverts after', ttl),
  h('button', { type: 'submit', class: 'button' }, 'Set on every pod'));
}

function showLoggers(out, answer, env, module, admin, reload) {
  const byName = new Map();
  for (const pod of answer.pods || []) {
    for (const l of (pod.loggers && pod.loggers.loggers) || []) {
      const row = byName.get(l.name) || { name: l.name, levels: new Map(), reverts: null };
      row.levels.set(pod.podName, l.level || `(${l.effectiveLevel})`);
      if (l.revertsAt) row.reverts = l.revertsAt;
      byName.set(l.name, row);
    }
  }
  const rows = [...byName.values()].map((r) => ({ name: r.name,
    level: [...new Set(r.levels.values())].join(' / '), reverts: r.reverts || '', flagged: !!r.reverts }));
  const revert = async (name) => {
    try {
      await api.json(api.diagnosticsPath(env, module, 'loggers', { logger: name }), { method: 'DELETE' });
      notify(`${name} reverted on every pod.`, 'success');
      reload();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  };
  put(clear(out), podErrors(answer), sortableTable('loggers', [
    { key: 'name', label: 'Logger', render: (r) => h('code', {}, r.name) },
    { key: 'level', label: 'Level (inherited in brackets)' },
    { key: 'reverts', label: 'Reverts at', render: (r) => r.reverts ? h('span', {}, new Date(r.reverts).toLocaleTimeString(), admin
      ? h('button', { type: 'button', class: 'button small secondary', 'aria-label': 'Revert ' + r.name, onclick: () => revert(r.name) }, 'Revert now') : null) : '–' },
  ], rows, { key: 'name', descending: false }));
}

/** Flight recordings of every pod (admins only): start on every pod, watch, summary, download with progress, delete. */
export async function openRecordings(env, module) {
  const { body } = openDialog(`Flight recordings · ${module}`, { wide: true });
  const duration = h('select', { id: 'jfr-duration' }, ['10s', '30s', '1m', '5m', '15m'].map((d) => h('option', { value: d, selected: d === '30s' }, d)));
  const settings = h('select', { id: 'jfr-settings' }, h('option', { value: 'pylon', selected: true }, 'pylon (default without socket, file and park events: least overhead)'),
    h('option', { value: 'default' }, 'default (the JDK\'s)'),
    h('option', { value: 'profile' }, 'profile (more detail, more overhead)'));
  const maxSize = h('input', { id: 'jfr-max', type: 'number', min: 1, max: 1024, value: 100 });
  const out = h('div', { class: 'jfr-result' });
  const detail = h('div', { class: 'jfr-detail', 'aria-live': 'polite' });
  const load = async () => {
    try {
      showRecordings(out, detail, await api.json(api.diagnosticsPath(env, module, 'jfr')), env, module, load);
    } catch (err) {
      failed(out, err);
    }
  };
  const start = async (e) => {
    e.preventDefault();
    try {
      const answer = await api.json(api.diagnosticsPath(env, module, 'jfr',
        { duration: duration.value, settings: settings.value, maxSizeMb: maxSize.value }), { method: 'POST' });
      const started = (answer.pods || []).filter((p) => !p.error).length;
      notify(`Recording on ${started} of ${(answer.pods || []).length} pods for ${duration.value}.`, started ? 'success' : 'error');
      const refused = (answer.pods || []).filter((p) => p.error);
      if (refused.length) notify(refused.map((p) => `${p.podName}: ${p.error.message}`).join(' '), 'error');
      load();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  };
  put(body, h('form', { class: 'toolbar', id: 'jfr-start', onsubmit: start },
    field('Duration', duration), field('Settings', settings), field('Max size (MB)', maxSize),
    h('button', { type: 'submit', class: 'button' }, 'Start on every pod'),
    h('button', { type: 'button', class: 'button secondary', onclick: load }, 'Refresh')), out, detail);
  loading(out, 'Listing recordings…');
  load();
}

function showRecordings(out, detail, answer, env, module, reload) {
  const rows = [];
  for (const pod of answer.pods || []) {
    for (const r of (pod.jfr && pod.jfr.recordings) || []) rows.push({ pod: pod.podName, ...r });
  }
  const action = (label, title, onclick) => h('button', { type: 'button', class: 'button small', 'aria-label': title, onclick }, label);
  put(clear(out), podErrors(answer), rows.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'recordings' },
    h('thead', {}, h('tr', {}, ['Pod', 'Recording', 'State', 'Settings', 'Size', 'Ends', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.map((r) => h('tr', { dataset: { pod: r.pod, id: r.id } },
      h('td', {}, r.pod), h('td', {}, h('code', {}, r.id)), h('td', {}, h('span', { class: 'badge ' + (r.state === 'FINISHED' ? 'up' : '') }, r.state)),
      h('td', {}, r.settings), h('td', { class: 'num' }, fmt.bytes(r.sizeBytes)), h('td', {}, new Date(r.endsAt).toLocaleTimeString()),
      h('td', { class: 'actions' },
        r.state === 'FINISHED' ? action('Summary', `Summary of ${r.id} on ${r.pod}`, () => recordingSummary(detail, env, module, r)) : null,
        r.state === 'FINISHED' ? action('Download', `Download ${r.id} of ${r.pod}`, () => downloadRecording(detail, env, module, r, reload)) : null,
        action(r.state === 'RUNNING' ? 'Stop' : 'Delete', `Delete ${r.id} on ${r.pod}`, async () => {
          try {
            await api.json(api.diagnosticsPath(env, module, 'jfr', { pod: r.pod, id: r.id }), { method: 'DELETE' });
            reload();
          } catch (err) {
            notify(api.explain(err), 'error');
          }
        }))))))) : h('p', { class: 'muted' }, 'No recordings on the pods.'));
}

async function recordingSummary(detail, env, module, r) {
  loading(detail, 'Reading the recording on the pod…');
  try {
    const answer = await api.json(api.diagnosticsPath(env, module, 'jfr', { pod: r.pod, id: r.id, view: 'summary' }));
    const one = answer.pods ? answer.pods[0] : answer;
    const s = one.jfr.summary;
    const list = (title, items, label, value, unit) => h('div', {}, h('h4', {}, title), items.length
      ? h('ol', {}, items.map((i) => h('li', {}, h('code', {}, i[label]), ` ${fmt.number(i[value])}${unit}`)))
      : h('p', { class: 'muted small' }, 'None recorded.'));
    put(clear(detail), h('h3', {}, `Summary of ${r.id} on ${r.pod}`),
      h('p', { class: 'intro', id: 'jfr-summary' }, `${fmt.number(s.events)} events, ${fmt.number(s.executionSamples)} execution samples, `
        + `${s.gcPauses.collections} GCs pausing ${s.gcPauses.totalPauseMillis} ms (longest ${s.gcPauses.longestPauseMillis} ms).`),
      list('Hot methods', s.hotMethods, 'method', 'samples', ' samples'),
      list('Allocation by class', s.allocationByClass, 'className', 'bytes', ' bytes'),
      list('Lock contention', s.lockContention, 'monitorClass', 'totalMillis', ' ms'));
  } catch (err) {
    failed(detail, err);
  }
}

async function downloadRecording(detail, env, module, r, reload) {
  const progress = h('progress', { id: 'jfr-progress', max: 100, value: 0 });
  const status = h('p', { role: 'status' }, 'Downloading…');
  put(clear(detail), h('label', { for: 'jfr-progress' }, 'Download'), progress, status);
  try {
    const response = await api.raw(api.diagnosticsPath(env, module, 'jfr', { pod: r.pod, download: r.id }),
      { headers: { Accept: 'application/octet-stream' } });
    const total = Number(response.headers.get('Content-Length')) || r.sizeBytes || 0;
    const { chunks, received } = await api.readWithProgress(response, (bytes) => {
      if (total) progress.value = Math.min(100, (bytes / total) * 100);
      status.textContent = `Received ${fmt.bytes(bytes)}${total ? ' of ' + fmt.bytes(total) : ''}.`;
    });
    progress.value = 100;
    status.textContent = `Done: ${fmt.bytes(received)} saved as ${r.pod}-${r.id}.jfr; the pod removed its copy.`;
    download(new Blob(chunks, { type: 'application/octet-stream' }), `${r.pod}-${r.id}.jfr`);
    reload();
  } catch (err) {
    status.textContent = 'Download failed: ' + api.explain(err);
    status.className = 'error-text';
  }
}
