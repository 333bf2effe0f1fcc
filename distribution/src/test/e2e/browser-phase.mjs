// What every screen script shares: the settings from the environment, checks, screenshots, signing in, and running
// one phase in a fresh headless Chromium profile. A phase fails on a script error, a console error other than a
// refused resource, or a 5xx from the screen's own API calls (apiPattern); the process exits non-zero with the reason.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const env = (name, fallback) => process.env[name] ?? fallback;
export const BASE = env('PYLON_URL');
export const PHASE = env('PHASE', 'operator');
export const LONG = { timeout: 60_000 };
const SHOTS = env('SCREENSHOTS', 'target/e2e-screenshots');

export function check(condition, message) {
  if (!condition) throw new Error('check failed: ' + message);
}

/** A function that saves a full-page screenshot as <prefix>-<phase>-<name>.png. */
export function screenshots(prefix) {
  mkdirSync(SHOTS, { recursive: true });
  return (page, name) => page.screenshot({ path: join(SHOTS, `${prefix}-${PHASE}-${name}.png`), fullPage: true });
}

export async function signIn(page, user, password) {
  await page.goto(BASE + '/');
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor(LONG);
}

/** Runs phases[PHASE] on a page of a fresh browser profile, prints PHASE <name> OK or FAILED, and exits. */
export async function runPhase(prefix, phases, apiPattern) {
  const shot = screenshots(prefix);
  const profile = mkdtempSync(join(tmpdir(), 'pylon-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: env('CHROMIUM', '/usr/bin/chromium'),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] || await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // a refused request is logged as 'Failed to load resource' (the start page's diagnostics calls reach pods that do
  // not exist in these tests: 502); what counts is a 5xx from the screen's own calls, CSP refusals and script errors
  page.on('console', (m) => { if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) problems.push(m.text()); });
  page.on('response', (r) => {
    if (r.status() >= 500 && apiPattern.test(r.url())) problems.push(`${r.status()} from ${r.url()}`);
  });
  let failed = false;
  try {
    await phases[PHASE](page, shot);
    check(problems.length === 0, 'no script errors, CSP refusals or 5xx in the page: ' + problems.join('; '));
    console.log(`PHASE ${PHASE} OK`);
  } catch (err) {
    failed = true;
    console.error(`PHASE ${PHASE} FAILED: ${err.stack || err}`);
    await shot(page, 'failure').catch(() => {});
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}
