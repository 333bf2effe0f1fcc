// Gateway status: what every Worker pod of an environment serves against the current version (in sync, behind,
// rejected, stale), refreshed every 5 seconds while the screen is open.
import * as api from '../api.js';
import { h, clear } from '../dom.js';
import * as fmt from '../format.js';
import * as gw from '../gateway.js';

export async function render(main) {
  main.append(h('h1', {}, 'Gateway status'),
    h('p', { class: 'intro' }, 'Each Worker pod reports what it serves when it polls the Manager. A rejected version leaves the pod serving the one before.'));
  const picker = await gw.environmentPicker(() => reload());
  const summary = h('p', { id: 'gateway-summary', 'aria-live': 'polite' });
  const list = h('div', { id: 'gateway-pods' });
  main.append(h('div', { class: 'toolbar' }, picker.element), summary, list);
  if (picker.empty) {
    list.append(h('p', { class: 'muted' }, 'No environment yet: register one on the Environments screen.'));
    return null;
  }

  async function reload() {
    try {
      const environment = picker.select.value;
      const status = await api.json(`/apiops/environments/${api.enc(environment)}/gateway-status`);
      const pods = status.pods || [];
      const inSync = pods.filter((p) => p.inSync).length;
      clear(summary).append(`${environment} is at version ${status.version} (hash `, gw.shortHash(status.hash),
        `): ${inSync} of ${pods.length} Worker pod${pods.length === 1 ? '' : 's'} in sync.`);
      summary.className = pods.length && inSync === pods.length ? 'info-text' : 'error-text';
      clear(list).append(gw.table('gateway', ['Pod', 'State', 'Applied version', 'Hash', 'Source', 'Last contact', 'Orphan routes', 'Last error'],
        pods.map((p) => h('tr', { dataset: { pod: p.podName, state: p.state } },
          h('th', { scope: 'row', class: 'pod-name' }, p.podName, h('div', { class: 'muted small mono' }, p.podIp || '')),
          h('td', {}, gw.stateBadge(p.state)),
          h('td', { class: 'num' }, p.appliedVersion ?? '–', p.rejectedVersion ? h('div', { class: 'error-text small' }, `rejected ${p.rejectedVersion}`) : null),
          h('td', {}, gw.shortHash(p.appliedHash)),
          h('td', {}, p.source || '–'),
          h('td', { class: 'nowrap' }, fmt.dateTime(p.lastContact)),
          h('td', {}, (p.orphanRoutes || []).length ? h('span', { class: 'badge warn' }, p.orphanRoutes.join(', ')) : '–'),
          h('td', {}, p.lastError || ''))),
        `No Worker pod of ${environment} has polled the Manager in the last minutes. Workers follow the Manager with pylon.worker.config-source=manager.`));
    } catch (err) {
      gw.showError(list, err);
    }
  }

  await reload();
  const timer = setInterval(reload, 5000);
  return () => clearInterval(timer);
}
