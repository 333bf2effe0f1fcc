// Developer portal (admins and operators): which proxies are published to the Portal and whether their subscriptions
// need approval; for admins, subscriptions (approve, suspend, revoke, their plan), plans (portal-plans.js) and
// developers (approve, disable, enable).
import * as api from '../api.js';
import { h, put, clear, notify } from '../dom.js';
import * as gw from '../gateway.js';
import { plansSection, planSelect } from './portal-plans.js';

const SUBSCRIPTION_ACTIONS = { pending: ['approve', 'revoke'], active: ['suspend', 'revoke'], suspended: ['approve', 'revoke'], revoked: [] };
const ACTION_TEXT = { approve: 'Approve', suspend: 'Suspend', revoke: 'Revoke', disable: 'Disable' };
const BADGE = { published: 'up', active: 'up', pending: 'warn', suspended: 'warn', revoked: 'down', disabled: 'down' };

function badge(status) {
  return h('span', { class: 'badge ' + (BADGE[status] || 'neutral'), dataset: { status } }, status);
}

export async function render(main, session) {
  const admin = session.me.role === 'admin';
  const writer = gw.canWrite(session);
  put(main, h('h1', {}, 'Developer portal'),
    h('p', { class: 'intro' }, 'What the Portal offers developers and who may call it: published APIs, subscriptions waiting for approval, developer accounts. Every change reaches the Worker pods within seconds.'),
    gw.readOnlyNote(session),
    h('p', {}, h('button', { type: 'button', class: 'button secondary', id: 'portal-refresh', onclick: () => loadAll() }, 'Refresh')));
  const publications = h('div', { id: 'portal-publications' });
  const subscriptions = h('div', { id: 'portal-subscriptions' });
  const developers = h('div', { id: 'portal-developers' });
  const subscriptionFilter = h('select', { id: 'subscription-status', 'aria-label': 'Show subscriptions' },
    [['pending', 'Waiting for approval'], ['', 'All'], ['active', 'Active'], ['suspended', 'Suspended'], ['revoked', 'Revoked']]
      .map(([value, text]) => h('option', { value }, text)));
  const developerFilter = h('select', { id: 'developer-status', 'aria-label': 'Show developers' },
    [['', 'All'], ['pending', 'Waiting for approval'], ['active', 'Active'], ['disabled', 'Disabled']]
      .map(([value, text]) => h('option', { value }, text)));
  subscriptionFilter.addEventListener('change', () => loadSubscriptions());
  developerFilter.addEventListener('change', () => loadDevelopers());
  main.append(h('section', { class: 'card', 'aria-labelledby': 'pub-h' }, h('h2', { id: 'pub-h' }, 'Published APIs'),
    h('p', { class: 'muted small' }, 'A published proxy is listed on the Portal where it is deployed; with approval by an admin, new subscriptions wait as pending.'),
    publications));
  const plans = admin ? plansSection(() => loadSubscriptions()) : null;
  if (admin) {
    main.append(
      h('section', { class: 'card', 'aria-labelledby': 'sub-h' }, h('h2', { id: 'sub-h' }, 'Subscriptions'),
        h('div', { class: 'toolbar' }, subscriptionFilter), subscriptions),
      plans.element,
      h('section', { class: 'card', 'aria-labelledby': 'dev-h' }, h('h2', { id: 'dev-h' }, 'Developers'),
        h('div', { class: 'toolbar' }, developerFilter), developers));
  } else {
    main.append(h('p', { class: 'muted', id: 'portal-admin-note' }, 'Subscriptions, plans and developer accounts are managed by admins.'));
  }

  const publicationsLoad = api.latestOnly();
  const subscriptionsLoad = api.latestOnly();
  const developersLoad = api.latestOnly();

  const act = async (done, call, reload) => {
    try {
      await call();
      notify(done, 'success');
    } catch (err) {
      notify(api.explain(err), 'error');
    }
    await reload();
  };

  async function loadPublications() {
    const current = publicationsLoad();
    try {
      const [proxies, published] = await Promise.all([
        api.json('/apiops/proxies').then((b) => api.listOf(b, 'proxies')),
        api.json('/apiops/publications').then((b) => api.listOf(b, 'publications'))]);
      if (!current()) return;
      const byName = new Map(published.map((p) => [p.proxy, p]));
      clear(publications).append(gw.table('publications', ['Proxy', 'Path', 'On the Portal', 'Subscriptions', 'Actions'],
        proxies.map((p) => publicationRow(p, byName.get(p.name))), 'No proxies yet: create one on the API proxies screen.'));
    } catch (err) {
      gw.showError(publications, err);
    }
  }

  function publicationRow(proxy, publication) {
    const path = '/apiops/publications/' + api.enc(proxy.name);
    const approval = h('select', { 'aria-label': 'Approval of subscriptions to ' + proxy.name, disabled: !writer, class: 'approval' },
      h('option', { value: 'auto', selected: publication && publication.autoApprove }, 'automatic'),
      h('option', { value: 'admin', selected: !publication || !publication.autoApprove }, 'by an admin'));
    const publish = () => act(`${proxy.name} is published (${approval.value === 'auto' ? 'automatic approval' : 'approval by an admin'}).`,
      () => api.send('PUT', path, { autoApprove: approval.value === 'auto' }), loadPublications);
    if (publication) approval.addEventListener('change', publish);
    const definition = proxy.definition || {};
    return h('tr', { dataset: { proxy: proxy.name, published: publication ? 'true' : 'false' } },
      h('th', { scope: 'row', 'data-label': 'Proxy' }, proxy.name),
      h('td', { 'data-label': 'Path', class: 'mono' }, proxy.pathPrefix || definition.pathPrefix || ''),
      h('td', { 'data-label': 'On the Portal' }, publication ? badge('published') : h('span', { class: 'muted' }, 'not published')),
      h('td', { 'data-label': 'Subscriptions' }, approval),
      h('td', { class: 'actions' }, !writer ? null : publication
        ? h('button', { type: 'button', class: 'button small danger', 'aria-label': 'Unpublish ' + proxy.name,
          onclick: () => act(`${proxy.name} is no longer on the Portal.`, () => api.json(path, { method: 'DELETE' }), loadPublications) }, 'Unpublish')
        : h('button', { type: 'button', class: 'button small', 'aria-label': 'Publish ' + proxy.name, onclick: publish }, 'Publish')));
  }

  async function loadSubscriptions() {
    const status = subscriptionFilter.value;
    const current = subscriptionsLoad();
    try {
      const list = api.listOf(await api.json('/apiops/subscriptions' + (status ? '?status=' + api.enc(status) : '')), 'subscriptions');
      if (!current()) return;
      clear(subscriptions).append(gw.table('subscriptions', ['API', 'Application', 'Developer', 'Status', 'Plan', 'Since', 'Actions'],
        list.map(subscriptionRow), status === 'pending' ? 'No subscription waits for approval.' : 'No subscriptions.'));
    } catch (err) {
      gw.showError(subscriptions, err);
    }
  }

  function subscriptionRow(s) {
    const label = `${s.applicationName} (${s.developerEmail}) to ${s.proxy}`;
    return h('tr', { dataset: { subscription: s.id, proxy: s.proxy, application: s.applicationName, status: s.status, plan: s.plan || '' } },
      h('th', { scope: 'row', 'data-label': 'API' }, s.proxy),
      h('td', { 'data-label': 'Application' }, s.applicationName),
      h('td', { 'data-label': 'Developer' }, s.developerEmail),
      h('td', { 'data-label': 'Status' }, badge(s.status)),
      h('td', { 'data-label': 'Plan' }, planSelect(s, label, plans.plansFor, act, loadSubscriptions)),
      h('td', { 'data-label': 'Since', class: 'num' }, (s.updatedAt || s.createdAt || '').replace('T', ' ').replace(/\..*|Z$/, '')),
      h('td', { class: 'actions' }, SUBSCRIPTION_ACTIONS[s.status].map((action) =>
        h('button', { type: 'button', class: 'button small' + (action === 'revoke' ? ' danger' : ''), 'aria-label': `${ACTION_TEXT[action]} ${label}`,
          onclick: () => {
            if (action === 'revoke' && !confirm(`Revoke the subscription of ${label}? A revoked subscription stays revoked.`)) return;
            act(`Subscription of ${label}: ${action} done.`, () => api.send('POST', `/apiops/subscriptions/${api.enc(s.id)}/${action}`, {}), loadSubscriptions);
          } }, ACTION_TEXT[action]))));
  }

  async function loadDevelopers() {
    const status = developerFilter.value;
    const current = developersLoad();
    try {
      const list = api.listOf(await api.json('/apiops/developers' + (status ? '?status=' + api.enc(status) : '')), 'developers');
      if (!current()) return;
      clear(developers).append(gw.table('developers', ['E-mail', 'Status', 'Applications', 'Live keys', 'Signed up', 'Actions'],
        list.map(developerRow), 'No developers.'));
    } catch (err) {
      gw.showError(developers, err);
    }
  }

  function developerRow(d) {
    const button = (action, text, cls) => h('button', { type: 'button', class: 'button small' + (cls ? ' ' + cls : ''), 'aria-label': `${text} ${d.email}`,
      onclick: () => {
        if (action === 'disable' && !confirm(`Disable ${d.email}? Their sessions end and their keys stop working.`)) return;
        act(`${d.email}: ${text.toLowerCase()} done.`, () => api.send('POST', `/apiops/developers/${api.enc(d.id)}/${action}`, {}), loadDevelopers);
      } }, text);
    return h('tr', { dataset: { developer: d.email, status: d.status } },
      h('th', { scope: 'row', 'data-label': 'E-mail' }, d.email),
      h('td', { 'data-label': 'Status' }, badge(d.status), d.locked ? h('span', { class: 'badge warn' }, 'locked') : null),
      h('td', { 'data-label': 'Applications', class: 'num' }, d.applications),
      h('td', { 'data-label': 'Live keys', class: 'num' }, d.liveKeys),
      h('td', { 'data-label': 'Signed up', class: 'num' }, (d.createdAt || '').replace('T', ' ').replace(/\..*|Z$/, '')),
      h('td', { class: 'actions' },
        d.status === 'pending' ? button('approve', 'Approve') : null,
        d.status === 'disabled' ? button('approve', 'Enable') : null,
        d.status !== 'disabled' ? button('disable', 'Disable', 'danger') : null));
  }

  function loadAll() {
    // the subscriptions' Plan column offers the plans: those first
    return Promise.all([loadPublications(), admin ? plans.load().then(loadSubscriptions) : null, admin ? loadDevelopers() : null]);
  }

  await loadAll();
  return null;
}
