// A tiny inline SVG line chart of the last samples, with its meaning in words for screen readers.
import { svg } from './dom.js';

export function sparkline(values, { label, unit = '', max = null, width = 84, height = 22 } = {}) {
  const points = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  const last = points.length ? points[points.length - 1] : null;
  const lo = points.length ? Math.min(...points) : 0;
  const hi = max ?? (points.length ? Math.max(...points) : 1);
  const top = hi === lo ? hi + 1 : hi;
  const bottom = max !== null ? 0 : lo;
  const span = top - bottom || 1;
  const step = points.length > 1 ? (width - 2) / (points.length - 1) : 0;
  const coords = points.map((v, i) => `${(1 + i * step).toFixed(1)},${(height - 2 - ((v - bottom) / span) * (height - 4)).toFixed(1)}`);
  const round = (v) => (Math.round(v * 10) / 10) + unit;
  const words = last === null ? `${label}: no samples yet`
    : `${label}: now ${round(last)}, lowest ${round(lo)}, highest ${round(Math.max(...points))} over ${points.length} samples`;
  const chart = svg('svg', { class: 'spark', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': words },
    svg('title', {}, words));
  if (coords.length === 1) chart.append(svg('circle', { cx: 1, cy: coords[0].split(',')[1], r: 1.5 }));
  if (coords.length > 1) chart.append(svg('polyline', { points: coords.join(' '), fill: 'none' }));
  return chart;
}
