// The dialogs behind a pod row's buttons: readable diagnostics sections, the thread dump viewer, heap dump download.
import * as api from './api.js';
import { h, clear, put, openDialog, download } from './dom.js';
import * as fmt from './format.js';
import { renderValue, rawJson } from './render.js';
import { jvmPanel, threadsPanel, connectionsPanel, datagridPanel } from './sections.js';
import { parseThreadDump, groupThreads } from './threaddump.js';

/** The single-pod object for podName out of a broadcast or single answer. */
export function podOf(body, podName) {
  if (body && Array.isArray(body.pods)) return body.pods.find((p) => p.podName === podName) || body.pods[0] || null;
  return body;
}

function sectionKey(name) {
  return name === 'threaddump' ? 'threadDump' : name;
}

async function fetchPod(env, module, pod, name) {
  const body = await api.json(api.diagnosticsPath(env, module, name, { pod }));
  const one = podOf(body, pod);
  if (!one) throw new Error('The ' + module + ' answered without pod ' + pod + '.');
  if (one.error) throw new Error(`Pod ${pod} did not answer: ${one.error.message || ('HTTP ' + one.error.status)}`);
  return one;
}

function loading(body) {
  clear(body).append(h('p', { class: 'muted', role: 'status' }, 'Loading…'));
}

function failed(body, err) {
  clear(body).append(h('p', { class: 'error-text', role: 'alert' }, api.explain(err)));
}

/** JVM, Threads, Connections, Data grid or Env of one pod, as tables. */
export async function openSection(env, module, pod, name, title) {
  const { body } = openDialog(`${title} · ${pod}`, { wide: true });
  loading(body);
  try {
    const one = await fetchPod(env, module, pod, name);
    const section = one[sectionKey(name)];
    clear(body);
    put(body, h('p', { class: 'muted' }, `${one.podName} · ${one.podIp || ''} · answered in ${typeof one.responseTime === 'number' ? Math.round(one.responseTime) : '–'} ms · ${fmt.dateTime(Date.now())}`));
    if (name === 'env') put(body, envView(section));
    else if (name === 'jvm' && section) put(body, jvmPanel(section));
    else if (name === 'threads' && section) put(body, threadsPanel(section));
    else if (name === 'connections' && section) put(body, connectionsPanel(section));
    else if (name === 'datagrid' && section && section.running !== undefined) put(body, datagridPanel(section));
    else put(body, summaryOf(name, section), renderValue(section ?? {}, 3));
    put(body, rawJson(section));
  } catch (err) {
    failed(body, err);
  }
}

function summaryOf(name, section) {
  if (!section) return null;
  if (name === 'jvm' && section.memory && section.memory.heap) {
    const heap = section.memory.heap;
    return h('p', { class: 'intro' }, `Heap ${fmt.bytes(heap.used)} of ${fmt.bytes(heap.max)}, non-heap ${fmt.bytes(section.memory.nonHeap?.used)}, up ${fmt.duration(section.uptime)}.`);
  }
  if (name === 'threads' && section.summary) {
    const s = section.summary;
    return h('p', { class: 'intro' }, `${s.threadCount} threads (peak ${s.peakThreadCount}, ${s.daemonThreadCount} daemon, ${fmt.number(s.totalStartedThreadCount)} started).`);
  }
  if (name === 'connections' && typeof section.active === 'number') {
    return h('p', { class: 'intro' }, `${section.active} active and ${section.idle} idle backend connections.`);
  }
  return null;
}

function envView(section) {
  const entries = [];
  const walk = (prefix, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(prefix ? prefix + ' › ' + k : k, v);
    } else entries.push([prefix, Array.isArray(value) ? value.join(', ') : String(value)]);
  };
  walk('', section || {});
  const filter = h('input', { type: 'search', id: 'env-filter', placeholder: 'Filter by name or value' });
  const tbody = h('tbody');
  const draw = () => {
    const q = filter.value.toLowerCase();
    clear(tbody).append(...entries.filter(([k, v]) => !q || k.toLowerCase().includes(q) || v.toLowerCase().includes(q))
      .map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', { class: 'mono' }, v))));
  };
  filter.addEventListener('input', draw);
  draw();
  return h('div', {}, h('label', { for: 'env-filter' }, 'Filter'), ' ', filter,
    h('div', { class: 'table-scroll' }, h('table', { class: 'kv env' }, tbody)));
}

