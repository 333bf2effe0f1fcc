// Deployments: an environment's numbered versions, newest first, and a rollback (an earlier version as a new one).
import * as api from '../api.js';
import { h, put, clear, notify } from '../dom.js';
import * as fmt from '../format.js';
import * as gw from '../gateway.js';

export async function render(main, session) {
  const writer = gw.canWrite(session);
  put(main, h('h1', {}, 'Deployments'),
    h('p', { class: 'intro' }, 'Every version deployed to an environment. A rollback deploys an earlier version again as a new number; history is never rewritten.'),
    gw.readOnlyNote(session));
  const picker = await gw.environmentPicker(() => reload());
  const list = h('div', { id: 'deployment-list' });
  const outcome = h('div', { id: 'deploy-outcome', 'aria-live': 'polite' });
  main.append(h('div', { class: 'toolbar' }, picker.element), outcome, list);
  if (picker.empty) {
    list.append(h('p', { class: 'muted' }, 'No environment yet: register one on the Environments screen.'));
    return null;
  }

  async function reload() {
    try {
      const environment = picker.select.value;
      const deployments = api.listOf(await api.json(`/apiops/environments/${api.enc(environment)}/deployments`), 'deployments');
      const current = deployments.length ? deployments[0].version : 0;
      clear(list).append(gw.table('deployments', ['Version', 'Kind', 'Proxies', 'Hash', 'Author', 'Time', 'Comment', 'Actions'],
        deployments.map((d) => h('tr', { dataset: { version: d.version } },
          h('th', { scope: 'row', class: 'num' }, d.version, d.version === current ? h('span', { class: 'badge up current' }, 'current') : null),
          h('td', {}, d.kind === 'rollback' && d.fromVersion ? `rollback to ${d.fromVersion}` : d.kind),
          h('td', {}, snapshot(environment, d)),
          h('td', {}, gw.shortHash(d.hash)),
          h('td', {}, d.author || '–'),
          h('td', { class: 'nowrap' }, fmt.dateTime(d.createdAt)),
          h('td', {}, d.comment || ''),
          h('td', { class: 'actions' }, d.version === current ? null : h('button', { type: 'button', class: 'button small',
            'aria-label': `Roll back ${environment} to version ${d.version}`, disabled: !writer,
            onclick: () => rollback(environment, d.version) }, 'Roll back to this')))),
        `Nothing was deployed to ${environment} yet.`));
    } catch (err) {
      gw.showError(list, err);
    }
  }

  /** The version's proxies, fetched when the reader opens them (a history page carries only their count). */
  function snapshot(environment, d) {
    if (!d.proxyCount) return h('span', { class: 'muted' }, 'none');
    const list = h('ul', { class: 'plain mono' });
    const details = h('details', { class: 'snapshot' }, h('summary', {}, `${d.proxyCount} prox${d.proxyCount === 1 ? 'y' : 'ies'}`), list);
    details.addEventListener('toggle', async () => {
      if (!details.open || list.childElementCount) return;
      try {
        const one = await api.json(`/apiops/environments/${api.enc(environment)}/deployments/${d.version}`);
        list.append(...Object.entries(one.proxies || {}).map(([name, rev]) => h('li', {}, `${name} @ revision ${rev}`)));
      } catch (err) {
        list.append(h('li', { class: 'error-text' }, api.explain(err)));
      }
    }, { once: false });
    return details;
  }

  async function rollback(environment, version) {
    if (!confirm(`Deploy the proxies of version ${version} to ${environment} again, as a new version?`)) return;
    clear(outcome).append(h('p', { class: 'muted' }, `Rolling ${environment} back to version ${version}…`));
    try {
      const answer = await api.send('POST', `/apiops/environments/${api.enc(environment)}/deployments/${version}/rollback`,
        { comment: `rollback to ${version}`, wait: '30s' });
      clear(outcome).append(gw.deploymentResult(answer, environment));
      notify(`${environment} rolled back to the proxies of version ${version} (now version ${answer.version}).`,
        answer.deploymentResult && answer.deploymentResult.success ? 'success' : 'error');
      reload();
    } catch (err) {
      gw.showError(outcome, err);
    }
  }

  await reload();
  return null;
}
