// The usage of one application in its card: a chart of the last hour per minute and the totals in words.
import { api } from './api.js';
import { usageChart, usageSummary } from './usage-chart.js';

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function usageSection(appId) {
  const section = el('section', { class: 'usage', 'data-usage-of': appId });
  const body = el('div');
  const refresh = el('button', { type: 'button', class: 'usage-refresh' }, 'Refresh usage');
  const load = async () => {
    const answer = await api('GET', '/applications/' + encodeURIComponent(appId) + '/usage');
    if (answer.status !== 200) {
      body.replaceChildren(el('p', { class: 'usage-summary' }, 'Usage is not available (HTTP ' + answer.status + ').'));
      return;
    }
    body.replaceChildren(usageChart(answer.json, { title: 'Requests per minute, last hour' }),
      el('p', { class: 'usage-summary' }, usageSummary(answer.json.totals)));
  };
  refresh.addEventListener('click', load);
  section.append(el('h3', {}, 'Usage (last hour)'), body, refresh);
  load();
  return section;
}