/** Thread dump viewer: identical stacks grouped, deadlocks first, filter, download as text. */
export async function openThreadDump(env, module, pod) {
  const { body } = openDialog(`Thread dump · ${pod}`, { wide: true });
  loading(body);
  let text;
  try {
    text = (await fetchPod(env, module, pod, 'threaddump')).threadDump || '';
  } catch (err) {
    failed(body, err);
    return;
  }
  const { threads, deadlocked } = parseThreadDump(text);
  const groups = groupThreads(threads);
  const filter = h('input', { type: 'search', id: 'td-filter', placeholder: 'Thread name, state or frame' });
  const list = h('div', { class: 'td-groups' });
  const count = h('span', { class: 'muted', 'aria-live': 'polite' });
  const draw = () => {
    const q = filter.value.toLowerCase();
    const shown = groups.filter((g) => !q || g.state.toLowerCase().includes(q)
      || g.threads.some((t) => t.name.toLowerCase().includes(q)) || g.frames.some((f) => f.toLowerCase().includes(q)));
    count.textContent = `${shown.length} of ${groups.length} groups`;
    clear(list).append(...shown.slice(0, 400).map(groupView));
  };
  filter.addEventListener('input', draw);
  const save = h('button', { type: 'button', class: 'button' , onclick: () =>
    download(new Blob([text], { type: 'text/plain' }), `${pod}-threaddump-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`) },
  'Download as text');
  put(clear(body),
    h('p', { class: 'intro' }, `${threads.length} threads in ${groups.length} groups with identical stacks.`),
    deadlocked.size || groups.some((g) => g.deadlocked)
      ? h('p', { class: 'flag-banner', role: 'alert' }, `Deadlock: ${[...deadlocked].join(', ') || 'see the groups marked deadlocked'}.`) : null,
    h('div', { class: 'toolbar' }, h('label', { for: 'td-filter' }, 'Filter'), filter, count, save),
    list);
  draw();
}

function groupView(group) {
  const names = group.threads.map((t) => t.name);
  return h('details', { class: 'td-group' + (group.deadlocked ? ' deadlocked' : ''), open: group.deadlocked },
    h('summary', {},
      h('span', { class: 'badge state-' + group.state.toLowerCase() }, group.state),
      group.deadlocked ? h('span', { class: 'badge down' }, 'DEADLOCK') : null,
      h('strong', {}, ` ${group.threads.length} thread${group.threads.length === 1 ? '' : 's'}: `),
      names.slice(0, 4).join(', ') + (names.length > 4 ? ` and ${names.length - 4} more` : '')),
    h('pre', { class: 'stack' }, group.frames.length ? group.frames.join('\n') : '(no Java frames)'),
    names.length > 4 ? h('p', { class: 'muted small' }, names.join(', ')) : null);
}

/** Streams the heap dump through the Manager with a progress bar, then saves it. Admins only (the API checks too). */
export async function downloadHeapDump(env, module, pod) {
  const controller = new AbortController();
  const { body, close } = openDialog(`Heap dump · ${pod}`, { onClose: () => controller.abort() });
  const progress = h('progress', { id: 'heap-progress', max: 100 });
  const status = h('p', { role: 'status', 'aria-live': 'polite' }, 'Asking the pod to write a heap dump (the pod may pause for a moment)…');
  body.append(h('label', { for: 'heap-progress' }, 'Progress'), progress, status,
    h('button', { type: 'button', class: 'button secondary', onclick: close }, 'Cancel'));
  const started = performance.now();
  try {
    const response = await api.raw(api.diagnosticsPath(env, module, 'heapdump', { pod }),
      { signal: controller.signal, headers: { Accept: 'application/octet-stream' } });
    const total = Number(response.headers.get('Content-Length')) || 0;
    const disposition = response.headers.get('Content-Disposition') || '';
    const fileName = (/filename="?([^";]+)"?/.exec(disposition) || [])[1] || `${pod}.hprof`;
    if (!total) progress.removeAttribute('value');
    const { chunks, received } = await api.readWithProgress(response, (bytes) => {
      if (total) progress.value = (bytes / total) * 100;
      status.textContent = `Received ${fmt.bytes(bytes)}${total ? ' of ' + fmt.bytes(total) : ''}.`;
    });
    progress.value = 100;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    status.textContent = `Done: ${fmt.bytes(received)} in ${seconds} s, saved as ${fileName}.`;
    download(new Blob(chunks, { type: 'application/octet-stream' }), fileName);
  } catch (err) {
    if (controller.signal.aborted) return;
    status.textContent = 'Heap dump failed: ' + api.explain(err);
    status.className = 'error-text';
  }
}
