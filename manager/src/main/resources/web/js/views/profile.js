// My profile: who I am, and my Personal API Access Tokens (create, shown once with a copy button, list, revoke).
import * as api from '../api.js';
import { h, clear, field, notify } from '../dom.js';
import * as fmt from '../format.js';

export async function render(main, session) {
  const me = session.me;
  main.append(h('h1', {}, 'My profile'),
    h('section', { class: 'card', 'aria-labelledby': 'me-h' },
      h('h2', { id: 'me-h' }, 'Account'),
      h('dl', { class: 'inline' }, h('dt', {}, 'Username'), h('dd', {}, me.username), h('dt', {}, 'Role'), h('dd', {}, me.role))));

  const name = h('input', { name: 'token-name', required: true, maxlength: 100 });
  const expiry = h('select', { name: 'token-expiry' },
    [['30', '30 days'], ['7', '7 days'], ['90', '90 days'], ['365', '1 year'], ['never', 'Never'], ['custom', 'On a date…']]
      .map(([v, label]) => h('option', { value: v }, label)));
  const date = h('input', { type: 'date', name: 'token-date' });
  const dateField = field('Expiry date', date);
  dateField.hidden = true;
  expiry.addEventListener('change', () => { dateField.hidden = expiry.value !== 'custom'; });
  const created = h('div', { 'aria-live': 'polite' });
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const form = h('form', { class: 'card form-grid', novalidate: true, 'aria-labelledby': 'new-token-h' },
    h('h2', { id: 'new-token-h' }, 'New personal access token'),
    field('Name', name, 'What the token is for, e.g. "CI pipeline".'), field('Expires', expiry), dateField, error,
    h('div', {}, h('button', { type: 'submit', class: 'button' }, 'Create token')));
  const list = h('div', {});
  main.append(form, created, h('section', { 'aria-labelledby': 'tokens-h' }, h('h2', { id: 'tokens-h' }, 'My tokens'), list));

  async function reload() {
    try {
      const tokens = api.listOf(await api.json('/apiops/tokens'), 'tokens');
      clear(list).append(tokens.length ? tokenTable(tokens) : h('p', { class: 'muted' }, 'You have no personal access tokens.'));
    } catch (err) {
      clear(list).append(h('p', { class: 'error-text' }, api.explain(err)));
    }
  }

  function tokenTable(tokens) {
    return h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'tokens' },
      h('thead', {}, h('tr', {}, ['Name', 'Created', 'Expires', ''].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, tokens.map((t) => h('tr', { dataset: { token: t.name } },
        h('td', { 'data-label': 'Name' }, t.name),
        h('td', { 'data-label': 'Created' }, fmt.dateTime(t.createdAt)),
        h('td', { 'data-label': 'Expires' }, fmt.dateTime(t.expiresAt)),
        h('td', {}, h('button', { type: 'button', class: 'button small danger', 'aria-label': 'Revoke token ' + t.name,
          onclick: () => revoke(t) }, 'Revoke')))))));
  }

  async function revoke(t) {
    if (!confirm(`Revoke the token "${t.name}"? Anything using it stops working.`)) return;
    try {
      await api.json('/apiops/tokens/' + api.enc(t.id), { method: 'DELETE' });
      notify(`Token "${t.name}" revoked.`, 'success');
      reload();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (!name.value.trim()) { error.textContent = 'Give the token a name.'; error.hidden = false; name.focus(); return; }
    let expiresAt = null;
    if (expiry.value === 'custom') {
      if (!date.value) { error.textContent = 'Choose the expiry date.'; error.hidden = false; date.focus(); return; }
      expiresAt = new Date(date.value + 'T23:59:59Z').toISOString();
    } else if (expiry.value !== 'never') {
      expiresAt = new Date(Date.now() + Number(expiry.value) * 86_400_000).toISOString();
    }
    try {
      const token = await api.send('POST', '/apiops/tokens', { name: name.value.trim(), expiresAt });
      name.value = '';
      showOnce(token);
      reload();
    } catch (err) {
      error.textContent = api.explain(err);
      error.hidden = false;
    }
  });

  function showOnce(token) {
    const value = h('input', { id: 'new-token-value', readonly: true, value: token.token, class: 'mono', size: 48 });
    const copy = h('button', { type: 'button', class: 'button' }, 'Copy');
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(token.token);
      } catch {
        value.select();
        document.execCommand('copy');
      }
      copy.textContent = 'Copied';
    });
    clear(created).append(h('div', { class: 'card success-box', role: 'status' },
      h('h2', {}, `Token "${token.name}" created`),
      h('p', {}, 'Copy it now: it is shown only once.'),
      h('div', { class: 'toolbar' }, h('label', { for: 'new-token-value' }, 'Token'), value, copy,
        h('button', { type: 'button', class: 'button secondary', onclick: () => clear(created) }, 'Done'))));
    value.focus();
    value.select();
  }

  reload();
  return null;
}
