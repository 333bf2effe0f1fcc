// The JVM, Threads, Connections and Data grid panels of a pod, as a person reads them: the figures that matter first, each in its unit, one
// date format, the memory pools with their usage; the full answer stays one click away (Raw JSON).
import { h } from './dom.js';
import * as fmt from './format.js';
import { renderValue, humanName } from './render.js';

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

const latency = (ms) => (typeof ms === 'number' ? ms.toFixed(ms < 10 ? 2 : 0) : '–');
const yesNo = (v) => (v === true ? 'yes' : v === false ? 'no' : '–');

/** What the dedicated part of a panel left out of {@code section}, drawn as labelled tables under "More". */
function rest(section, shown) {
  const others = Object.fromEntries(Object.entries(section || {}).filter(([k]) => !shown.includes(k)));
  if (!Object.keys(others).length) return null;
  return h('div', {}, ...Object.entries(others).map(([k, v]) => h('div', {}, h('h3', {}, humanName(k)), renderValue(v ?? {}, 4))));
}

export function connectionsPanel(c) {
  const pools = c.pools || [];
  const server = c.server || {};
  const proxy = c.proxy || {};
  const grid = c.cache || {};
  const exchanges = c.exchanges || { count: 0, oldest: [] };
  const outcomes = Object.entries(proxy).filter(([, v]) => typeof v === 'number');
  return h('div', { class: 'section-panel' },
    h('p', { class: 'intro' }, `${c.active} active and ${c.idle} idle backend connections, ${c.pending} waiting for one; `
      + `${server.openConnections ?? '–'} client connections open, ${server.requestsInFlight ?? '–'} `
      + `request${server.requestsInFlight === 1 ? '' : 's'} in flight.`),
    h('div', { class: 'panel-grid' },
      h('section', { 'aria-label': 'Clients' }, h('h3', {}, 'Clients'), kv([
        ['Port', server.port === null || server.port === undefined ? '–' : String(server.port)],
        ['Open connections', fmt.number(server.openConnections)],
        ['Requests in flight', fmt.number(server.requestsInFlight)],
        ['Requests accepted', fmt.number(server.requestsAccepted)],
      ])),
      h('section', { 'aria-label': 'Proxy outcomes' }, h('h3', {}, 'Proxy outcomes'),
        kv(outcomes.map(([k, v]) => [humanName(k), fmt.number(v)]))),
      h('section', { 'aria-label': 'Data grid client' }, h('h3', {}, 'Data grid client'), kv([
        ['State', grid.state ? `${grid.state} since ${fmt.dateTime(grid.since)}` : '–'],
        ['Members', (grid.members || []).join(', ') || '–'],
        ['Connects', fmt.number(grid.connects)],
        ['Operations', grid.operations ? `${fmt.number(grid.operations.succeeded)} succeeded, ${fmt.number(grid.operations.failed)} failed, `
          + `${fmt.number(grid.operations.refusedWhileDisconnected)} refused while disconnected` : '–'],
      ]))),
    h('h3', {}, 'Upstream pools'),
    table('upstream-pools', [
      { label: 'Upstream', render: (p) => p.name },
      { label: 'Leased', num: true, render: (p) => `${fmt.number(p.leased)} of ${fmt.number(p.maxTotal)}` },
      { label: 'Idle', num: true, render: (p) => fmt.number(p.available) },
      { label: 'Waiting', num: true, render: (p) => fmt.number(p.pending) },
      { label: 'Healthy', render: (p) => yesNo(p.healthy) },
      { label: 'Failures', num: true, render: (p) => fmt.number(p.failures) },
      { label: 'Routes', render: (p) => (p.routes || []).join(', ') || '–' },
    ], pools),
    h('h3', {}, 'Proxied requests in flight'),
    h('p', { class: 'muted', id: 'exchanges-in-flight-count' }, exchanges.count === 0 ? 'No proxied request in flight.'
      : `${fmt.number(exchanges.count)} proxied request${exchanges.count === 1 ? '' : 's'} in flight`
        + (exchanges.count > exchanges.oldest.length
        ? `; the ${exchanges.oldest.length} that began first:` : ':')),
    exchanges.count === 0 ? null : table('exchanges-in-flight', [
      { label: 'Route', render: (e) => e.route },
      { label: 'Method', render: (e) => e.method },
      { label: 'Path', render: (e) => h('span', { class: 'mono small' }, e.path) },
      { label: 'Upstream', render: (e) => e.upstream },
      { label: 'Request ID', render: (e) => h('span', { class: 'mono small' }, e.requestId || '–') },
      { label: 'Age', num: true, render: (e) => `${fmt.number(e.ms)} ms` },
      { label: 'Waiting on', render: (e) => (e.waitingForConnection ? 'a connection'
        : e.waitingOnUpstream ? 'upstream' : 'client') },
    ], exchanges.oldest),
    rest(c, ['active', 'idle', 'pending', 'pools', 'server', 'proxy', 'cache', 'exchanges']));
}

