// Boot, session and hash routing. Each view module exports render(main, session) and may return a cleanup function.
import * as api from './api.js';
import { clear, notify } from './dom.js';

const views = {
  signin: () => import('./views/signin.js'),
  servers: () => import('./views/servers.js'),
  environments: () => import('./views/environments.js'),
  proxies: () => import('./views/proxies.js'),
  deploy: () => import('./views/deploy.js'),
  deployments: () => import('./views/deployments.js'),
  gateway: () => import('./views/gateway-status.js'),
  flows: () => import('./views/flows.js'),
  portal: () => import('./views/portal.js'),
  users: () => import('./views/users.js'),
  audit: () => import('./views/audit.js'),
  usage: () => import('./views/usage.js'),
  profile: () => import('./views/profile.js'),
};
const titles = { signin: 'Sign in', servers: 'Server Management', environments: 'Environments', proxies: 'API proxies', deploy: 'Deploy', deployments: 'Deployments', gateway: 'Gateway status', flows: 'Flows', portal: 'Developer portal', users: 'Users', audit: 'Audit log', usage: 'API usage', profile: 'My profile' };

const session = { me: null };
let cleanup = null;
let renderId = 0;
const main = document.getElementById('main');

api.onSessionEnded((message) => {
  session.me = null;
  sessionStorage.setItem('pylon.signin-message', message);
  location.hash = '#/signin';
});

document.getElementById('sign-out').addEventListener('click', async () => {
  await api.signOut();
  session.me = null;
  sessionStorage.setItem('pylon.signin-message', 'You are signed out.');
  location.hash = '#/signin';
});

function routeName() {
  const name = location.hash.replace(/^#\/?/, '').split('?')[0];
  return views[name] ? name : 'servers';
}

function showChrome(signedIn) {
  document.getElementById('nav').hidden = !signedIn;
  document.getElementById('session').hidden = !signedIn;
  const admin = signedIn && session.me && session.me.role === 'admin';
  for (const el of document.querySelectorAll('[data-admin]')) el.hidden = !admin;
  if (signedIn) document.getElementById('session-user').textContent = `${session.me.username} (${session.me.role})`;
}

async function route() {
  const id = ++renderId;
  let name = routeName();
  if (cleanup) { cleanup(); cleanup = null; }
  if (!api.token()) name = 'signin';
  if (name !== 'signin' && !session.me) {
    try {
      session.me = await api.json('/apiops/auth/me');
    } catch (err) {
      if (id !== renderId) return;
      if (err instanceof api.ApiError && err.status === 401) return; // onSessionEnded sends us to sign-in
      clear(main).append(document.createTextNode(api.explain(err)));
      return;
    }
  }
  if (name === 'signin' && api.token() && session.me) name = 'servers';
  if (id !== renderId) return;
  if (('#/' + name) !== location.hash && name !== routeName()) history.replaceState(null, '', '#/' + name);
  showChrome(name !== 'signin');
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.route === name) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  document.title = titles[name] + ' · Pylon Manager';
  const view = await views[name]();
  if (id !== renderId) return;
  clear(main);
  try {
    cleanup = (await view.render(main, session)) || null;
  } catch (err) {
    notify(api.explain(err), 'error');
  }
}

window.addEventListener('hashchange', route);
route();
