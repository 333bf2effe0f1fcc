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

export function time(date) {
  return date.toLocaleTimeString('en-GB', { hour12: false });
}

export function dateTime(iso) {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString('en-GB', { hour12: false });
}
