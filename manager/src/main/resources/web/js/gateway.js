// Shared pieces of the gateway screens (API proxies, Deploy, Deployments, Gateway status): the environment picker,
// state badges, the per-pod result of a deploy, and a YAML writer for showing a definition.
import * as api from './api.js';
import { h, clear, field } from './dom.js';
import * as fmt from './format.js';

/** Whether this account may change proxies and deploy (the API refuses the others anyway). */
export function canWrite(session) {
  return session.me && (session.me.role === 'admin' || session.me.role === 'operator');
}

/** A note for read-only accounts, or null. */
export function readOnlyNote(session) {
  return canWrite(session) ? null
    : h('p', { class: 'muted', id: 'read-only-note' }, `You are signed in as ${session.me.role}: this screen is read-only. Changes need the operator or admin role.`);
}

/** An environment <select> filled from the API; remembers the choice for the other gateway screens. */
export async function environmentPicker(onChange) {
  const select = h('select', { id: 'gw-environment', name: 'environment' });
  const environments = api.listOf(await api.json('/apiops/environments'), 'environments');
  const remembered = sessionStorage.getItem('pylon.gateway-environment');
  for (const e of environments) select.append(h('option', { value: e.name, selected: e.name === remembered }, e.name));
  select.addEventListener('change', () => {
    sessionStorage.setItem('pylon.gateway-environment', select.value);
    onChange(select.value);
  });
  return { element: field('Environment', select), select, empty: environments.length === 0 };
}

const STATE_CLASS = { 'in-sync': 'up', applied: 'up', behind: 'warn', stale: 'warn', rejected: 'down', failed: 'down' };
const STATE_TEXT = { 'in-sync': 'in sync', applied: 'applied', behind: 'behind', stale: 'stale', rejected: 'rejected', failed: 'failed' };

export function stateBadge(state) {
  return h('span', { class: 'badge ' + (STATE_CLASS[state] || 'neutral'), dataset: { state } }, STATE_TEXT[state] || state);
}

export function shortHash(hash) {
  return hash ? h('code', { title: hash }, hash.slice(0, 12)) : '–';
}

/** A deploy's or rollback's answer: a summary line and a row per Worker pod (the detailList). */
export function deploymentResult(answer, environment) {
  const result = answer.deploymentResult || {};
  const pods = result.detailList || [];
  const ok = result.success === true;
  const summary = h('p', { class: ok ? 'info-text' : 'error-text', role: 'status', id: 'deploy-summary' },
    `Version ${answer.version} of ${environment}: ${ok ? 'applied by every Worker pod' : 'NOT applied by every Worker pod'} in ${fmt.millis(result.responseTime)}.`,
    result.message ? ' ' + result.message : null);
  const rows = pods.map((p) => {
    const state = p.success ? 'applied' : (p.error && p.error.startsWith('Rejected') ? 'rejected' : 'failed');
    return h('tr', { dataset: { pod: p.podName, state } },
      h('th', { scope: 'row', 'data-label': 'Pod', class: 'pod-name' }, p.podName),
      h('td', { 'data-label': 'Address', class: 'mono' }, p.podIp || '–'),
      h('td', { 'data-label': 'Result' }, stateBadge(state)),
      h('td', { 'data-label': 'Applied version', class: 'num' }, p.appliedVersion ?? '–'),
      h('td', { 'data-label': 'Time', class: 'num' }, fmt.millis(p.responseTime)),
      h('td', { 'data-label': 'Error' }, p.error || ''));
  });
  return h('div', { class: 'card deploy-result', id: 'deploy-result' }, summary,
    pods.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'deploy-pods' },
      h('thead', {}, h('tr', {}, ['Pod', 'Address', 'Result', 'Applied version', 'Time', 'Error'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows))) : null);
}

/** The table of a list, or a line saying there is nothing. */
export function table(id, headers, rows, empty) {
  if (!rows.length) return h('p', { class: 'muted', id: id + '-empty' }, empty);
  return h('div', { class: 'table-scroll' }, h('table', { class: 'data', id },
    h('thead', {}, h('tr', {}, headers.map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, rows)));
}

export function showError(container, err) {
  clear(container).append(h('p', { class: 'error-text', role: 'alert' }, api.explain(err)));
}
