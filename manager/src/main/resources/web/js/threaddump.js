// Reads a jstack-like thread dump and groups threads whose state and stack are identical.

/** Splits the dump into threads: {name, header, state, frames[], lines[]}, and finds deadlocked thread names. */
export function parseThreadDump(text) {
  const threads = [];
  const deadlocked = new Set();
  let current = null;
  let inDeadlock = false;
  for (const rawLine of String(text || '').split(/\r?\n/)) {
    const line = rawLine.replace(/\s+$/, '');
    if (/deadlock/i.test(line) && /found/i.test(line)) { inDeadlock = true; current = null; continue; }
    if (inDeadlock) {
      const named = /^"(.+?)"(?: #\d+)?:\s*$/.exec(line);
      if (named) { deadlocked.add(named[1]); continue; }
      if (line === '' || /^\s/.test(line) || /^=+$/.test(line) || /^(Java stack information|Found \d+ deadlock)/i.test(line)) continue;
      inDeadlock = false;
    }
    const header = /^"(.+?)"(.*)$/.exec(line);
    if (header) {
      current = { name: header[1], header: line, state: stateOf(header[2]), frames: [], lines: [line] };
      threads.push(current);
      continue;
    }
    if (!current) continue;
    if (line === '') { current = null; continue; }
    current.lines.push(line);
    const state = /java\.lang\.Thread\.State:\s*(\w+)/.exec(line);
    if (state) { current.state = state[1]; continue; }
    const trimmed = line.trim();
    if (trimmed.startsWith('at ') || trimmed.startsWith('- ')) current.frames.push(trimmed);
  }
  for (const thread of threads) {
    thread.deadlocked = deadlocked.has(thread.name);
  }
  return { threads, deadlocked };
}

function stateOf(rest) {
  const m = /\b(RUNNABLE|BLOCKED|WAITING|TIMED_WAITING|NEW|TERMINATED)\b/.exec(rest || '');
  return m ? m[1] : 'UNKNOWN';
}

/** Groups of threads with the same state and the same frames (lock addresses ignored); deadlocks first, then by size. */
export function groupThreads(threads) {
  const groups = new Map();
  for (const thread of threads) {
    const frames = thread.frames.map((f) => f.replace(/<0x[0-9a-f]+>/gi, '<…>'));
    const key = thread.state + '\n' + frames.join('\n');
    let group = groups.get(key);
    if (!group) {
      group = { state: thread.state, frames: thread.frames, threads: [], deadlocked: false };
      groups.set(key, group);
    }
    group.threads.push(thread);
    group.deadlocked = group.deadlocked || thread.deadlocked;
  }
  return [...groups.values()].sort((a, b) =>
    (b.deadlocked - a.deadlocked) || (b.threads.length - a.threads.length) || a.threads[0].name.localeCompare(b.threads[0].name));
}
