// Users (admins): list, create, change role, enable or disable, unlock, set a password, delete.
import * as api from '../api.js';
import { h, clear, field, notify, openDialog } from '../dom.js';

export async function render(main, session) {
  main.append(h('h1', {}, 'Users'));
  if (session.me.role !== 'admin') {
    main.append(h('p', { class: 'error-text', role: 'alert' }, 'Managing users needs the admin role; you are signed in as ' + session.me.role + '.'));
    return null;
  }
  const username = h('input', { name: 'new-username', required: true, autocomplete: 'off', autocapitalize: 'none' });
  const password = h('input', { name: 'new-password', type: 'password', required: true, autocomplete: 'new-password' });
  const role = roleSelect('viewer', 'new-role');
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const form = h('form', { class: 'card form-grid', novalidate: true, 'aria-labelledby': 'new-user-h' },
    h('h2', { id: 'new-user-h' }, 'New user'), field('Username', username), field('Password', password), field('Role', role), error,
    h('div', {}, h('button', { type: 'submit', class: 'button' }, 'Create user')));
  const list = h('div');
  main.append(form, h('section', { 'aria-labelledby': 'users-h' }, h('h2', { id: 'users-h' }, 'All users'), list));

  const act = async (what, call) => {
    try {
      await call();
      notify(what, 'success');
      reload();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  };
  const path = (u) => '/apiops/users/' + api.enc(u.username);

  async function reload() {
    try {
      const users = api.listOf(await api.json('/apiops/users'), 'users');
      clear(list).append(h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: 'users' },
        h('thead', {}, h('tr', {}, ['Username', 'Role', 'State', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, users.map(row)))));
    } catch (err) {
      clear(list).append(h('p', { class: 'error-text' }, api.explain(err)));
    }
  }

  function row(u) {
    const select = roleSelect(u.role, null);
    select.setAttribute('aria-label', 'Role of ' + u.username);
    select.addEventListener('change', () => act(`${u.username} is now ${select.value}.`, () => api.send('PATCH', path(u), { role: select.value })));
    const state = [u.enabled === false ? 'disabled' : 'enabled', u.locked ? 'locked' : null].filter(Boolean).join(', ');
    const btn = (label, onclick, cls = 'small') => h('button', { type: 'button', class: 'button ' + cls, 'aria-label': `${label} ${u.username}`, onclick }, label);
    return h('tr', { dataset: { user: u.username } },
      h('th', { scope: 'row', 'data-label': 'Username' }, u.username),
      h('td', { 'data-label': 'Role' }, select),
      h('td', { 'data-label': 'State' }, state),
      h('td', { class: 'actions' },
        u.username === session.me.username ? null : btn(u.enabled === false ? 'Enable' : 'Disable', () => act(`${u.username} ${u.enabled === false ? 'enabled' : 'disabled'}.`,
          () => api.send('PATCH', path(u), { enabled: u.enabled === false }))),
        u.locked ? btn('Unlock', () => act(`${u.username} unlocked.`, () => api.send('POST', path(u) + '/unlock', {}))) : null,
        btn('Set password', () => setPassword(u)),
        u.username === session.me.username ? null : btn('Delete', () => {
          if (confirm(`Delete the user ${u.username}?`)) act(`${u.username} deleted.`, () => api.json(path(u), { method: 'DELETE' }));
        }, 'small danger')));
  }

  function setPassword(u) {
    const input = h('input', { type: 'password', autocomplete: 'new-password', required: true });
    const err = h('p', { class: 'error-text', role: 'alert', hidden: true });
    const { body, close } = openDialog('Set the password of ' + u.username);
    const f = h('form', { novalidate: true }, field('New password', input), err, h('button', { type: 'submit', class: 'button' }, 'Set password'));
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api.send('POST', path(u) + '/password', { password: input.value });
        close();
        notify(`Password of ${u.username} changed.`, 'success');
      } catch (error2) {
        err.textContent = api.explain(error2);
        err.hidden = false;
      }
    });
    body.append(f);
    input.focus();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (!username.value.trim() || !password.value) { error.textContent = 'Enter a username and a password.'; error.hidden = false; return; }
    try {
      await api.send('POST', '/apiops/users', { username: username.value.trim(), password: password.value, role: role.value });
      notify(`User ${username.value.trim()} created.`, 'success');
      username.value = '';
      password.value = '';
      reload();
    } catch (err) {
      error.textContent = api.explain(err);
      error.hidden = false;
    }
  });
  reload();
  return null;
}

function roleSelect(value, name) {
  return h('select', { name }, ['viewer', 'operator', 'admin'].map((r) => h('option', { value: r, selected: r === value }, r)));
}
