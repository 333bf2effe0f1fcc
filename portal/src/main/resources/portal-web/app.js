// The Portal's pages: a hash router over a few views. Text from the server is only ever set as textContent.
import { api, setCsrf } from './api.js';
import { renderDocs } from './docs.js';
import { usageSection } from './usage.js';

const main = document.getElementById('main');
const statusLine = document.getElementById('status');
let me = null;
// a sentence for the next page: the sign-up's answer, shown on the sign-in page it leads to
let notice = null;
// keys issued or rotated while this page lives, for "Try it"; in memory only, gone with a reload
const issuedKeys = [];

function remember(app, answer) {
  issuedKeys.unshift({ label: app.name + ' · ' + answer.prefix + '…', key: answer.key });
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v; else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

function say(text) {
  statusLine.textContent = text || '';
}

function problem(answer) {
  return (answer.json && (answer.json.error_description || answer.json.message || answer.json.error))
    || ('HTTP ' + answer.status);
}

async function refreshSession() {
  const answer = await api('GET', '/me');
  me = answer.status === 200 ? answer.json.developer : null;
  setCsrf(answer.status === 200 ? answer.json.csrf : null);
  document.getElementById('nav-apps').hidden = !me;
  document.getElementById('signout').hidden = !me;
  document.getElementById('nav-signin').hidden = !!me;
  document.getElementById('nav-signup').hidden = !!me;
  const who = document.getElementById('nav-who');
  who.hidden = !me;
  who.textContent = me ? me.email : '';
}

async function catalog() {
  const answer = await api('GET', '/catalog');
  main.replaceChildren(el('h1', { text: 'APIs' }));
  if (answer.status !== 200) { say(problem(answer)); return; }
  if (answer.json.apis.length === 0) main.append(el('p', { text: 'No API is published here yet.' }));
  for (const a of answer.json.apis) {
    main.append(el('div', { class: 'card', 'data-api': a.name },
      el('h2', {}, el('a', { href: '#/docs/' + encodeURIComponent(a.name), text: a.name })),
      el('p', { class: 'description', text: a.description }),
      el('p', { text: 'Base path: ' + a.pathPrefix + (a.keyAuth ? ' · needs an API key in ' + a.keyHeader : '') })));
  }
}

async function docs(name) {
  const answer = await api('GET', '/catalog/' + encodeURIComponent(name));
  if (answer.status !== 200) { main.replaceChildren(el('h1', { text: 'Not found' })); say(problem(answer)); return; }
  const a = answer.json;
  const holder = el('div', { id: 'swagger' });
  main.replaceChildren(el('h1', { text: a.name }), el('p', { class: 'description', text: a.description }),
    el('p', { text: 'Call it at ' + a.workerUrl + a.pathPrefix + (a.keyAuth ? ' with header ' + a.keyHeader : '') }));
  const chosen = a.keyAuth ? keyChooser(a.keyHeader) : () => null;
  main.append(holder);
  if (a.hasOpenApi) await renderDocs(holder, a.name, a.keyAuth ? a.keyHeader : null, chosen);
  else holder.append(el('p', { text: 'This API has no OpenAPI document.' }));
}

// "Try it" sends the key chosen here: one issued while this page lives, or one pasted
function keyChooser(header) {
  const choice = el('select', { id: 'try-key-choice' });
  choice.append(el('option', { value: '', text: issuedKeys.length ? 'Choose a key' : 'No key issued on this page' }));
  issuedKeys.forEach((k, i) => choice.append(el('option', { value: String(i), text: k.label })));
  if (issuedKeys.length) choice.value = '0';
  const pasted = el('input', { id: 'try-key', type: 'password', autocomplete: 'off', spellcheck: 'false',
    placeholder: 'pylon_key_…' });
  main.append(el('div', { class: 'card try-key' },
    el('h2', { text: 'Try it with your API key' }),
    el('p', { text: 'Requests from "Try it out" go to the gateway with this key in ' + header + '.' }),
    el('label', { for: 'try-key-choice', text: 'A key from this visit' }), choice,
    el('label', { for: 'try-key', text: 'Or paste a key' }), pasted));
  return () => pasted.value.trim() || (choice.value === '' ? null : issuedKeys[Number(choice.value)].key);
}

function credentialsForm(title, action) {
  const email = el('input', { id: 'email', type: 'email', name: 'email', required: '', autocomplete: 'username' });
  const password = el('input', { id: 'password', type: 'password', name: 'password', required: '', minlength: '12',
    autocomplete: title === 'Sign up' ? 'new-password' : 'current-password' });
  const form = el('form', {}, el('label', { for: 'email', text: 'E-mail' }), email,
    el('label', { for: 'password', text: 'Password' }), password,
    el('button', { type: 'submit', text: title }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await action(email.value, password.value);
  });
  main.replaceChildren(el('h1', { text: title }), form);
}

function signUp() {
  credentialsForm('Sign up', async (email, password) => {
    const answer = await api('POST', '/signup', { email, password });
    if (answer.status !== 202) { say(problem(answer)); return; }
    notice = answer.json.message;
    location.hash = '#/signin';
  });
}

function signIn() {
  credentialsForm('Sign in', async (email, password) => {
    const answer = await api('POST', '/signin', { email, password });
    if (answer.status !== 200) { say(problem(answer)); return; }
    say('');
    await refreshSession();
    location.hash = '#/apps';
  });
}

async function applications() {
  if (!me) { location.hash = '#/signin'; return; }
  const [apps, published] = await Promise.all([api('GET', '/applications'), api('GET', '/catalog')]);
  if (apps.status !== 200) { say(problem(apps)); return; }
  const name = el('input', { id: 'app-name', name: 'name', required: '', maxlength: '100' });
  const create = el('form', {}, el('label', { for: 'app-name', text: 'New application' }), name,
    el('button', { type: 'submit', text: 'Create application' }));
  create.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await api('POST', '/applications', { name: name.value });
    if (answer.status !== 201) say(problem(answer)); else { say(''); applications(); }
  });
  main.replaceChildren(el('h1', { text: 'My applications' }), create);
  for (const app of apps.json.applications) main.append(applicationCard(app, published.json ? published.json.apis : []));
}

