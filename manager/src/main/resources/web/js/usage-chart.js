// A dependency-free SVG bar chart of usage per minute (requests, errors stacked on top), drawn from the JSON of a
// usage answer ({from, to, totals, minutes: [{minute, requests, errors, ...}]}). Minutes without a row are zero.
// Server text only ever goes in as text nodes; colours are SVG attributes (no inline style, for the CSP).
const NS = 'http://www.w3.org/2000/svg';

function node(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function hhmm(ms) {
  return new Date(ms).toISOString().substring(11, 16);
}

export function usageSummary(totals) {
  return `${totals.requests} requests, ${totals.errors} errors (${totals.clientErrors} 4xx, ${totals.serverErrors} 5xx),`
    + ` latency avg ${totals.latencyMsAvg} ms, max ${totals.latencyMsMax} ms`;
}

export function usageChart(usage, { title = 'Requests per minute' } = {}) {
  const from = Date.parse(usage.from);
  const to = Date.parse(usage.to);
  const count = Math.max(1, Math.round((to - from) / 60_000));
  const byMinute = new Map(usage.minutes.map((m) => [Date.parse(m.minute), m]));
  const W = 600, H = 170, left = 44, right = 8, top = 10, bottom = 22;
  const plotH = H - top - bottom;
  const max = Math.max(1, ...usage.minutes.map((m) => m.requests));
  const step = (W - left - right) / count;
  const words = `${title}, ${hhmm(from)} to ${hhmm(to)} UTC: ${usageSummary(usage.totals)}`;
  const chart = node('svg', { class: 'usage-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': words,
    'data-requests': usage.totals.requests, 'data-errors': usage.totals.errors, preserveAspectRatio: 'none' });
  chart.append(node('title', {}, words));
  chart.append(node('line', { x1: left, y1: top, x2: left, y2: top + plotH, stroke: '#8a93a6' }));
  chart.append(node('line', { x1: left, y1: top + plotH, x2: W - right, y2: top + plotH, stroke: '#8a93a6' }));
  chart.append(node('text', { x: left - 4, y: top + 8, 'text-anchor': 'end', 'font-size': 10, fill: '#4a5163' },
    String(max)));
  chart.append(node('text', { x: left - 4, y: top + plotH, 'text-anchor': 'end', 'font-size': 10, fill: '#4a5163' },
    '0'));
  chart.append(node('text', { x: left, y: H - 6, 'font-size': 10, fill: '#4a5163' }, hhmm(from) + ' UTC'));
  chart.append(node('text', { x: W - right, y: H - 6, 'text-anchor': 'end', 'font-size': 10, fill: '#4a5163' },
    hhmm(to) + ' UTC'));
  for (let i = 0; i < count; i++) {
    const at = from + i * 60_000;
    const m = byMinute.get(at);
    if (!m || m.requests === 0) continue;
    const x = left + i * step + step * 0.1;
    const width = Math.max(1, step * 0.8);
    const okH = ((m.requests - m.errors) / max) * plotH;
    const errH = (m.errors / max) * plotH;
    const bar = node('g', { class: 'usage-minute', 'data-minute': m.minute, 'data-requests': m.requests,
      'data-errors': m.errors });
    bar.append(node('title', {}, `${hhmm(at)} UTC: ${m.requests} requests, ${m.errors} errors, latency avg `
      + `${m.latencyMsAvg} ms`));
    if (okH > 0) bar.append(node('rect', { x, y: top + plotH - okH, width, height: okH, fill: '#3b6fd8' }));
    if (errH > 0) bar.append(node('rect', { x, y: top + plotH - okH - errH, width, height: errH, fill: '#d0453a' }));
    chart.append(bar);
  }
  return chart;
}
