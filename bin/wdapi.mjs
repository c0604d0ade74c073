#!/usr/bin/env node
// The wdapi command: runs cli/main.ts through tsx (the project has no build step).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  env: { ...process.env, WDAPI_CWD: process.cwd() },
});
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
