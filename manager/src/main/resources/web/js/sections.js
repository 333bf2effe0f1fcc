// The JVM and Threads panels of a pod, as a person reads them: the figures that matter first, each in its unit, one
// date format, the memory pools with their usage; the full answer stays one click away (Raw JSON).
import { h } from './dom.js';
import * as fmt from './format.js';

function kv(rows) {
  return h('table', { class: 'kv' }, h('tbody', {}, rows.filter(Boolean).map(([label, value]) =>
    h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value ?? '–')))));
}

function table(id, columns, rows) {
  if (!rows.length) return h('p', { class: 'muted' }, 'None.');
  return h('div', { class: 'table-scroll' }, h('table', { class: 'data', id },
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, columns.map((c) =>
      h('td', { 'data-label': c.label, class: c.num ? 'num' : null }, c.render(r))))))));
}

/** A bar and "used of max (p %)"; max -1 (no limit) is measured against what is committed. */
function usageCell(usage) {
  if (!usage) return '–';
  const limit = usage.max > 0 ? usage.max : usage.committed;
  const pct = fmt.percent(usage.used, limit);
  const text = `${fmt.bytes(usage.used)} of ${fmt.bytes(limit)}${usage.max > 0 ? '' : ' committed'}`;
  // a bar only against a real limit: a pool without one grows its committed size as it needs
  return h('span', { class: 'usage' },
    pct === null || !(usage.max > 0) ? null : h('meter', { min: 0, max: 100, value: pct, high: 85, optimum: 0, 'aria-hidden': 'true' }),
    ` ${text}${pct === null ? '' : ` (${pct.toFixed(0)} %)`}`);
}

export function jvmPanel(jvm) {
  const heap = jvm.memory?.heap || {};
  const cpu = jvm.cpu || {};
  const runtime = jvm.runtime || {};
  const gcs = jvm.gc || [];
  const gcTime = gcs.reduce((t, g) => t + (g.collectionTime > 0 ? g.collectionTime : 0), 0);
  const gcCount = gcs.reduce((t, g) => t + (g.collectionCount > 0 ? g.collectionCount : 0), 0);
  const pools = jvm.memory?.pools || [];
  return h('div', { class: 'section-panel' },
    h('p', { class: 'intro' }, `Heap ${fmt.bytes(heap.used)} of ${fmt.bytes(heap.max)}, non-heap ${fmt.bytes(jvm.memory?.nonHeap?.used)}, `
      + `up ${fmt.duration(jvm.uptime)}, CPU ${fmt.fraction(cpu.processCpuLoad)}.`),
    h('div', { class: 'panel-grid' },
      h('section', { 'aria-label': 'Memory' }, h('h3', {}, 'Memory'), kv([
        ['Heap', usageCell(heap)],
        ['Non-heap', `${fmt.bytes(jvm.memory?.nonHeap?.used)} used, ${fmt.bytes(jvm.memory?.nonHeap?.committed)} committed`],
        ['Garbage collection', `${fmt.number(gcCount)} collections, ${fmt.millis(gcTime)} in total`],
      ])),
      h('section', { 'aria-label': 'Processor' }, h('h3', {}, 'Processor'), kv([
        ['Process CPU', `${fmt.fraction(cpu.processCpuLoad)} of ${cpu.availableProcessors ?? '–'} processors`],
        ['System CPU', fmt.fraction(cpu.systemCpuLoad)],
        ['Load average', typeof cpu.systemLoadAverage === 'number' && cpu.systemLoadAverage >= 0 ? cpu.systemLoadAverage.toFixed(2) : '–'],
        ['CPU time', fmt.millis(cpu.processCpuTime)],
      ])),
      h('section', { 'aria-label': 'Runtime' }, h('h3', {}, 'Runtime'), kv([
        ['Java', `${runtime.version || '–'} (${runtime.vendor || '–'})`],
        ['Virtual machine', runtime.vmName],
        ['Process ID', runtime.pid === undefined ? '–' : String(runtime.pid)],
        ['Started', fmt.dateTime(jvm.startedAt || jvm.startTime)],
        ['Up for', fmt.duration(jvm.uptime)],
        ['Classes', jvm.classes ? `${fmt.number(jvm.classes.loaded)} loaded, ${fmt.number(jvm.classes.unloaded)} unloaded` : '–'],
        jvm.compilation ? ['JIT compiler', `${jvm.compilation.name}, ${fmt.millis(jvm.compilation.totalCompilationTime)} compiling`] : null,
      ]))),
    h('h3', {}, 'Memory pools'),
    table('memory-pools', [
      { label: 'Pool', render: (p) => p.name },
      { label: 'Kind', render: (p) => p.type === 'HEAP' ? 'heap' : 'non-heap' },
      { label: 'Usage', render: (p) => usageCell(p.usage) },
      { label: 'Peak', num: true, render: (p) => fmt.bytes(p.peakUsage?.used) },
      { label: 'After last GC', num: true, render: (p) => p.collectionUsage ? fmt.bytes(p.collectionUsage.used) : '–' },
    ], [...pools].sort((a, b) => (a.type === b.type ? 0 : a.type === 'HEAP' ? -1 : 1))),
    h('h3', {}, 'Garbage collectors'),
    table('collectors', [
      { label: 'Collector', render: (g) => g.name },
      { label: 'Collections', num: true, render: (g) => fmt.number(g.collectionCount) },
      { label: 'Time', num: true, render: (g) => fmt.millis(g.collectionTime) },
      { label: 'Pools', render: (g) => (g.memoryPools || []).join(', ') },
    ], gcs),
    h('h3', {}, 'Buffer pools'),
    table('buffer-pools', [
      { label: 'Pool', render: (b) => b.name },
      { label: 'Buffers', num: true, render: (b) => fmt.number(b.count) },
      { label: 'Used', num: true, render: (b) => fmt.bytes(b.memoryUsed) },
      { label: 'Capacity', num: true, render: (b) => fmt.bytes(b.totalCapacity) },
    ], jvm.memory?.bufferPools || []));
}

