// Unit tests of the Manager UI's pure logic (no browser): run with `node --test` by FrontEndLogicTest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePods, rowError, versionSkew, memberDisagreement, membersOf, answeredLine } from '../../../../manager/src/main/resources/web/js/pods.js';
import { toYaml, fieldOffset, dotted, pointer } from '../../../../manager/src/main/resources/web/js/definition-text.js';
import { parseThreadDump, groupThreads } from '../../../../manager/src/main/resources/web/js/threaddump.js';

const pod = (name, extra = {}) => ({ podName: name, podIp: '10.0.0.' + name.slice(-1), version: '1.0', ...extra });

test('answers of several calls merge into one row per pod, sorted by name', () => {
  const rows = mergePods({
    jvm: { pods: [pod('w-10', { jvm: { uptime: 5 } }), pod('w-2', { jvm: { uptime: 7 } })] },
    threads: { pods: [pod('w-2', { threads: { summary: { threadCount: 9 } } })] },
  });
  assert.deepEqual(rows.map((r) => r.podName), ['w-2', 'w-10']);
  assert.equal(rows[0].sections.jvm.uptime, 7);
  assert.equal(rows[0].sections.threads.summary.threadCount, 9);
  assert.equal(rowError(rows[0]), null);
});

test('a pod that answered nothing shows its error; one that answered something does not', () => {
  const down = { podName: 'w-1', podIp: '10.0.0.1', error: { status: 502, message: 'connection refused' } };
  const rows = mergePods({ jvm: { pods: [pod('w-0', { jvm: {} }), down] }, threads: { pods: [pod('w-0', { threads: {} }), down] } });
  assert.equal(rowError(rows[1]), 'HTTP 502: connection refused');
  assert.equal(rowError(rows[0]), null);
});

test('the answered line reads the broadcast\'s top-level responseTime, as the server writes it', () => {
  const down = { podName: 'w-1', podIp: '10.0.0.1', error: { status: 504, message: 'timed out' } };
  const broadcast = { pods: [pod('w-0', { jvm: {} }), down], summary: { total: 2, succeeded: 1, failed: 1 }, responseTime: 41.6 };
  assert.equal(answeredLine(mergePods({ jvm: broadcast }), broadcast), '1 of 2 pods answered in 42 ms.');
  assert.equal(answeredLine(mergePods({ jvm: broadcast }), { pods: broadcast.pods }), '1 of 2 pods answered.');
});

test('version skew names each version with its pods', () => {
  assert.equal(versionSkew([{ podName: 'a', version: '1' }, { podName: 'b', version: '1' }]), null);
  const skew = versionSkew([{ podName: 'a', version: '1' }, { podName: 'b', version: '2' }, { podName: 'c', version: '1' }]);
  assert.deepEqual([...skew.entries()], [['1', ['a', 'c']], ['2', ['b']]]);
});

test('data grid members: agreeing pods are fine, the odd one out is named', () => {
  const grid = (...addresses) => ({ datagrid: { members: addresses.map((address) => ({ address, uuid: address })) } });
  const agree = [{ podName: 'c-0', sections: grid('a:1', 'b:1') }, { podName: 'c-1', sections: grid('b:1', 'a:1') }];
  assert.equal(memberDisagreement(agree), null);
  const split = [...agree, { podName: 'c-2', sections: grid('c:1') }];
  const odd = memberDisagreement(split);
  assert.equal(odd.length, 1);
  assert.equal(odd[0].pod, 'c-2');
  assert.deepEqual(odd[0].majority, ['a:1', 'b:1']);
  assert.deepEqual(membersOf({ members: ['x', 'y'] }), ['x', 'y']);
  assert.equal(membersOf({}), null);
});

