// Deploy: choose proxies (and ones to remove), deploy them to an environment, see what every Worker pod did.
import * as api from '../api.js';
import { h, put, clear, field, notify } from '../dom.js';
import * as gw from '../gateway.js';

export async function render(main, session) {
  const writer = gw.canWrite(session);
  put(main, h('h1', {}, 'Deploy'),
    h('p', { class: 'intro' }, 'Deploys proxies at their latest revision to every Worker pod of an environment, as one new numbered version.'),
    gw.readOnlyNote(session));
  const picker = await gw.environmentPicker(() => reload());
  const chooser = h('div', { id: 'deploy-proxies' });
  const comment = h('input', { id: 'deploy-comment', maxlength: 500, autocomplete: 'off' });
  const wait = h('select', { id: 'deploy-wait' }, ['10s', '30s', '60s', '0s'].map((w) => h('option', { value: w }, w === '0s' ? 'do not wait' : w)));
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button', id: 'deploy-submit', disabled: !writer }, 'Deploy');
  const result = h('div', { id: 'deploy-outcome', 'aria-live': 'polite' });
  const form = h('form', { class: 'card', novalidate: true },
    h('div', { class: 'toolbar' }, picker.element, field('Comment', comment), field('Wait for the pods', wait)),
    chooser, error, h('div', {}, submit));
  main.append(form, result);
  if (picker.empty) {
    clear(chooser).append(h('p', { class: 'muted' }, 'No environment yet: register one on the Environments screen.'));
    submit.disabled = true;
    return null;
  }

  async function reload() {
    try {
      const [proxies, status] = await Promise.all([
        api.json('/apiops/proxies').then((b) => api.listOf(b, 'proxies')),
        api.json(`/apiops/environments/${api.enc(picker.select.value)}/gateway-status`)]);
      const deployed = status.version > 0
        ? (await api.json(`/apiops/environments/${api.enc(picker.select.value)}/deployments/${status.version}`)).proxies || {}
        : {};
      clear(chooser).append(gw.table('deploy-choice', ['Deploy', 'Proxy', 'Latest revision', `In ${picker.select.value} now`, 'Remove'],
        proxies.map((p) => h('tr', { dataset: { proxy: p.name } },
          h('td', {}, h('input', { type: 'checkbox', name: 'deploy', value: p.name, 'aria-label': 'Deploy ' + p.name, disabled: !writer })),
          h('th', { scope: 'row' }, p.name),
          h('td', { class: 'num' }, p.revision),
          h('td', { class: 'num' }, deployed[p.name] !== undefined ? 'revision ' + deployed[p.name] : '–'),
          h('td', {}, deployed[p.name] !== undefined ? h('input', { type: 'checkbox', name: 'undeploy', value: p.name,
            'aria-label': 'Remove ' + p.name + ' from ' + picker.select.value, disabled: !writer }) : null))),
        'No proxies yet: create one on the API proxies screen.'),
      h('p', { class: 'muted small' }, `${picker.select.value} is at version ${status.version}.`));
    } catch (err) {
      gw.showError(chooser, err);
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    const checked = (name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((c) => c.value);
    const request = { proxies: checked('deploy'), undeploy: checked('undeploy'), wait: wait.value };
    if (comment.value.trim()) request.comment = comment.value.trim();
    if (!request.proxies.length && !request.undeploy.length) {
      error.textContent = 'Choose at least one proxy to deploy or to remove.';
      error.hidden = false;
      return;
    }
    const environment = picker.select.value;
    submit.disabled = true;
    submit.textContent = 'Deploying…';
    clear(result);
    try {
      const answer = await api.send('POST', `/apiops/environments/${api.enc(environment)}/deployments`, request);
      result.append(gw.deploymentResult(answer, environment));
      comment.value = '';
      const ok = answer.deploymentResult && answer.deploymentResult.success;
      notify(ok ? `Version ${answer.version} deployed to ${environment}.`
        : `Version ${answer.version} of ${environment} was not applied by every Worker pod: see the result below.`, ok ? 'success' : 'error');
      reload();
    } catch (err) {
      error.textContent = api.explain(err);
      error.hidden = false;
    } finally {
      submit.disabled = !writer;
      submit.textContent = 'Deploy';
    }
  });
  await reload();
  return null;
}