export function datagridPanel(g) {
  const members = g.members || [];
  const maps = Object.entries(g.maps || {}).map(([name, m]) => ({ name, ...m }));
  return h('div', { class: 'section-panel' },
    h('p', { class: 'intro' }, `${g.memberCount ?? members.length} members, cluster ${g.clusterState || '–'}, `
      + `${g.clusterSafe ? 'safe' : 'not safe'} (checked ${fmt.dateTime(g.safetyCheckedAt)}); this member owns `
      + `${fmt.number(g.ownedPartitions)} of ${fmt.number(g.partitionCount)} partitions.`),
    h('div', { class: 'panel-grid' },
      h('section', { 'aria-label': 'Cluster' }, h('h3', {}, 'Cluster'), kv([
        ['Cluster', g.clusterLabel],
        ['Running', yesNo(g.running)],
        ['Cluster safe', yesNo(g.clusterSafe)],
        ['This member safe', yesNo(g.localMemberSafe)],
      ]))),
    h('h3', {}, 'Members'),
    table('grid-members', [
      { label: 'Address', render: (m) => m.address },
      { label: 'Version', render: (m) => m.version },
      { label: 'This pod', render: (m) => yesNo(m.local) },
      { label: 'Master', render: (m) => yesNo(m.master) },
      { label: 'Lite member', render: (m) => yesNo(m.liteMember) },
      { label: 'UUID', render: (m) => h('span', { class: 'mono small' }, m.uuid) },
    ], members),
    h('h3', {}, 'Maps'),
    table('grid-maps', [
      { label: 'Map', render: (m) => m.name },
      { label: 'Entries', num: true, render: (m) => `${fmt.number(m.ownedEntryCount)} (+${fmt.number(m.backupEntryCount)} backup)` },
      { label: 'Memory', num: true, render: (m) => fmt.bytes((m.ownedEntryMemoryCost || 0) + (m.backupEntryMemoryCost || 0)) },
      { label: 'Hits', num: true, render: (m) => fmt.number(m.hits) },
      { label: 'Gets / puts', num: true, render: (m) => `${fmt.number(m.getOperationCount)} / ${fmt.number((m.putOperationCount || 0) + (m.setOperationCount || 0))}` },
      { label: 'Get / put latency', num: true, render: (m) => `${latency(m.averageGetLatencyMs)} / ${latency(m.averagePutLatencyMs)} ms` },
      { label: 'Evicted', num: true, render: (m) => fmt.number(m.evictionCount) },
      { label: 'Last update', render: (m) => m.lastUpdateTime > 0 ? fmt.dateTime(m.lastUpdateTime) : 'never' },
    ], maps),
    rest(g, ['running', 'clusterLabel', 'clusterState', 'clusterSafe', 'localMemberSafe', 'safetyCheckedAt', 'memberCount',
      'members', 'partitionCount', 'ownedPartitions', 'maps']));
}
