// API proxies: the list; create and edit a definition as YAML or JSON (a refusal shown at the field it names);
// revisions with a readable diff of two of them; import from an OpenAPI document. Viewers read only.
import * as api from '../api.js';
import { h, put, clear, field, notify, openDialog } from '../dom.js';
import * as fmt from '../format.js';
import * as gw from '../gateway.js';
import { toYaml, fieldOffset, dotted, pointer } from '../definition-text.js';

const TEMPLATE = `name: orders
description: Orders API
pathPrefix: /api/orders
upstreams:
  - http://127.0.0.1:8080
rateLimit:
  requests: 100
  per: second
`;

export async function render(main, session) {
  const writer = gw.canWrite(session);
  put(main, h('h1', {}, 'API proxies'),
    h('p', { class: 'intro' }, 'Every API the gateway serves: define it here, then deploy it to an environment.'),
    gw.readOnlyNote(session));
  const toolbar = h('div', { class: 'toolbar' },
    h('button', { type: 'button', class: 'button', id: 'new-proxy', disabled: !writer, onclick: () => edit(null) }, 'New proxy'),
    h('button', { type: 'button', class: 'button secondary', id: 'import-openapi', disabled: !writer, onclick: importOpenApi }, 'Import from OpenAPI'));
  const list = h('div', { id: 'proxy-list' });
  main.append(toolbar, list);

  async function reload() {
    try {
      const proxies = api.listOf(await api.json('/apiops/proxies'), 'proxies');
      clear(list).append(gw.table('proxies', ['Name', 'Revision', 'Path', 'Upstreams', 'Updated', 'By', 'Actions'], proxies.map(row),
        'No proxies yet.' + (writer ? ' Create one with "New proxy".' : '')));
    } catch (err) {
      gw.showError(list, err);
    }
  }

  function row(p) {
    const upstreams = ((p.definition && p.definition.upstreams) || []).map((u) => (typeof u === 'string' ? u : u.url)).join(', ');
    const btn = (label, onclick, cls = 'small', disabled = false) => h('button', { type: 'button', class: 'button ' + cls,
      'aria-label': `${label} ${p.name}`, onclick, disabled }, label);
    return h('tr', { dataset: { proxy: p.name } },
      h('th', { scope: 'row', 'data-label': 'Name' }, p.name, p.description ? h('div', { class: 'muted small' }, p.description) : null),
      h('td', { 'data-label': 'Revision', class: 'num' }, p.revision),
      h('td', { 'data-label': 'Path', class: 'mono' }, p.pathPrefix || '–'),
      h('td', { 'data-label': 'Upstreams', class: 'mono' }, upstreams || '–'),
      h('td', { 'data-label': 'Updated', class: 'nowrap' }, fmt.dateTime(p.updatedAt)),
      h('td', { 'data-label': 'By' }, p.updatedBy || '–'),
      h('td', { class: 'actions' },
        btn(writer ? 'Edit' : 'View', () => edit(p.name)),
        btn('Revisions', () => revisions(p.name), 'small secondary'),
        writer ? btn('Delete', () => remove(p.name), 'small danger') : null));
  }

  async function remove(name) {
    if (!confirm(`Delete the proxy ${name} and its history?`)) return;
    try {
      await api.json('/apiops/proxies/' + api.enc(name), { method: 'DELETE' });
      notify(`Proxy ${name} deleted.`, 'success');
      reload();
    } catch (err) {
      notify(api.explain(err), 'error');
    }
  }

  async function edit(name) {
    let current = null;
    if (name) {
      try {
        current = await api.json('/apiops/proxies/' + api.enc(name));
      } catch (err) {
        notify(api.explain(err), 'error');
        return;
      }
    }
    const { body, close } = openDialog(name ? `Proxy ${name}` + (writer ? ` (revision ${current.revision})` : '') : 'New proxy', { wide: true });
    const original = current ? toYaml(current.definition) : TEMPLATE;
    const format = h('select', { id: 'definition-format' }, h('option', { value: 'yaml' }, 'YAML'), h('option', { value: 'json' }, 'JSON'));
    const text = h('textarea', { id: 'definition', class: 'code-editor', rows: 18, spellcheck: 'false', readonly: !writer,
      'aria-describedby': 'definition-error' }, original);
    const comment = h('input', { id: 'definition-comment', maxlength: 500, autocomplete: 'off' });
    const error = h('div', { class: 'field-error', id: 'definition-error', role: 'alert', hidden: true });
    format.addEventListener('change', () => {
      const definition = parse(text.value);
      if (definition) text.value = format.value === 'json' ? JSON.stringify(definition, null, 2) + '\n' : toYaml(definition);
      else if (text.value === original || text.value === TEMPLATE) text.value = format.value === 'json'
        ? JSON.stringify(current ? current.definition : null, null, 2) + '\n' : original;
      else notify('The text is kept as it is: only JSON text or the unchanged definition can be converted.', 'info');
    });
    const deployed = current && current.deployments && Object.keys(current.deployments).length
      ? h('p', { class: 'muted' }, 'Deployed: ' + Object.entries(current.deployments).map(([env, rev]) => `${env} (revision ${rev})`).join(', '))
      : null;
    const save = h('button', { type: 'submit', class: 'button', id: 'save-proxy' }, name ? 'Save as a new revision' : 'Create proxy');
    const form = h('form', { novalidate: true, class: 'proxy-editor' }, deployed,
      h('div', { class: 'toolbar' }, field('Format', format, 'YAML or JSON: the same schema (docs/control-plane.md).')),
      field('Definition', text), error,
      writer ? field('Comment (kept with the revision)', comment) : null,
      writer ? h('div', {}, save) : null);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      text.removeAttribute('aria-invalid');
      save.disabled = true;
      const json = /^\s*\{/.test(text.value);
      const query = comment.value.trim() ? '?comment=' + api.enc(comment.value.trim()) : '';
      const headers = { 'Content-Type': json ? 'application/json' : 'application/yaml' };
      if (current) headers['If-Match'] = `"${current.revision}"`;
      try {
        const saved = await api.json('/apiops/proxies' + (current ? '/' + api.enc(current.name) : '') + query,
          { method: current ? 'PUT' : 'POST', headers, body: text.value });
        close();
        notify(`Proxy ${saved.name} is at revision ${saved.revision}.`, 'success');
        reload();
      } catch (err) {
        showFieldError(text, error, err);
      } finally {
        save.disabled = false;
      }
    });
    body.append(form);
    text.focus();
  }

  async function importOpenApi() {
    const { body, close } = openDialog('Import from OpenAPI', { wide: true });
    const file = h('input', { type: 'file', id: 'openapi-file', accept: '.yaml,.yml,.json,application/json,application/yaml' });
    const doc = h('textarea', { id: 'openapi-document', class: 'code-editor', rows: 14, spellcheck: 'false', required: true });
    const name = h('input', { id: 'openapi-name', autocomplete: 'off' });
    const prefix = h('input', { id: 'openapi-prefix', autocomplete: 'off' });
    const upstream = h('input', { id: 'openapi-upstream', autocomplete: 'off', placeholder: 'http://10.0.0.5:8080' });
    const error = h('div', { class: 'field-error', role: 'alert', hidden: true });
    file.addEventListener('change', async () => {
      if (!file.files.length) return;
      if (file.files[0].size > 1024 * 1024) { notify('The document is larger than 1 MiB, the most an import takes.', 'error'); return; }
      doc.value = await file.files[0].text();
    });
    const form = h('form', { novalidate: true },
      field('OpenAPI 3.0 or 3.1 document (YAML or JSON): upload a file', file),
      field('…or paste it', doc),
      h('div', { class: 'form-grid' },
        field('Name', name, 'Default: from info.title'),
        field('Path prefix', prefix, 'Default: from servers[0]'),
        field('Upstream URL', upstream, 'Default: servers[0]')),
      error, h('button', { type: 'submit', class: 'button', id: 'import-submit' }, 'Import'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      if (!doc.value.trim()) { error.textContent = 'Upload or paste an OpenAPI document.'; error.hidden = false; return; }
      const request = { document: doc.value };
      if (name.value.trim()) request.name = name.value.trim();
      if (prefix.value.trim()) request.pathPrefix = prefix.value.trim();
      if (upstream.value.trim()) request.upstreams = [upstream.value.trim()];
      try {
        const proxy = await api.send('POST', '/apiops/proxies/import', request);
        close();
        notify(`Imported proxy ${proxy.name} (revision ${proxy.revision}).`, 'success');
        reload();
      } catch (err) {
        error.textContent = api.explain(err);
        error.hidden = false;
      }
    });
    body.append(form);
  }

  async function revisions(name) {
    const { body } = openDialog(`Revisions of ${name}`, { wide: true });
    let list;
    try {
      list = api.listOf(await api.json(`/apiops/proxies/${api.enc(name)}/revisions`), 'revisions');
    } catch (err) {
      gw.showError(body, err);
      return;
    }
    const options = (selected) => list.map((r) => h('option', { value: r.revision, selected: r.revision === selected }, `${r.revision} · ${fmt.dateTime(r.createdAt)}`));
    const from = h('select', { id: 'diff-from' }, options(list.length > 1 ? list[1].revision : list[0].revision));
    const to = h('select', { id: 'diff-to' }, options(list[0].revision));
    const diff = h('div', { id: 'revision-diff', 'aria-live': 'polite' });
    const show = async () => {
      try {
        const [answer, old] = await Promise.all([
          api.json(`/apiops/proxies/${api.enc(name)}/diff?from=${from.value}&to=${to.value}`),
          api.json(`/apiops/proxies/${api.enc(name)}/revisions/${from.value}`)]);
        clear(diff).append(readableDiff(answer.patch || [], old.definition, from.value, to.value));
      } catch (err) {
        gw.showError(diff, err);
      }
    };
    from.addEventListener('change', show);
    to.addEventListener('change', show);
    body.append(gw.table('revisions', ['Revision', 'Author', 'Time', 'Comment', 'OpenAPI'], list.map((r) => h('tr', { dataset: { revision: r.revision } },
      h('td', { class: 'num' }, r.revision), h('td', {}, r.author || '–'), h('td', { class: 'nowrap' }, fmt.dateTime(r.createdAt)),
      h('td', {}, r.comment || ''), h('td', {}, r.hasOpenApi ? 'kept' : '–'))), 'No revisions.'),
    h('h3', { class: 'diff-head' }, 'Compare two revisions'),
    h('div', { class: 'toolbar' }, field('From', from), field('To', to)), diff);
    show();
  }

  reload();
  return null;
}

