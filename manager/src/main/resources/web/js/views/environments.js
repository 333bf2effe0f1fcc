// Environments: everyone sees them; admins create, edit, delete them and rotate their ID.
import * as api from '../api.js';
import { h, clear, field, notify, openDialog } from '../dom.js';

const MODULES = ['manager', 'worker', 'cache', 'integration', 'portal'];

export async function render(main, session) {
  const admin = session.me.role === 'admin';
  main.append(h('h1', {}, 'Environments'));
  const list = h('div');
  if (admin) {
    main.append(h('p', {}, h('button', { type: 'button', class: 'button', onclick: () => edit(null) }, 'New environment')));
  }
  main.append(list);

  async function reload() {
    try {
      const environments = api.listOf(await api.json('/apiops/environments'), 'environments');
      clear(list).append(environments.length ? h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'environments' },
        h('thead', {}, h('tr', {}, ['Name', 'Type', 'Description', 'Module URLs', admin ? 'Actions' : null].filter(Boolean).map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, environments.map(row)))) : h('p', { class: 'muted' }, 'There is no environment yet.'));
    } catch (err) {
      clear(list).append(h('p', { class: 'error-text' }, api.explain(err)));
    }
  }

  function row(e) {
    const path = '/apiops/environments/' + api.enc(e.name);
    const btn = (label, onclick, cls = 'small') => h('button', { type: 'button', class: 'button ' + cls, 'aria-label': `${label} ${e.name}`, onclick }, label);
    return h('tr', { dataset: { environment: e.name } },
      h('th', { scope: 'row', 'data-label': 'Name' }, e.name),
      h('td', { 'data-label': 'Type' }, e.type || '–'),
      h('td', { 'data-label': 'Description' }, e.description || ''),
      h('td', { 'data-label': 'Module URLs' }, h('ul', { class: 'plain small' },
        MODULES.filter((m) => e.urls && e.urls[m]).map((m) => h('li', {}, `${m}: ${e.urls[m]}`)))),
      admin ? h('td', { class: 'actions' },
        btn('Edit', () => edit(e)),
        btn('Rotate ID', async () => {
          if (!confirm(`Rotate the environment ID of ${e.name}? Its pods must get the new ID before diagnostics work again.`)) return;
          try {
            const result = await api.send('POST', path + '/rotate-id', {});
            showId(e.name, result && result.environmentId);
          } catch (err) { notify(api.explain(err), 'error'); }
        }),
        btn('Delete', async () => {
          if (!confirm(`Delete the environment ${e.name}?`)) return;
          try { await api.json(path, { method: 'DELETE' }); notify(`Environment ${e.name} deleted.`, 'success'); reload(); } catch (err) { notify(api.explain(err), 'error'); }
        }, 'small danger')) : null);
  }

  function showId(name, id) {
    const { body } = openDialog('New environment ID of ' + name);
    body.append(h('p', {}, 'Give this ID to the pods of the environment (their PYLON_ENVIRONMENT_ID secret).'),
      id ? h('input', { readonly: true, value: id, class: 'mono', size: 30, 'aria-label': 'Environment ID' }) : h('p', {}, 'The ID was rotated.'));
  }

  function edit(existing) {
    const { body, close } = openDialog(existing ? 'Edit ' + existing.name : 'New environment', { wide: true });
    const name = h('input', { name: 'env-name', required: true, value: existing ? existing.name : '', readonly: !!existing });
    const type = h('input', { name: 'env-type', value: existing ? existing.type || '' : '' });
    const description = h('input', { name: 'env-description', value: existing ? existing.description || '' : '' });
    const urls = Object.fromEntries(MODULES.map((m) => [m, h('input', { name: 'url-' + m, type: 'url', placeholder: 'http://…',
      required: m === 'worker' || m === 'cache', value: existing && existing.urls ? existing.urls[m] || '' : '' })]));
    const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
    const form = h('form', { class: 'form-grid', novalidate: true },
      field('Name', name), field('Type', type, 'e.g. development, production'), field('Description', description),
      MODULES.map((m) => field(m[0].toUpperCase() + m.slice(1) + ' URL' + (m === 'worker' || m === 'cache' ? ' (required)' : ''), urls[m])),
      error, h('div', {}, h('button', { type: 'submit', class: 'button' }, existing ? 'Save' : 'Create')));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const body2 = { name: name.value.trim(), type: type.value.trim() || null, description: description.value.trim() || null,
        urls: Object.fromEntries(MODULES.filter((m) => urls[m].value.trim()).map((m) => [m, urls[m].value.trim()])) };
      try {
        if (existing) await api.send('PUT', '/apiops/environments/' + api.enc(existing.name), body2);
        else await api.send('POST', '/apiops/environments', body2);
        close();
        notify(`Environment ${body2.name} saved.`, 'success');
        reload();
      } catch (err) {
        error.textContent = api.explain(err);
        error.hidden = false;
      }
    });
    body.append(form);
    name.focus();
  }

  reload();
  return null;
}
