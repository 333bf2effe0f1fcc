// Audit log (admins): who did what, newest first, a page at a time (the API's ?limit and ?before), filtered in place.
import * as api from '../api.js';
import { h, clear, field } from '../dom.js';
import * as fmt from '../format.js';

const PAGE = 50;

export async function render(main, session) {
  main.append(h('h1', {}, 'Audit log'));
  if (session.me.role !== 'admin') {
    main.append(h('p', { class: 'error-text', role: 'alert' }, 'The audit log needs the admin role; you are signed in as ' + session.me.role + '.'));
    return null;
  }
  const filter = h('input', { type: 'search', id: 'audit-filter', placeholder: 'Actor, action, target, outcome or address' });
  const status = h('p', { class: 'muted', id: 'audit-status', 'aria-live': 'polite' });
  const newer = h('button', { type: 'button', class: 'button secondary', disabled: true }, 'Newer');
  const older = h('button', { type: 'button', class: 'button secondary', disabled: true }, 'Older');
  const body = h('tbody');
  const table = h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'audit' },
    h('thead', {}, h('tr', {}, ['Time', 'Actor', 'Action', 'Target', 'Outcome', 'Source address'].map((c) => h('th', { scope: 'col' }, c)))),
    body));
  main.append(h('div', { class: 'toolbar' }, field('Filter', filter), newer, older), status, table);

  // pages already seen: the 'before' that fetched each one (undefined: the newest)
  const pages = [];
  let events = [];
  let next = null;

  const draw = () => {
    const q = filter.value.trim().toLowerCase();
    const shown = events.filter((e) => !q || [e.actor, e.action, e.target, e.outcome, e.sourceAddress]
      .some((v) => v && String(v).toLowerCase().includes(q)));
    clear(body).append(...shown.map((e) => h('tr', { dataset: { id: e.id } },
      h('td', { 'data-label': 'Time', class: 'nowrap' }, h('time', { datetime: e.time }, fmt.dateTime(e.time))),
      h('td', { 'data-label': 'Actor' }, e.actor || '–'),
      h('td', { 'data-label': 'Action' }, h('code', {}, e.action || '–')),
      h('td', { 'data-label': 'Target' }, e.target || '–'),
      h('td', { 'data-label': 'Outcome' }, e.outcome || '–'),
      h('td', { 'data-label': 'Source address', class: 'mono' }, e.sourceAddress || '–'))));
    const first = events.length ? fmt.dateTime(events[events.length - 1].time) : null;
    const last = events.length ? fmt.dateTime(events[0].time) : null;
    status.textContent = events.length === 0 ? 'No events.'
      : `Page ${pages.length}: ${shown.length} of ${events.length} events${q ? ' match the filter' : ''}, ${first} to ${last}.`;
  };

  async function load(before) {
    older.disabled = true;
    newer.disabled = true;
    status.textContent = 'Loading…';
    try {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (before) query.set('before', String(before));
      const answer = await api.json('/apiops/audit?' + query);
      events = api.listOf(answer, 'events');
      next = answer && typeof answer.next === 'number' ? answer.next : null;
      draw();
    } catch (err) {
      clear(body);
      status.textContent = api.explain(err);
    }
    older.disabled = next === null;
    newer.disabled = pages.length <= 1;
  }

  older.addEventListener('click', () => { pages.push(next); load(next); });
  newer.addEventListener('click', () => { pages.pop(); load(pages[pages.length - 1]); });
  filter.addEventListener('input', draw);
  pages.push(undefined);
  await load(undefined);
  return null;
}
