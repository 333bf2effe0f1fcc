// A proxy definition as text: written as YAML for the editor, a field the API names found in the text, a JSON
// pointer read. Pure functions (unit-tested with node, no browser).

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./:@-]*$/;
const YAML_WORDS = /^(true|false|null|yes|no|on|off|~)$/i;

/** JSON values as block YAML (strings quoted unless plainly safe); what the editor shows a definition as. */
export function yaml(value, indent = '') {
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return value.map((v) => '\n' + indent + '- ' + (isBlock(v) ? yaml(v, indent + '  ').replace(/^\n\s*/, '') : scalar(v))).join('');
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (!keys.length) return '{}';
    return keys.map((k) => '\n' + indent + key(k) + ':' + (isBlock(value[k]) ? yaml(value[k], indent + '  ') : ' ' + scalar(value[k]))).join('');
  }
  return scalar(value);
}

export function toYaml(value) {
  return yaml(value).replace(/^\n/, '') + '\n';
}

function isBlock(v) {
  return v && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

function key(k) {
  return PLAIN.test(k) && !YAML_WORDS.test(k) ? k : JSON.stringify(k);
}

function scalar(v) {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  if (typeof v !== 'string') return String(v);
  return PLAIN.test(v) && !YAML_WORDS.test(v) && !/^[0-9.+-]/.test(v) && !v.includes(': ') ? v : JSON.stringify(v);
}

/**
 * Where a field named by the API ("rateLimit.requests", "upstreams[0]") is in a YAML or JSON text: the offset of its
 * key (or of the list it is an item of), found by following the path's keys in order; -1 when not found.
 */
export function fieldOffset(text, fieldPath) {
  let at = 0;
  let found = -1;
  for (const part of String(fieldPath).split('.')) {
    const name = part.replace(/\[\d+\]$/, '');
    if (!name) continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`(^|[\\s{,])["']?${escaped}["']?\\s*:`, 'gm');
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) break;
    found = match.index + match[1].length;
    at = found + 1;
  }
  return found;
}

/** A JSON pointer as the definition's own dotted form: /upstreams/0 is upstreams[0]. */
export function dotted(path) {
  return path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '') || '(whole definition)';
}

/** The value at a JSON pointer, or undefined. */
export function pointer(doc, path) {
  let node = doc;
  for (const raw of path.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}