const DUMP = `Full thread dump OpenJDK 64-Bit Server VM:

"worker-1" #21 daemon prio=5 tid=0x1 nid=0x2 waiting on condition
   java.lang.Thread.State: WAITING (parking)
\tat jdk.internal.misc.Unsafe.park(Native Method)
\t- parking to wait for <0x00000000aa> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)
\tat java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1070)

"worker-2" #22 daemon prio=5 tid=0x3 nid=0x4 waiting on condition
   java.lang.Thread.State: WAITING (parking)
\tat jdk.internal.misc.Unsafe.park(Native Method)
\t- parking to wait for <0x00000000bb> (a java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject)
\tat java.util.concurrent.ThreadPoolExecutor.getTask(ThreadPoolExecutor.java:1070)

"lock-a" #30 prio=5 tid=0x5 nid=0x6 waiting for monitor entry
   java.lang.Thread.State: BLOCKED (on object monitor)
\tat demo.Deadlock.a(Deadlock.java:10)

"lock-b" #31 prio=5 tid=0x7 nid=0x8 waiting for monitor entry
   java.lang.Thread.State: BLOCKED (on object monitor)
\tat demo.Deadlock.b(Deadlock.java:20)

"main" #1 prio=5 tid=0x9 nid=0xa runnable
   java.lang.Thread.State: RUNNABLE
\tat demo.Main.main(Main.java:5)

Found one Java-level deadlock:
=============================
"lock-a":
  waiting to lock monitor 0x01 (object 0x02, a java.lang.Object),
  which is held by "lock-b"
"lock-b":
  waiting to lock monitor 0x03 (object 0x04, a java.lang.Object),
  which is held by "lock-a"

Found 1 deadlock.
`;

test('a thread dump is split into threads with state and frames, deadlocked ones found', () => {
  const { threads, deadlocked } = parseThreadDump(DUMP);
  assert.deepEqual(threads.map((t) => t.name), ['worker-1', 'worker-2', 'lock-a', 'lock-b', 'main']);
  assert.deepEqual(threads.map((t) => t.state), ['WAITING', 'WAITING', 'BLOCKED', 'BLOCKED', 'RUNNABLE']);
  assert.equal(threads[0].frames.length, 3);
  assert.deepEqual([...deadlocked].sort(), ['lock-a', 'lock-b']);
});

test('identical stacks (lock addresses aside) form one group; deadlocks come first, then the biggest group', () => {
  const groups = groupThreads(parseThreadDump(DUMP).threads);
  assert.equal(groups.length, 4);
  assert.ok(groups[0].deadlocked && groups[1].deadlocked);
  assert.deepEqual(groups[2].threads.map((t) => t.name), ['worker-1', 'worker-2']);
  assert.equal(groups[3].threads[0].name, 'main');
});

test('the deadlock section of a Pylon thread dump ("name" #id:) names the deadlocked threads', () => {
  const dump = `"a" #1 prio=5\n   java.lang.Thread.State: BLOCKED\n\tat x.A.run(A.java:1)\n\n"b" #2 prio=5\n   java.lang.Thread.State: BLOCKED\n\tat x.B.run(B.java:1)\n\n`
    + 'Found a Java-level deadlock of 2 threads:\n=============================\n"a" #1:\n  waiting to lock x,\n  which is held by "b" #2\n'
    + '"b" #2:\n  waiting to lock y,\n  which is held by "a" #1\n\nVirtual threads (1):\n\n"v" #40 virtual\n\tat x.V.run(V.java:1)\n';
  const { threads, deadlocked } = parseThreadDump(dump);
  assert.deepEqual([...deadlocked].sort(), ['a', 'b']);
  assert.deepEqual(threads.map((t) => t.name), ['a', 'b', 'v']);
  assert.equal(threads[2].frames.length, 1);
});

import { outliersByPod, driftLines } from '../../../../manager/src/main/resources/web/js/compare.js';

