/**
 * Browser support for the admin application's suites (DESIGN §15): Debian's Chromium driven by
 * playwright-core, headless with the flags a sandboxed root needs. Under CI=true a missing
 * Chromium fails the suite; elsewhere the suite is skipped and says why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import type { VendorTarget } from '../support/vendors.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UI = join(ROOT, 'plugins', 'admin-app', 'ui');
export const OUTPUT = join(ROOT, 'test', 'admin-app', 'output');

/** True when the browser suites run; throws under CI=true when Chromium is missing. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: the admin application's browser suites are mandatory under CI=true (apt-get install -y chromium)`);
  console.warn(`admin-app browser suites SKIPPED: ${CHROMIUM} not found (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return false;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const INDEX = join(UI, 'dist', 'index.html');
const BUILD_LOCK = join(UI, '.build-lock');
const isFresh = (): boolean => existsSync(INDEX) && statSync(INDEX).mtimeMs >= newestSource(UI);

/**
 * One build at a time across the suites' worker processes: a build empties dist/ first, so a second
 * one started beside it removed the assets a first suite's page was loading. The lock is a
 * directory (mkdir is atomic); one older than five minutes is left over from a killed run.
 */
function withBuildLock(work: () => void): void {
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      if (existsSync(BUILD_LOCK) && Date.now() - statSync(BUILD_LOCK).mtimeMs > 300_000) rmSync(BUILD_LOCK, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** `npm install` builds the app; a test run after a source change rebuilds it first (once). */
export function ensureBuilt(): void {
  if (isFresh()) return;
  withBuildLock(() => {
    if (isFresh()) return; // another suite built it while this one waited
    const started = performance.now();
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(UI, 'vite.config.ts')], { cwd: ROOT, stdio: 'inherit' });
    console.log(`admin app built in ${Math.round(performance.now() - started)} ms`);
  });
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** A page whose uncaught errors fail the test that reads `errors`. */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  // axe-core needs a page of an explicit context.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

export async function signIn(page: Page, url: string, token: string, workspace?: { org: string; ws: string }): Promise<void> {
  await page.goto(`${url}/admin/`);
  await page.getByLabel('Admin token or API key').fill(token);
  if (workspace) {
    await page.getByLabel('Organization of the API key').fill(workspace.org);
    await page.getByLabel('Workspace of the API key').fill(workspace.ws);
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT, { recursive: true });
  const path = join(OUTPUT, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const lines = bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')}); first: ${v.nodes[0]?.failureSummary ?? ''}`);
  expect(lines, `axe on ${screen}`).toEqual([]);
}

/** A workspace on `target`, Chromium, and a page signed in with the admin token: what most suites start from. */
export interface SignedIn {
  readonly ws: TestWorkspace;
  readonly page: Page;
}

/**
 * A suite's signed-in page: started before its tests, handed to `use`, closed after them; with a
 * `label`, the suite's duration is logged (the browser suites are the slow part of CI).
 */
export function signedInForSuite(target: VendorTarget, use: (session: SignedIn) => void, label?: string): void {
  const started = performance.now();
  let session: { ws: TestWorkspace; browser: Browser; page: Page } | undefined;
  beforeAll(async () => {
    session = await startSignedIn(target);
    use(session);
  });
  afterAll(async () => {
    await session?.browser.close();
    await session?.ws.close();
    if (label) console.log(`admin-app ${label} suite on ${target.name}: ${Math.round(performance.now() - started)} ms`);
  });
}

async function startSignedIn(target: VendorTarget): Promise<{ ws: TestWorkspace; browser: Browser; page: Page }> {
  ensureBuilt();
  const [ws, browser] = await Promise.all([startWorkspace(target), launch()]);
  const { page } = await openPage(browser);
  await signIn(page, ws.url, ADMIN_TOKEN);
  return { ws, browser, page };
}
