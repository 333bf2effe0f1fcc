// Merges the broadcast answers of one module (jvm, threads, health, datagrid) into one row per pod, and finds what
// an operator must notice: pods that did not answer, version skew, pods that disagree about the data grid members.

export function mergePods(answers) {
  const pods = new Map();
  for (const [name, body] of Object.entries(answers)) {
    if (!body || !Array.isArray(body.pods)) continue;
    for (const pod of body.pods) {
      const key = pod.podName || pod.podIp;
      let row = pods.get(key);
      if (!row) {
        row = { podName: pod.podName, podIp: pod.podIp, sections: {}, errors: [] };
        pods.set(key, row);
      }
      for (const field of ['nodeName', 'namespace', 'version', 'envName', 'module']) {
        if (pod[field] !== undefined && pod[field] !== null) row[field] = pod[field];
      }
      if (pod.error) row.errors.push({ name, ...pod.error });
      else if (pod[name] !== undefined) row.sections[name] = pod[name];
    }
  }
  return [...pods.values()].sort((a, b) => String(a.podName).localeCompare(String(b.podName), 'en', { numeric: true }));
}

/** The pod's error in words, when it answered none of the calls. */
export function rowError(row) {
  if (!row.errors.length || Object.keys(row.sections).length) return null;
  const e = row.errors[0];
  return (e.status ? `HTTP ${e.status}: ` : '') + (e.message || 'no answer');
}

/** "2 of 3 pods answered in 41 ms." from the rows and one broadcast answer (its top-level responseTime). */
export function answeredLine(rows, broadcast) {
  const answered = rows.filter((r) => !rowError(r)).length;
  const took = broadcast && typeof broadcast.responseTime === 'number' ? ` in ${Math.round(broadcast.responseTime)} ms.` : '.';
  return `${answered} of ${rows.length} pods answered${took}`;
}

export function versionSkew(rows) {
  const byVersion = new Map();
  for (const row of rows) if (row.version) byVersion.set(row.version, [...(byVersion.get(row.version) || []), row.podName]);
  return byVersion.size > 1 ? byVersion : null;
}

/** The member list a Cache pod sees, as sorted strings; null when its datagrid section names none. */
export function membersOf(datagrid) {
  if (!datagrid || typeof datagrid !== 'object') return null;
  const list = datagrid.members ?? datagrid.cluster?.members ?? datagrid.clusterMembers ?? datagrid.cluster?.memberList;
  if (!Array.isArray(list)) return null;
  return list.map((m) => (typeof m === 'string' ? m
    : m.address ?? (m.host !== undefined ? `${m.host}:${m.port}` : null) ?? m.uuid ?? m.name ?? JSON.stringify(m))).sort();
}

/** Pods whose view of the members differs from the most common view; null when they all agree. */
export function memberDisagreement(rows) {
  const views = new Map();
  for (const row of rows) {
    const members = membersOf(row.sections.datagrid);
    if (!members) continue;
    const key = members.join(',');
    views.set(key, [...(views.get(key) || []), { pod: row.podName, members }]);
  }
  if (views.size <= 1) return null;
  const [majority] = [...views.entries()].sort((a, b) => b[1].length - a[1].length)[0];
  return [...views.entries()].filter(([key]) => key !== majority).flatMap(([, pods]) => pods)
    .map((p) => ({ ...p, majority: majority ? majority.split(',') : [] }));
}