test('compare: outliers map to the pod table column of their metric, others only to the Outliers column', () => {
  const byPod = outliersByPod({ outliers: [
    { podName: 'w-1', metric: 'heapAfterGc', label: 'heap after GC', unit: 'bytes', value: 230 * 1024 * 1024, median: 9 * 1024 * 1024, score: 298.8 },
    { podName: 'w-1', metric: 'cpuLoad', label: 'process CPU load', unit: 'fraction', value: 0.5, median: 0.01, score: 12 },
    { podName: 'w-2', metric: 'threadsBlocked', label: 'BLOCKED threads', unit: 'threads', value: 41, median: 0, score: 14.2 },
  ] });
  assert.deepEqual(byPod.get('w-1').map((o) => o.column), ['Heap', null]);
  assert.equal(byPod.get('w-1')[0].text, 'heap after GC 230 MiB, median 9.0 MiB (score 298.8)');
  assert.equal(byPod.get('w-1')[1].text, 'process CPU load 50%, median 1% (score 12)');
  assert.equal(byPod.get('w-2')[0].text, 'BLOCKED threads 41, median 0 (score 14.2)');
  assert.equal(outliersByPod(null).size, 0);
});

test('compare: the drift banner names what differs and never a masked value', () => {
  assert.equal(driftLines({ drift: { drifted: false, versions: [], commits: [], javaVersions: [], env: [] } }), null);
  assert.equal(driftLines(null), null);
  const lines = driftLines({ drift: { drifted: true, versions: [{ value: '1.0', pods: ['w-1', 'w-3'] }, { value: '1.1', pods: ['w-2'] }],
    commits: [], javaVersions: [], env: [
      { name: 'LOG_LEVEL', masked: false, groups: [{ hash: 'aa', value: 'INFO', pods: ['w-1', 'w-2'] }, { absent: true, pods: ['w-3'] }] },
      { name: 'DB_PASSWORD', masked: true, groups: [{ hash: '0123456789ab', pods: ['w-1', 'w-3'] }, { hash: 'ba9876543210', pods: ['w-2'] }] }] } });
  assert.deepEqual(lines, ['Versions: 1.0 on w-1, w-3; 1.1 on w-2', 'LOG_LEVEL: "INFO" on w-1, w-2; unset on w-3',
    'DB_PASSWORD (masked): value #0123456789ab on w-1, w-3; value #ba9876543210 on w-2']);
});

import { dateTime, fraction, millis } from '../../../../manager/src/main/resources/web/js/format.js';
import { humanName, valueText } from '../../../../manager/src/main/resources/web/js/render.js';

