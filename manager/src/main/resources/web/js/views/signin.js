import * as api from '../api.js';
import { h, field } from '../dom.js';

export function render(main, session) {
  const message = sessionStorage.getItem('pylon.signin-message');
  sessionStorage.removeItem('pylon.signin-message');
  const username = h('input', { name: 'username', autocomplete: 'username', required: true, autocapitalize: 'none', spellcheck: 'false' });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button' }, 'Sign in');
  const form = h('form', { class: 'signin card', novalidate: true },
    h('h1', {}, 'Sign in'),
    message ? h('p', { class: 'info-text', role: 'status' }, message) : null,
    field('Username', username),
    field('Password', password),
    error,
    submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (!username.value.trim() || !password.value) {
      error.textContent = 'Enter your username and password.';
      error.hidden = false;
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Signing in…';
    try {
      await api.signIn(username.value.trim(), password.value);
      session.me = null;
      password.value = '';
      location.hash = '#/servers';
    } catch (err) {
      error.textContent = api.explain(err);
      error.hidden = false;
      submit.disabled = false;
      submit.textContent = 'Sign in';
      password.focus();
    }
  });
  main.append(h('div', { class: 'signin-wrap' }, form));
  username.focus();
}
