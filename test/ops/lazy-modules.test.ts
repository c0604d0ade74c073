/**
 * What the service loads at start: the MySQL and SQL Server drivers wait for the first workspace
 * of their vendor (about 30 MB of modules), and chevrotain comes as its one-file bundle, never as
 * the unbundled build with its ~700 lodash-es modules. A barrel re-exporting a driver, or a value
 * import of 'chevrotain', would bring them back silently.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

/** ESM files reach the resolve hook registered here; CommonJS ones show in require.cache. */
function modulesLoadedByStart(): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const { MessageChannel } = await import('node:worker_threads');
    const { port1, port2 } = new MessageChannel();
    const urls = [];
    port1.on('message', (url) => urls.push(url));
    const { register } = await import('node:module');
    register('data:text/javascript,' + encodeURIComponent('let port; export function initialize(d) { port = d.port; } export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }'), { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });
    await import('./server/start.ts');
    await new Promise((r) => setTimeout(r, 200));
    port1.close();
    const cjs = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(JSON.stringify([...urls, ...cjs]));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out) as string[];
}

describe('modules loaded at start', () => {
  it('leave out the MySQL and SQL Server drivers and the unbundled chevrotain', () => {
    const loaded = modulesLoadedByStart();
    expect(loaded.some((m) => m.includes('/node_modules/koa/'))).toBe(true);
    expect(loaded.some((m) => m.includes('/chevrotain/lib/chevrotain.mjs'))).toBe(true);
    const unwanted = loaded.filter((m) => /\/node_modules\/(mysql2|mssql|tedious|lodash-es)\//.test(m) || m.includes('/chevrotain/lib/src/'));
    expect(unwanted).toEqual([]);
  });
});
