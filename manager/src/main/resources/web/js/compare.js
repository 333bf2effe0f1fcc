// The fleet comparison (the pods' 'compare' diagnostics): which cells of the pod table stand out, and the drift
// banner's words. Pure functions of the answer; the view draws them.
import * as fmt from './format.js';

// The pod table's column for each compared metric; the others only show in the Outliers column.
const COLUMN = {
  heapAfterGc: 'Heap', heapUsed: 'Heap', gcTimeRate: 'Heap', uptime: 'Uptime', threadCount: 'Threads',
  poolPending: 'Threads', threadsRunnable: 'Thread states', threadsBlocked: 'Thread states',
  threadsWaiting: 'Thread states', threadsTimedWaiting: 'Thread states', deadlockedThreads: 'Deadlocks',
  checksDown: 'Status',
};

/** Outliers by pod name: [{ column, text }] ("heap after GC 219 MiB, median 9.2 MiB (score 298)"). */
export function outliersByPod(comparison) {
  const byPod = new Map();
  if (!comparison || !Array.isArray(comparison.outliers)) return byPod;
  for (const o of comparison.outliers) {
    const text = `${o.label || o.metric} ${value(o.value, o.unit)}, median ${value(o.median, o.unit)} (score ${o.score})`;
    byPod.set(o.podName, [...(byPod.get(o.podName) || []), { column: COLUMN[o.metric] || null, metric: o.metric, text }]);
  }
  return byPod;
}

function value(v, unit) {
  if (unit === 'bytes') return fmt.bytes(v);
  if (unit === 'ms') return fmt.duration(v);
  if (unit === 'fraction') return typeof v === 'number' ? (v * 100).toFixed(0) + '%' : '–';
  return fmt.number(v) + (unit === 'ms/s' ? ' ms/s' : '');
}

/** The drift banner's sentences, or null when the pods agree. Masked values are never in the answer. */
export function driftLines(comparison) {
  const drift = comparison && comparison.drift;
  if (!drift || !drift.drifted) return null;
  const groups = (list, show) => list.map((g) => `${show(g)} on ${g.pods.join(', ')}`).join('; ');
  const lines = [];
  if (drift.versions?.length) lines.push('Versions: ' + groups(drift.versions, (g) => g.value));
  if (drift.commits?.length) lines.push('Commits: ' + groups(drift.commits, (g) => g.value));
  if (drift.javaVersions?.length) lines.push('Java: ' + groups(drift.javaVersions, (g) => g.value));
  for (const v of drift.env || []) {
    const show = (g) => g.absent ? 'unset' : g.value !== undefined ? `"${g.value}"` : `value #${g.hash}`;
    lines.push(`${v.name}${v.masked ? ' (masked)' : ''}: ` + groups(v.groups, show));
  }
  return lines;
}
