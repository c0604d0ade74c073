#!/usr/bin/env node
// The wdapi command: runs cli/main.ts through tsx (the project has no build step).
// From the clone: `npm run wdapi -- import FILE …` (npx would look the name up in the registry).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  // Under `npm run wdapi` the cwd is the project root; npm keeps the caller's folder in INIT_CWD.
  env: { ...process.env, WDAPI_CWD: (process.env.npm_lifecycle_event === 'wdapi' && process.env.INIT_CWD) || process.cwd() },
});
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
