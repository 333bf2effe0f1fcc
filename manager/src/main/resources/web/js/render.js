// Turns a diagnostics section (any JSON) into readable tables: scalars as name/value rows, lists of objects as
// tables, nested objects as sub-headings. Sizes in bytes and times in milliseconds are shown in units.
import { h } from './dom.js';
import * as fmt from './format.js';

const BYTE_KEYS = /^(heapUsed|heapMax|ownedEntryMemoryCost|backupEntryMemoryCost|heapCost)$|Bytes$|Memory$/;
// bare names that are sizes only in a memory usage object (beside "used" or "committed"); elsewhere "max" is a count
const USAGE_KEYS = /^(used|max|committed|init|free|total|size)$/;
const ISO_DURATION = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/;
const MS_KEYS = /^(uptime|collectionTime|responseTime)$|(Time|Millis|Ms)$/;

// names a person reads where splitting camelCase gives "Vm Name" or "Gc"
const LABELS = {
  vmName: 'Virtual machine', vmVersion: 'VM version', vmVendor: 'VM vendor', gc: 'Garbage collectors', cpu: 'CPU',
  pid: 'Process ID', podIp: 'Pod address', jvm: 'JVM', id: 'ID', url: 'URL', urls: 'URLs', ttl: 'TTL', ip: 'Address',
  clusterLabel: 'Cluster', memberCount: 'Members (count)', operationTimeoutMs: 'Operation timeout',
};
const PLAIN_NUMBERS = /(^|[a-z])(pid|port|Port|Pid|id|Id|version|Version)$/; // identifiers: no thousands separators
const FRACTIONS = /(Load|Ratio|Fraction)$/; // 0..1, shown as a percentage
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

export function humanName(key) {
  if (LABELS[key]) return LABELS[key];
  return String(key).replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').toLowerCase()
    .replace(/\b(gc|cpu|jvm|jit|ip|id|url|ttl|tls|http)\b/g, (w) => w.toUpperCase())
    .replace(/^./, (c) => c.toUpperCase());
}

export function valueText(key, value, memoryUsage = false) {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number') {
    if (PLAIN_NUMBERS.test(key)) return String(value);
    if (FRACTIONS.test(key) && value >= 0 && value <= 1) return fmt.fraction(value);
    if (BYTE_KEYS.test(key) || (memoryUsage && USAGE_KEYS.test(key))) return fmt.bytes(value);
    if (/time$|At$/i.test(key) && value > 1e12) return fmt.dateTime(new Date(value).toISOString());
    if (MS_KEYS.test(key)) return value >= 10_000 ? fmt.duration(value) : (Math.round(value * 10) / 10) + ' ms';
    return fmt.number(value);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return fmt.dateTime(value);
  const d = typeof value === 'string' ? ISO_DURATION.exec(value) : null;
  if (d && value !== 'PT') return fmt.millis(((Number(d[1] || 0) * 60 + Number(d[2] || 0)) * 60 + Number(d[3] || 0)) * 1000);
  return String(value);
}

function isScalar(value) {
  return value === null || typeof value !== 'object';
}

/** Renders any JSON value under an optional heading level (2..6). */
export function renderValue(value, level = 3) {
  if (isScalar(value)) return h('p', {}, valueText('', value));
  if (Array.isArray(value)) return renderArray(value, level);
  if (!Object.keys(value).length) return h('p', { class: 'muted' }, 'None.');
  const scalars = Object.entries(value).filter(([, v]) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)));
  const nested = Object.entries(value).filter(([, v]) => !(isScalar(v) || (Array.isArray(v) && v.every(isScalar))));
  const out = h('div', { class: 'kv-block' });
  const usage = 'used' in value || 'committed' in value;
  if (scalars.length) {
    out.append(h('table', { class: 'kv' }, h('tbody', {}, scalars.map(([k, v]) =>
      h('tr', {}, h('th', { scope: 'row' }, humanName(k)),
        h('td', {}, Array.isArray(v) ? v.map((x) => valueText(k, x)).join(', ') || '–' : valueText(k, v, usage)))))));
  }
  for (const [k, v] of nested) {
    out.append(h('h' + Math.min(level, 6), {}, humanName(k)), renderValue(v, level + 1));
  }
  return out;
}

function renderArray(items, level) {
  if (!items.length) return h('p', { class: 'muted' }, 'None.');
  if (items.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
    const columns = [...new Set(items.flatMap((x) => Object.keys(x).filter((k) => isScalar(x[k]))))];
    const table = h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, humanName(c))))),
      h('tbody', {}, items.map((x) => h('tr', {}, columns.map((c) => h('td', { 'data-label': humanName(c) }, valueText(c, x[c], 'used' in x || 'committed' in x)))))));
    return h('div', { class: 'table-scroll' }, table);
  }
  return h('ul', {}, items.map((x) => h('li', {}, isScalar(x) ? valueText('', x) : renderValue(x, level + 1))));
}

/** The raw JSON, folded away, for those who want it. */
export function rawJson(value) {
  return h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', {}, JSON.stringify(value, null, 2)));
}
