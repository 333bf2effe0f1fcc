// The black box: captures each Worker and Cache pod wrote when a trigger fired (deadlock, liveness DOWN, heap after
// GC, SIGTERM, repeated 429s, OutOfMemoryError). A fleet list under each pod table, a Captures panel per pod, and
// one capture opened: trigger, reason, the thread dump and the sections it holds.
import * as api from './api.js';
import { h, clear, put, openDialog, download } from './dom.js';
import * as fmt from './format.js';
import { renderValue, rawJson } from './render.js';
import { podOf } from './panels.js';
import { sortableTable } from './sre.js';

const RECENT_ON_PAGE = 5;
const SECTIONS = [['jvm', 'JVM'], ['threads', 'Threads'], ['connections', 'Connections'], ['health', 'Health'], ['histogram', 'Class histogram (no full GC)']];

function loading(body, words = 'Loading…') {
  clear(body).append(h('p', { class: 'muted', role: 'status' }, words));
}

function failed(body, err) {
  clear(body).append(h('p', { class: 'error-text', role: 'alert' }, api.explain(err)));
}

function triggerBadge(trigger) {
  return h('span', { class: 'badge trigger ' + (trigger === 'sigterm' ? 'neutral' : 'down'), dataset: { trigger } }, trigger);
}

function openButton(env, module, pod, id, label = 'Open') {
  return h('button', { type: 'button', class: 'button small', 'aria-label': `Open capture ${id} of ${pod}`,
    dataset: { action: 'capture', id }, onclick: () => openCapture(env, module, pod, id) }, label);
}

/** The fleet's newest captures under the pod table: nothing when no pod has one. */
export function recentCaptures(env, module, answer) {
  const recent = answer && answer.postmortem && answer.postmortem.recent;
  if (!recent || !recent.length) return null;
  const name = module === 'worker' ? 'Worker' : 'Cache';
  return h('div', { class: 'recent-captures', dataset: { module } },
    h('h3', {}, `Recent captures (${answer.postmortem.count} on the ${name} pods)`),
    h('ul', { class: 'plain' }, recent.slice(0, RECENT_ON_PAGE).map((c) => h('li', { dataset: { pod: c.podName, id: c.id } },
      triggerBadge(c.trigger), ' ', h('strong', {}, c.podName), ' ', fmt.dateTime(c.time), ' · ', fmt.bytes(c.sizeBytes), ' ',
      openButton(env, module, c.podName, c.id)))),
    recent.length > RECENT_ON_PAGE ? h('button', { type: 'button', class: 'button small secondary', dataset: { action: 'all-captures' },
      onclick: () => openFleetCaptures(env, module) }, `All ${answer.postmortem.count} captures`) : null);
}

/** Every pod's captures, newest first, sortable. */
export async function openFleetCaptures(env, module) {
  const { body } = openDialog(`Captures · ${module}`, { wide: true });
  loading(body, 'Asking every pod…');
  try {
    const answer = await api.json(api.diagnosticsPath(env, module, 'postmortem'));
    const rows = ((answer.postmortem && answer.postmortem.recent) || []).map((c) => ({ ...c, pod: c.podName }));
    const missing = (answer.pods || []).filter((p) => p.error);
    clear(body);
    if (missing.length) {
      put(body, h('p', { class: 'flag-banner' }, 'Not answered: ' + missing.map((p) => p.podName).join(', ') + '.'));
    }
    if (!rows.length) {
      put(body, h('p', { class: 'muted' }, 'No pod has written a capture.'));
      return;
    }
    put(body, h('p', { class: 'muted' }, `${answer.postmortem.count} captures; the newest ${rows.length} are listed.`),
      captureTable('fleet-captures', env, module, rows, true));
  } catch (err) {
    failed(body, err);
  }
}