test('one date format for ISO text and epoch milliseconds', () => {
  const iso = '2026-11-25T18:21:27.123Z';
  assert.match(dateTime(iso), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.equal(dateTime(Date.parse(iso)), dateTime(iso));
  assert.equal(dateTime(null), 'never');
  assert.equal(valueText('startedAt', iso), dateTime(iso));
});

test('identifiers without thousands separators, fractions as percentages, labels a person reads', () => {
  assert.equal(valueText('pid', 123456), '123456');
  assert.equal(valueText('port', 30080), '30080');
  assert.equal(valueText('processCpuLoad', 0.008), '0.8 %');
  assert.equal(fraction(0.25), '25 %');
  assert.equal(millis(840), '840 ms');
  assert.equal(humanName('vmName'), 'Virtual machine');
  assert.equal(humanName('gc'), 'Garbage collectors');
  assert.equal(humanName('heapAfterGc'), 'Heap after GC');
  assert.equal(valueText('max', 20), '20', 'a maximum count is not a size');
  assert.equal(valueText('max', 20480, true), '20 KiB', 'beside used/committed it is');
  assert.equal(valueText('idleTimeout', 'PT5M'), '5 min 0 s');
  assert.equal(valueText('timeout', 'PT0.5S'), '500 ms');
});

test('a definition is shown as block YAML, strings quoted only where YAML would read them otherwise', () => {
  const text = toYaml({ name: 'orders', description: 'Orders API', pathPrefix: '/orders', upstreams: ['http://10.0.0.5:8080'],
    connectTimeout: '2s', stripPrefix: false, methods: [], rateLimit: { requests: 50, per: 'second' }, host: 'yes',
    requestHeaders: { add: { 'X-Env': 'prod: eu' } } });
  assert.equal(text, `name: orders
description: "Orders API"
pathPrefix: /orders
upstreams:
  - http://10.0.0.5:8080
connectTimeout: "2s"
stripPrefix: false
methods: []
rateLimit:
  requests: 50
  per: second
host: "yes"
requestHeaders:
  add:
    X-Env: "prod: eu"
`);
});

test('a field the API names is found in YAML and JSON text, following its path', () => {
  const yaml = 'name: a\nrequests: 1\nrateLimit:\n  per: second\n  requests: -5\n';
  assert.equal(yaml.slice(fieldOffset(yaml, 'rateLimit.requests')).split('\n')[0], 'requests: -5');
  const flow = 'name: a\nrateLimit: {per: second, requests: -5}\n';
  assert.equal(flow.slice(fieldOffset(flow, 'rateLimit.requests')).startsWith('requests: -5'), true);
  const json = '{"name": "a",\n "upstreams": ["file:///x"]}';
  assert.equal(json.slice(fieldOffset(json, 'upstreams[0]')).startsWith('"upstreams"'), true);
  assert.equal(fieldOffset(yaml, 'cors.allowOrigins'), -1);
});

test('JSON pointers of a patch read as the definition\'s dotted fields and resolve to the old values', () => {
  assert.equal(dotted('/upstreams/0'), 'upstreams[0]');
  assert.equal(dotted('/requestHeaders/add/X-A~1B'), 'requestHeaders.add.X-A/B');
  assert.equal(dotted(''), '(whole definition)');
  const doc = { upstreams: ['http://a'], rateLimit: { requests: 5 } };
  assert.equal(pointer(doc, '/upstreams/0'), 'http://a');
  assert.equal(pointer(doc, '/rateLimit/requests'), 5);
  assert.equal(pointer(doc, '/cors/maxAge'), undefined);
});

test('a flow problem is found at its step (by id, else by position) and field, in YAML and JSON', async () => {
  const { problemOffset, lineOf, triggerText, statusClass } = await import('../../../../manager/src/main/resources/web/js/flow-text.js');
  const yaml = `name: a
steps:
  - http: {url: "http://x/a", timeout: 5s}
  - id: shape
    transform: '{"a": 1'
  - transform: 'b'
    retry: {maxAttempts: 20}
onFailure:
  - webhook: {url: "http://x/alert"}
`;
  const at = (place) => yaml.slice(problemOffset(yaml, place)).split('\n')[0];
  assert.equal(at('steps[1] (shape).transform'), `transform: '{"a": 1'`);
  assert.equal(lineOf(yaml, problemOffset(yaml, 'steps[1] (shape).transform')), 5);
  assert.equal(at('steps[0].http.timeout'), 'timeout: 5s}');
  assert.equal(at('steps[2].retry.maxAttempts'), 'maxAttempts: 20}');
  assert.equal(at('steps[2]'), `  - transform: 'b'`);
  assert.equal(at('onFailure[0].webhook.url'), 'url: "http://x/alert"}');
  assert.equal(problemOffset(yaml, 'document'), -1);
  const json = '{"name": "a", "steps": [{"id": "f", "transform": "1"}, {"id": "g", "transform": "("}]}';
  assert.equal(json.slice(problemOffset(json, 'steps[1] (g).transform')), '"transform": "("}]}');
  assert.equal(triggerText({ schedule: { cron: '0 0 * * * ?', timezone: 'UTC' }, http: true }), '0 0 * * * ? (UTC), HTTP');
  assert.equal(triggerText({ http: true }), 'HTTP only');
  assert.equal(triggerText({ http: false }), 'run now only');
  assert.equal(statusClass('failed'), 'down');
});

test('only the latest of overlapping loads may render', async () => {
  const { latestOnly } = await import('../../../../manager/src/main/resources/web/js/api.js');
  const load = latestOnly();
  const first = load();
  const second = load();
  assert.equal(first(), false, 'an older load answering last renders nothing');
  assert.equal(second(), true);
  assert.equal(load()(), true);
  assert.equal(second(), false);
});
