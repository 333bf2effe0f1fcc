// A flow document as text: where a problem the API names ("steps[1] (shape).transform") stands in the YAML or JSON
// the operator wrote, and the words for a run's or step's status. Pure functions (unit-tested with node, no browser).
import { fieldOffset } from './definition-text.js';

const STEP_PLACE = /^(steps|onFailure)\[(\d+)\](?: \(([^)]*)\))?\.?(.*)$/;

/**
 * The offset in the text where a problem's place starts, or -1. A step is found by its id when it has one (the
 * API names it in brackets), else as the n-th item of its list; the rest of the place is followed from there.
 */
export function problemOffset(text, at) {
  if (!at || at === 'document') return -1;
  const step = STEP_PLACE.exec(at);
  if (!step) return fieldOffset(text, at);
  const [, list, index, id, rest] = step;
  const listAt = fieldOffset(text, list);
  if (listAt < 0) return -1;
  let stepAt = -1;
  if (id) {
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`["']?id["']?\\s*:\\s*["']?${escaped}["']?\\s*[,}\\n]`, 'g');
    pattern.lastIndex = listAt;
    const match = pattern.exec(text + '\n');
    if (match) stepAt = match.index;
  }
  if (stepAt < 0) stepAt = nthItem(text, listAt, Number(index));
  if (stepAt < 0) return listAt;
  if (!rest) return lineStart(text, stepAt);
  const inside = fieldOffset(text.slice(stepAt), rest);
  return inside < 0 ? lineStart(text, stepAt) : stepAt + inside;
}

/** The start of the n-th "- " item of a YAML block list whose key is at keyAt; -1 when the list is not one. */
function nthItem(text, keyAt, n) {
  const lines = text.slice(keyAt).split('\n');
  let offset = keyAt + lines[0].length + 1;
  let indent = null;
  let count = -1;
  for (const line of lines.slice(1)) {
    const item = /^(\s*)- /.exec(line);
    if (item && (indent === null || item[1].length === indent)) {
      indent = item[1].length;
      count++;
      if (count === n) return offset + indent;
    } else if (line.trim() && indent !== null && /^\s*/.exec(line)[0].length < indent) {
      return -1;
    } else if (line.trim() && indent === null && !/^\s/.test(line)) {
      return -1;
    }
    offset += line.length + 1;
  }
  return -1;
}

function lineStart(text, offset) {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The 1-based line of an offset. */
export function lineOf(text, offset) {
  return text.slice(0, offset).split('\n').length;
}

const STATUS_CLASS = { succeeded: 'up', failed: 'down', running: 'warn', queued: 'warn', skipped: 'neutral', false: 'neutral' };

/** The badge class of a run's or step attempt's status. */
export function statusClass(status) {
  return STATUS_CLASS[status] || 'neutral';
}

/** Milliseconds between two ISO instants, or null when either is missing. */
export function between(from, to) {
  if (!from || !to) return null;
  const ms = new Date(to).getTime() - new Date(from).getTime();
  return Number.isNaN(ms) ? null : ms;
}

// A flow's trigger in words: "0 0 * * * ? (UTC), HTTP", "HTTP only", "run now only".
export function triggerText(trigger) {
  if (!trigger) return '–';
  const parts = [];
  if (trigger.schedule) parts.push(`${trigger.schedule.cron} (${trigger.schedule.timezone})`);
  if (trigger.http) parts.push(parts.length ? 'HTTP' : 'HTTP only');
  return parts.length ? parts.join(', ') : 'run now only';
}
