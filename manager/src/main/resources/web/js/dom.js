// Small functions to build DOM without a framework. Text always goes in as text nodes, never as HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Element.append without the surprise: null, false and undefined add nothing (append would add the text "null"). */
export function put(el, ...children) {
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) if (child) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/** A label with its control; every input in the UI gets one. */
export function field(label, control, hint) {
  const id = control.id || (control.id = 'f-' + Math.random().toString(36).slice(2, 9));
  const hintEl = hint ? h('span', { class: 'hint', id: id + '-hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

/** A modal dialog (native <dialog>: focus stays inside, Escape closes). Returns {dialog, body, close}. */
export function openDialog(title, { wide = false, onClose } = {}) {
  const titleId = 'dlg-' + Math.random().toString(36).slice(2, 9);
  const body = h('div', { class: 'dialog-body' });
  const close = () => dialog.close();
  const dialog = h('dialog', { class: wide ? 'wide' : '', 'aria-labelledby': titleId },
    h('div', { class: 'dialog-head' },
      h('h2', { id: titleId }, title),
      h('button', { type: 'button', class: 'button secondary', onclick: close, 'aria-label': 'Close ' + title }, 'Close')),
    body);
  const opener = document.activeElement;
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (onClose) onClose();
    if (opener && opener.isConnected) opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, body, close };
}

/** Saves bytes or text as a file through a temporary link. */
export function download(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: fileName, class: 'visually-hidden' }, fileName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

let noticeTimer;
/** A short message in the live region under the top bar. kind: 'info' | 'error' | 'success'. */
export function notify(message, kind = 'info') {
  const notice = document.getElementById('notice');
  notice.textContent = message;
  notice.className = 'notice ' + kind;
  notice.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { notice.hidden = true; }, kind === 'error' ? 12_000 : 5_000);
}
