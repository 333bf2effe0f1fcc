// Plans on the Developer portal screen (admins): named request limits for subscriptions, for one API or for any;
// list, create, edit, delete. Giving a subscription a plan is the Plan column of the subscriptions table, which
// asks plansFor() which plans fit a subscription's API.
import * as api from '../api.js';
import { h, clear, field, notify } from '../dom.js';
import * as gw from '../gateway.js';

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The Plans card; onChange runs after every change (the subscriptions table offers the plans). */
export function plansSection(onChange) {
  let plans = [];
  let editing = null;
  const list = h('div', { id: 'portal-plans' });
  const name = h('input', { id: 'plan-name', name: 'plan-name', required: true, maxlength: 64, autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
  const requests = h('input', { id: 'plan-requests', name: 'plan-requests', type: 'number', min: 1, max: 1000000, step: 1, required: true });
  const per = h('select', { id: 'plan-per', name: 'plan-per' },
    h('option', { value: 'second' }, 'second'), h('option', { value: 'minute', selected: true }, 'minute'));
  const proxy = h('select', { id: 'plan-proxy', name: 'plan-proxy' });
  const heading = h('h3', { id: 'plan-form-h' }, 'New plan');
  const error = h('p', { class: 'error-text', role: 'alert', id: 'plan-error', hidden: true });
  const cancel = h('button', { type: 'button', class: 'button secondary', hidden: true, onclick: () => edit(null) }, 'Cancel');
  const form = h('form', { class: 'form-grid', id: 'plan-form', novalidate: true, 'aria-labelledby': 'plan-form-h' }, heading,
    field('Plan name', name, 'Lower-case letters, digits and -; a plan keeps its name.'), field('Requests', requests),
    field('Per', per), field('For API', proxy), error,
    h('div', {}, h('button', { type: 'submit', class: 'button' }, 'Save plan'), ' ', cancel));
  const element = h('section', { class: 'card', 'aria-labelledby': 'plans-h' }, h('h2', { id: 'plans-h' }, 'Plans'),
    h('p', { class: 'muted small' }, 'A plan limits the requests of a subscription, counted per application and API on every Worker together; over it the Worker answers 429. A subscription without a plan is unlimited.'),
    list, form);

  function edit(plan) {
    editing = plan;
    error.hidden = true;
    name.value = plan ? plan.name : '';
    name.disabled = !!plan;
    requests.value = plan ? String(plan.requests) : '';
    per.value = plan ? plan.per : 'minute';
    proxy.value = plan && plan.proxy ? plan.proxy : '';
    heading.textContent = plan ? 'Edit plan ' + plan.name : 'New plan';
    cancel.hidden = !plan;
    (plan ? requests : name).focus();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    const planName = editing ? editing.name : name.value.trim();
    const count = Number(requests.value);
    const problem = !NAME.test(planName) ? 'A plan name is 1 to 64 lower-case letters, digits and -, starting with a letter or digit.'
      : !Number.isInteger(count) || count < 1 || count > 1000000 ? 'Requests must be a whole number from 1 to 1000000.' : null;
    if (problem) { error.textContent = problem; error.hidden = false; return; }
    try {
      await api.send('PUT', '/apiops/plans/' + api.enc(planName), { requests: count, per: per.value, proxy: proxy.value || null });
      notify(`Plan ${planName}: ${count} per ${per.value}${proxy.value ? ' for ' + proxy.value : ''}.`, 'success');
      edit(null);
      await load();
      await onChange();
    } catch (err) {
      error.textContent = api.explain(err);
      error.hidden = false;
    }
  });

  async function remove(plan) {
    if (!confirm(`Delete the plan ${plan.name}?`)) return;
    try {
      await api.json('/apiops/plans/' + api.enc(plan.name), { method: 'DELETE' });
      notify(`Plan ${plan.name} deleted.`, 'success');
      if (editing && editing.name === plan.name) edit(null);
      await load();
      await onChange();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  }

  function row(plan) {
    const button = (text, onclick, cls) => h('button', { type: 'button', class: 'button small' + (cls ? ' ' + cls : ''),
      'aria-label': `${text} plan ${plan.name}`, onclick }, text);
    return h('tr', { dataset: { plan: plan.name } },
      h('th', { scope: 'row', 'data-label': 'Plan' }, plan.name),
      h('td', { 'data-label': 'Limit', class: 'num' }, `${plan.requests} per ${plan.per}`),
      h('td', { 'data-label': 'For API' }, plan.proxy || h('span', { class: 'muted' }, 'any')),
      h('td', { class: 'actions' }, button('Edit', () => edit(plan)), button('Delete', () => remove(plan), 'danger')));
  }

  async function load() {
    try {
      const [answer, proxies] = await Promise.all([api.json('/apiops/plans'),
        api.json('/apiops/proxies').then((b) => api.listOf(b, 'proxies'))]);
      plans = api.listOf(answer, 'plans');
      const chosen = proxy.value;
      clear(proxy).append(h('option', { value: '' }, 'any API'), ...proxies.map((p) => h('option', { value: p.name }, p.name)));
      proxy.value = proxies.some((p) => p.name === chosen) ? chosen : '';
      clear(list).append(gw.table('plans', ['Plan', 'Limit', 'For API', 'Actions'], plans.map(row), 'No plans yet: every subscription is unlimited.'));
    } catch (err) {
      gw.showError(list, err);
    }
  }

  /** The plans a subscription of `proxyName` may have. */
  function plansFor(proxyName) {
    return plans.filter((p) => !p.proxy || p.proxy === proxyName);
  }

  return { element, load, plansFor };
}

/** The Plan cell of a subscription: a select of the plans that fit it; a change gives the subscription that plan. */
export function planSelect(subscription, label, plansFor, act, reload) {
  const select = h('select', { class: 'plan', 'aria-label': 'Plan of ' + label, disabled: subscription.status === 'revoked' },
    h('option', { value: '' }, 'none (unlimited)'),
    plansFor(subscription.proxy).map((p) => h('option', { value: p.name, selected: p.name === subscription.plan }, `${p.name} (${p.requests}/${p.per})`)));
  if (subscription.plan && !plansFor(subscription.proxy).some((p) => p.name === subscription.plan)) {
    select.append(h('option', { value: subscription.plan, selected: true }, subscription.plan));
  }
  select.addEventListener('change', () => act(`Plan of ${label}: ${select.value || 'none'}.`,
    () => api.send('PUT', `/apiops/subscriptions/${api.enc(subscription.id)}/plan`, { plan: select.value || null }), reload));
  return select;
}