function applicationCard(app, apis) {
  const card = el('div', { class: 'card', 'data-app': app.id }, el('h2', { text: app.name }));
  const subs = el('ul');
  for (const s of app.subscriptions) subs.append(el('li', { text: s.proxy + ': ' + s.status }));
  const choice = el('select', { name: 'proxy' });
  for (const a of apis) choice.append(el('option', { value: a.name, text: a.name }));
  const subscribe = el('button', { type: 'button', class: 'subscribe', text: 'Subscribe' });
  subscribe.addEventListener('click', async () => {
    const answer = await api('POST', '/applications/' + encodeURIComponent(app.id) + '/subscriptions',
      { proxy: choice.value });
    if (answer.status !== 201) say(problem(answer)); else { say(''); applications(); }
  });
  const keys = el('table', {}, el('tr', {}, el('th', { text: 'Key' }), el('th', { text: 'Created' }), el('th')));
  for (const k of app.keys) {
    const row = el('tr', {}, el('td', { text: k.prefix + '…' }), el('td', { text: k.createdAt }));
    if (k.revokedAt) row.append(el('td', { text: 'revoked' }));
    else {
      const revoke = el('button', { type: 'button', class: 'revoke', text: 'Revoke' });
      revoke.addEventListener('click', async () => {
        const answer = await api('DELETE', '/applications/' + encodeURIComponent(app.id) + '/keys/'
          + encodeURIComponent(k.id));
        if (answer.status !== 204) say(problem(answer)); else { say('Key revoked.'); applications(); }
      });
      const rotate = el('button', { type: 'button', class: 'rotate', text: 'Rotate' });
      rotate.addEventListener('click', async () => {
        const answer = await api('POST', '/applications/' + encodeURIComponent(app.id) + '/keys/'
          + encodeURIComponent(k.id) + '/rotate');
        if (answer.status !== 201) { say(problem(answer)); return; }
        remember(app, answer.json);
        await applications();
        say('Key rotated: the old key stops working within seconds.');
        showKey(cardOf(app).querySelector('.shown-key'), answer.json.key);
      });
      row.append(el('td', {}, rotate, revoke));
    }
    keys.append(row);
  }
  const shown = el('div', { class: 'shown-key' });
  const issue = el('button', { type: 'button', class: 'issue', text: 'New API key' });
  issue.addEventListener('click', async () => {
    const answer = await api('POST', '/applications/' + encodeURIComponent(app.id) + '/keys');
    if (answer.status !== 201) { say(problem(answer)); return; }
    remember(app, answer.json);
    await applications();
    showKey(cardOf(app).querySelector('.shown-key'), answer.json.key);
  });
  card.append(el('h3', { text: 'Subscriptions' }), subs, choice, subscribe, el('h3', { text: 'API keys' }), keys,
    issue, shown, usageSection(app.id));
  return card;
}

function cardOf(app) {
  return main.querySelector('[data-app="' + CSS.escape(app.id) + '"]');
}

function showKey(holder, key) {
  const copy = el('button', { type: 'button', text: 'Copy' });
  copy.addEventListener('click', () => navigator.clipboard && navigator.clipboard.writeText(key));
  holder.replaceChildren(el('p', { text: 'Your key, shown this once; keep it safe:' }),
    el('div', { class: 'key', id: 'new-key', text: key }), copy);
}

async function route() {
  const hash = location.hash || '#/';
  if (hash.startsWith('#/docs/')) return docs(decodeURIComponent(hash.substring(7)));
  if (hash === '#/signup') return signUp();
  if (hash === '#/signin') return signIn();
  if (hash === '#/apps') return applications();
  return catalog();
}

document.getElementById('signout').addEventListener('click', async () => {
  await api('POST', '/signout');
  await refreshSession();
  location.hash = '#/';
});
window.addEventListener('hashchange', () => { say(notice); notice = null; route(); });
await refreshSession();
await route();
