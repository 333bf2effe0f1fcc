// The management API as the UI uses it. The token lives in sessionStorage only: it dies with the browser tab.

const TOKEN_KEY = 'pylon.token';
const listeners = new Set();

export class ApiError extends Error {
  constructor(status, error, description, details) {
    super(description || error || ('HTTP ' + status));
    this.status = status;
    this.error = error;
    this.details = details || null;
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** Called with a message whenever the session ends on its own (token expired or revoked elsewhere). */
export function onSessionEnded(listener) {
  listeners.add(listener);
}

function endSession(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  for (const listener of listeners) listener(message);
}

/** Words for a failed call that the user can act on. */
export function explain(err) {
  if (!(err instanceof ApiError)) return 'The Manager could not be reached (' + err.message + ').';
  if (err.status === 403) return 'Not allowed: ' + err.message + (/role/.test(err.message) ? '' : ' Your role does not allow it.');
  return err.message;
}

async function errorOf(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  const description = body && (body.error_description || body.message);
  return new ApiError(response.status, body && body.error, description || response.statusText || ('HTTP ' + response.status),
    body && body.details);
}

/** fetch with the bearer token; 401 ends the session. Returns the Response for ok answers. */
export async function raw(path, options = {}) {
  const headers = new Headers(options.headers || {});
  const current = token();
  if (current) headers.set('Authorization', 'Bearer ' + current);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const response = await fetch(path, { ...options, headers, cache: 'no-store' });
  if (response.status === 401 && current) {
    endSession('Your session has expired or was revoked. Sign in again.');
    throw await errorOf(response);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function json(path, options = {}) {
  const response = await raw(path, options);
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export function send(method, path, body) {
  return json(path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) });
}

export async function signIn(username, password) {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: username, client_secret: password });
  const response = await fetch('/apiops/auth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: form,
    cache: 'no-store',
  });
  if (!response.ok) {
    const err = await errorOf(response);
    if (response.status === 401) err.message = 'Wrong username or password, or the account is disabled or locked.';
    throw err;
  }
  const body = await response.json();
  sessionStorage.setItem(TOKEN_KEY, body.access_token);
  return body;
}

export async function signOut() {
  const current = token();
  sessionStorage.removeItem(TOKEN_KEY);
  if (!current) return;
  try {
    await fetch('/apiops/auth/revoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Bearer ' + current },
      body: new URLSearchParams({ token: current }),
      cache: 'no-store',
    });
  } catch { /* the token is forgotten here either way */ }
}

export const enc = encodeURIComponent;

export function diagnosticsPath(environment, module, name, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) query.set(key, value);
  const qs = query.toString();
  return `/apiops/environments/${enc(environment)}/diagnostics/${module}/${name}${qs ? '?' + qs : ''}`;
}

/**
 * For a view that loads one list again and again (a filter changed while an action's reload runs): answers can arrive
 * out of order, and only the latest load's may render. Each call starts a load and gives back "is it still the
 * latest?".
 */
export function latestOnly() {
  let last = 0;
  return () => {
    const mine = ++last;
    return () => mine === last;
  };
}

/** A list answer, whether the API sends a bare array or wraps it: {"users":[...]}. */
export function listOf(body, key) {
  if (Array.isArray(body)) return body;
  if (body && Array.isArray(body[key])) return body[key];
  return [];
}

/**
 * Reads a download to its end, calling onProgress(received bytes) at most every 100 ms as pieces arrive, so that a
 * progress bar moves without a repaint per piece. Resolves to {chunks, received}.
 */
export async function readWithProgress(response, onProgress) {
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  let lastPaint = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    const now = performance.now();
    if (now - lastPaint > 100) {
      lastPaint = now;
      onProgress(received);
    }
  }
  return { chunks, received };
}
