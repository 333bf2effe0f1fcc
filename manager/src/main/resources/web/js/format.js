// Numbers for people: bytes, durations, percentages, times.

export function bytes(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (value < 0) return 'unlimited';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let n = value;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) { n /= 1024; unit++; }
  return (unit === 0 ? n.toFixed(0) : n.toFixed(n < 10 ? 1 : 0)) + ' ' + units[unit];
}

export function duration(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '–';
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + ' s';
  const m = Math.floor(s / 60);
  if (m < 60) return m + ' min ' + (s % 60) + ' s';
  const hours = Math.floor(m / 60);
  if (hours < 48) return hours + ' h ' + (m % 60) + ' min';
  return Math.floor(hours / 24) + ' d ' + (hours % 24) + ' h';
}

export function number(value) {
  if (value === null || value === undefined) return '–';
  return typeof value === 'number' ? value.toLocaleString('en-US') : String(value);
}

export function percent(used, max) {
  if (typeof used !== 'number' || typeof max !== 'number' || max <= 0) return null;
  return Math.min(100, (used / max) * 100);
}

const pad = (n) => String(n).padStart(2, '0');

export function time(date) {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The one date format of every screen: 2026-11-25 18:21:27 in the browser's time zone (ISO text or epoch ms). */
export function dateTime(value) {
  if (value === null || value === undefined || value === '') return 'never';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time(d)}`;
}

/** A fraction from 0 to 1 as a percentage: 0.008 is "0.8 %". */
export function fraction(value) {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) return '–';
  const p = value * 100;
  return (p < 10 ? p.toFixed(1) : p.toFixed(0)) + ' %';
}

/** A count of milliseconds: "840 ms" below ten seconds, else a duration. */
export function millis(ms) {
  if (typeof ms !== 'number' || Number.isNaN(ms) || ms < 0) return '–';
  return ms < 10_000 ? Math.round(ms) + ' ms' : duration(ms);
}