/** The definition from JSON text, or null (YAML is the Manager's to read). */
function parse(text) {
  if (!/^\s*\{/.test(text)) return null;
  try { return JSON.parse(text); } catch { return null; }
}

/** A refusal: at the field it names (the text there selected and the line named), else under the editor. */
function showFieldError(text, box, err) {
  const fieldPath = err instanceof api.ApiError && err.details && err.details.field;
  clear(box);
  if (fieldPath) {
    const offset = fieldOffset(text.value, fieldPath);
    const line = offset < 0 ? null : text.value.slice(0, offset).split('\n').length;
    box.dataset.field = fieldPath;
    box.append(h('strong', { class: 'field-name' }, fieldPath), line ? ` (line ${line})` : '', ': ', api.explain(err));
    text.setAttribute('aria-invalid', 'true');
    if (offset >= 0) {
      const end = text.value.indexOf('\n', offset);
      text.focus();
      text.setSelectionRange(offset, end < 0 ? text.value.length : end);
      const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 18;
      text.scrollTop = Math.max(0, (line - 3) * lineHeight);
    }
  } else {
    delete box.dataset.field;
    box.append(api.explain(err));
  }
  box.hidden = false;
}

const OPS = { add: 'Added', remove: 'Removed', replace: 'Changed', move: 'Moved', copy: 'Copied' };

/** An RFC 6902 patch as sentences: the field in the document's own dotted form, the old value and the new one. */
function readableDiff(patch, before, fromRevision, toRevision) {
  if (!patch.length) return h('p', { class: 'muted', id: 'diff-empty' }, `Revisions ${fromRevision} and ${toRevision} define the same proxy.`);
  return h('ul', { class: 'diff', id: 'diff-list' }, patch.map((op) => {
    const old = op.op === 'remove' || op.op === 'replace' ? pointer(before, op.path) : undefined;
    return h('li', { class: 'diff-' + op.op, dataset: { op: op.op, path: op.path } },
      h('span', { class: 'diff-op' }, OPS[op.op] || op.op), ' ', h('code', {}, dotted(op.path)),
      old !== undefined ? h('span', { class: 'diff-old' }, ' ', h('del', {}, show(old))) : null,
      op.value !== undefined ? h('span', { class: 'diff-new' }, ' → ', h('ins', {}, show(op.value))) : null,
      op.from ? h('span', {}, ' from ', h('code', {}, dotted(op.from))) : null);
  }));
}

function show(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
