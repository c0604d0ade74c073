/**
 * Compiles the project as `npm run build` does (tsc -p tsconfig.build.json → dist/, bench included),
 * so that scenario I's service child runs on plain node like `npm run start:dist`: under tsx the
 * loader thread and the transformed sources add ~50 MB of RSS before the first request.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('../../dist/bench/harness/service-child.js', import.meta.url));

export type Build = { readonly child: string; readonly seconds: number } | { readonly failure: string };

export function buildDist(): Promise<Build> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const began = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) resolve({ failure: `tsc -p tsconfig.build.json failed: ${String(stdout).slice(0, 500) || error.message}` });
      else if (!existsSync(CHILD)) resolve({ failure: `${CHILD} was not emitted` });
      else resolve({ child: CHILD, seconds: (Date.now() - began) / 1000 });
    });
  });
}