/** One pod's captures and how often each trigger fired. */
export async function openCaptures(env, module, pod) {
  const { body } = openDialog(`Captures · ${pod}`, { wide: true });
  loading(body);
  try {
    const one = podOf(await api.json(api.diagnosticsPath(env, module, 'postmortem', { pod })), pod);
    if (!one || one.error) throw new Error(`Pod ${pod} did not answer: ${one && one.error ? one.error.message : 'no answer'}`);
    const section = one.postmortem || {};
    const rows = (section.captures || []).map((c) => ({ ...c, pod }));
    clear(body);
    put(body, rows.length ? captureTable('pod-captures', env, module, rows, false)
      : h('p', { class: 'muted' }, 'This pod has written no capture.'));
    const triggers = Object.entries(section.triggers || {}).map(([trigger, t]) => ({ trigger, ...t }));
    put(body, h('h3', {}, 'Triggers'), sortableTable('capture-triggers', [
      { key: 'trigger', label: 'Trigger' },
      { key: 'fired', label: 'Fired', num: true },
      { key: 'suppressed', label: 'Skipped (rate limit)', num: true },
      { key: 'lastCapture', label: 'Last capture', render: (r) => r.lastCapture ? fmt.dateTime(r.lastCapture) : '–' },
    ], triggers, { key: 'trigger', descending: false }));
    if (section.limits) {
      put(body, h('p', { class: 'muted small' }, `Keeps ${section.limits.maxCount} captures of at most ${fmt.bytes(section.limits.maxBytes)}, `
        + `one per trigger every ${section.limits.minIntervalSeconds} s.`));
    }
  } catch (err) {
    failed(body, err);
  }
}

function captureTable(id, env, module, rows, withPod) {
  const columns = [
    { key: 'time', label: 'Time', render: (r) => fmt.dateTime(r.time) },
    withPod ? { key: 'pod', label: 'Pod' } : null,
    { key: 'trigger', label: 'Trigger', render: (r) => triggerBadge(r.trigger) },
    { key: 'sizeBytes', label: 'Size', num: true, render: (r) => fmt.bytes(r.sizeBytes) },
    { key: 'id', label: 'Capture', render: (r) => openButton(env, module, r.pod, r.id) },
  ].filter(Boolean);
  return sortableTable(id, columns, rows, { key: 'time', descending: true });
}

/** One capture: why and when, the thread dump, then each section it holds. */
export async function openCapture(env, module, pod, id) {
  const { body } = openDialog(`Capture · ${pod} · ${id}`, { wide: true });
  loading(body);
  try {
    const one = podOf(await api.json(api.diagnosticsPath(env, module, 'postmortem', { pod, id })), pod);
    if (!one || one.error) throw new Error(`Pod ${pod} did not answer: ${one && one.error ? one.error.message : 'no answer'}`);
    const capture = one.postmortem || {};
    clear(body);
    put(body, h('p', { class: 'intro capture-reason' }, triggerBadge(capture.trigger), ' ', capture.reason || ''),
      h('p', { class: 'muted' }, `Captured ${fmt.dateTime(capture.time)} on ${capture.podName} (${capture.version || 'unknown version'}), `
        + `built in ${capture.tookMillis ?? '–'} ms.`));
    if (capture.alsoTriggered && capture.alsoTriggered.length) {
      put(body, h('p', {}, 'Also fired: ', ...capture.alsoTriggered.map((t) => h('span', {}, triggerBadge(t.trigger), ' ', t.reason, ' '))));
    }
    if (typeof capture.threadDump === 'string') {
      put(body, h('h3', {}, 'Thread dump' + (capture.threadDumpTruncated ? ' (cut to the size bound)' : '')),
        h('pre', { class: 'threaddump', tabindex: '0' }, capture.threadDump),
        h('button', { type: 'button', class: 'button small secondary', onclick: () =>
          download(new Blob([capture.threadDump], { type: 'text/plain' }), `${pod}-${id}-threads.txt`) }, 'Save thread dump'));
    }
    for (const [key, title] of SECTIONS) {
      if (capture[key] !== undefined) {
        put(body, h('details', { class: 'capture-section', dataset: { section: key } }, h('summary', {}, title), renderValue(capture[key], 3)));
      }
    }
    put(body, h('button', { type: 'button', class: 'button small secondary', onclick: () =>
      download(new Blob([JSON.stringify(capture)], { type: 'application/json' }), `${pod}-${id}.json`) }, 'Save capture'),
    rawJson(capture));
  } catch (err) {
    failed(body, err);
  }
}
