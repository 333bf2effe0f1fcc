// API usage (admins): requests, errors and latency per minute of one API or of all, as Workers counted them, with
// the applications (or APIs) that made them. A dependency-free SVG chart (../usage-chart.js).
import * as api from '../api.js';
import { h, clear, field } from '../dom.js';
import { usageChart, usageSummary } from '../usage-chart.js';

const PERIODS = { '60': 'Last hour', '360': 'Last 6 hours', '1440': 'Last 24 hours' };

export async function render(main, session) {
  main.append(h('h1', {}, 'API usage'));
  if (session.me.role !== 'admin') {
    main.append(h('p', { class: 'error-text', role: 'alert' }, 'API usage needs the admin role; you are signed in as ' + session.me.role + '.'));
    return null;
  }
  main.append(h('p', { class: 'intro' }, 'Requests with an API key, counted per application and minute by every Worker and kept 30 days. '
    + 'Errors are 4xx and 5xx answers, refusals of a plan included.'));
  const proxy = h('select', { id: 'usage-proxy' }, h('option', { value: '' }, 'All APIs'));
  const period = h('select', { id: 'usage-period' }, Object.entries(PERIODS).map(([v, label]) => h('option', { value: v }, label)));
  const refresh = h('button', { type: 'button', class: 'button secondary' }, 'Refresh');
  const status = h('p', { class: 'muted', id: 'usage-status', 'aria-live': 'polite' });
  const chartBox = h('div', { id: 'usage-chart' });
  const summary = h('p', { id: 'usage-summary' });
  const body = h('tbody');
  const head = h('tr');
  const table = h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'usage-breakdown' }, h('thead', {}, head), body));
  main.append(h('div', { class: 'toolbar' }, field('API', proxy), field('Period', period), refresh), status, chartBox, summary, table);

  try {
    for (const p of api.listOf(await api.json('/apiops/proxies'), 'proxies')) proxy.append(h('option', { value: p.name }, p.name));
  } catch (err) {
    status.textContent = api.explain(err);
  }

  const usageLoad = api.latestOnly();
  async function load() {
    const current = usageLoad();
    const to = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
    const from = new Date(to.getTime() - Number(period.value) * 60_000);
    const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString() });
    if (proxy.value) query.set('proxy', proxy.value);
    status.textContent = 'Loading…';
    try {
      const usage = await api.json('/apiops/usage?' + query);
      if (!current()) return; // another API or period was chosen meanwhile
      clear(chartBox).append(usageChart(usage, { title: (proxy.value || 'All APIs') + ', requests per minute' }));
      summary.textContent = usageSummary(usage.totals);
      const rows = usage.applications || usage.proxies || [];
      const key = usage.applications ? 'application' : 'proxy';
      clear(head).append(...[key === 'application' ? 'Application' : 'API', 'Requests', 'Errors', '4xx', '5xx', 'Latency avg (ms)', 'Latency max (ms)']
        .map((c) => h('th', { scope: 'col' }, c)));
      clear(body).append(...rows.map((r) => h('tr', { dataset: { row: r[key] } },
        h('td', {}, key === 'application' && r.name ? [r.name, ' ', h('span', { class: 'mono muted' }, r[key])] : r[key]),
        h('td', {}, r.requests), h('td', {}, r.errors), h('td', {}, r.clientErrors),
        h('td', {}, r.serverErrors), h('td', {}, r.latencyMsAvg), h('td', {}, r.latencyMsMax))));
      status.textContent = rows.length ? '' : 'No requests with an API key in this period.';
    } catch (err) {
      status.textContent = api.explain(err);
    }
  }
  proxy.addEventListener('change', load);
  period.addEventListener('change', load);
  refresh.addEventListener('click', load);
  await load();
  return null;
}