export function threadsPanel(threads) {
  const s = threads.summary || {};
  const states = threads.states || {};
  const pools = Array.isArray(threads.executorPools) ? threads.executorPools
    : Object.entries(threads.executorPools || {}).map(([name, p]) => ({ name, ...p }));
  const deadlocked = threads.deadlockedThreads || [];
  const vts = threads.virtualThreadScheduler;
  return h('div', { class: 'section-panel' },
    h('p', { class: 'intro' }, `${s.threadCount} threads (peak ${s.peakThreadCount}, ${s.daemonThreadCount} daemon, ${fmt.number(s.totalStartedThreadCount)} started).`),
    deadlocked.length ? h('p', { class: 'flag-banner', role: 'alert' }, `${deadlocked.length} threads deadlocked: ${deadlocked.map((t) => t.name).join(', ')}.`) : null,
    h('div', { class: 'panel-grid' },
      h('section', { 'aria-label': 'Thread states' }, h('h3', {}, 'Thread states'),
        kv(Object.entries(states).sort(([, a], [, b]) => b - a).map(([state, count]) => [state, fmt.number(count)]))),
      vts ? h('section', { 'aria-label': 'Virtual threads' }, h('h3', {}, 'Virtual thread scheduler'),
        kv(Object.entries(vts).map(([k, v]) => [k.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(), typeof v === 'number' ? fmt.number(v) : String(v)]))) : null),
    h('h3', {}, 'Executor pools'),
    table('executor-pools', [
      { label: 'Pool', render: (p) => p.name },
      { label: 'Busy', num: true, render: (p) => `${p.activeCount} of ${p.poolSize} (max ${p.maximumPoolSize})` },
      { label: 'Queued', num: true, render: (p) => `${fmt.number(p.queueSize)} of ${fmt.number(p.queueSize + p.queueRemainingCapacity)}` },
      { label: 'Completed', num: true, render: (p) => fmt.number(p.completedTaskCount) },
      { label: 'Rejected', num: true, render: (p) => fmt.number(p.rejectedTaskCount) },
    ], pools));
}
