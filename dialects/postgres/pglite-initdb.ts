/**
 * A fresh embedded data folder is created (PGlite runs initdb) in a worker thread. initdb is one
 * synchronous WebAssembly call of 5–15 s that would otherwise hold the event loop for all of it,
 * so /healthz could not answer during the first start. The worker creates the
 * folder, closes it and exits; the caller then opens the folder on its own thread. Only for PGlite
 * opened in process (`openPGlite`): the service's own embedded database runs whole in a worker
 * thread (pglite-worker.ts), initdb included.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** PGlite's own test for an initialised folder (it resumes instead of running initdb). */
export function isInitialised(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

// Plain JavaScript (an eval worker), so it runs the same under tsx, vitest and the compiled dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module)
  .then(async ({ PGlite }) => { const db = await PGlite.create({ dataDir: workerData.dataDir }); await db.close(); })
  .then(() => parentPort.postMessage({ ok: true }), (error) => parentPort.postMessage({ ok: false, message: String(error && error.message || error) }));
`;

/** Runs initdb for `dataDir` in a worker thread; resolves once the folder can be opened. */
export function initialiseOffThread(dataDir: string): Promise<void> {
  const module = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  return new Promise((resolve, reject) => {
    // No execArgv: the worker needs no TypeScript loader.
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, dataDir }, execArgv: [] });
    let outcome: { ok: boolean; message?: string } | undefined;
    worker.once('message', (message: { ok: boolean; message?: string }) => (outcome = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (outcome?.ok) resolve();
      else reject(new Error(`initialising the embedded database in ${dataDir} failed: ${outcome?.message ?? `worker exited with code ${code}`}`));
    });
  });
}
