/**
 * The service compiled as production runs it (`npm run build`, then plain node), built once and
 * shared by every cluster test file: the output folder is named by a hash of the sources, so a
 * second file (or a second run on unchanged sources) reuses it and a changed source never runs stale.
 *
 * The output lives under node_modules/.cache so that node finds the project's packages from it;
 * node_modules is a package boundary, so the folder gets its own `{"type":"module"}`. tsc emits
 * with --noCheck: type checking is `npm test`'s first step, and emitting alone is 3x faster.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'wdapi-cluster');
/** What tsconfig.build.json compiles (bench imports parts of test/). */
const SOURCE_DIRS = ['core', 'dialects', 'plugins', 'server', 'cli', 'bench', 'test'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
/** Builds of older sources are removed once they are this old (another run may still use a recent one). */
const STALE_MS = 60 * 60 * 1000;

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function sourceHash(): string {
  const hash = createHash('sha256');
  // This folder's own files never run in an instance: editing a test does not rebuild.
  const own = fileURLToPath(new URL('.', import.meta.url));
  const sources = SOURCE_DIRS.flatMap((dir) => tsFiles(join(ROOT, dir))).filter((file) => !file.startsWith(own));
  const files = [...sources, ...CONFIG_FILES.map((f) => join(ROOT, f))];
  for (const file of files) hash.update(file.slice(ROOT.length)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

function compile(outDir: string): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir, '--noCheck'];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(new Error(`tsc -p tsconfig.build.json failed: ${String(stdout).slice(0, 2000) || error.message}`));
      else resolve();
    });
  });
}

function removeStaleBuilds(keep: string): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path !== keep && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** The compiled `server/main.js`, built when the sources have no build yet. */
export async function compiledMain(): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const dir = join(CACHE, sourceHash());
  const main = join(dir, 'server', 'main.js');
  if (existsSync(main)) return main;
  // Built aside and renamed into place: a file running at the same time sees all of it or nothing.
  const scratch = `${dir}.building-${process.pid}-${Date.now()}`;
  try {
    await compile(scratch);
    writeFileSync(join(scratch, 'package.json'), '{"type":"module"}\n');
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another file finished the same build first: theirs is as good.
      if (!existsSync(main)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  removeStaleBuilds(dir);
  return main;
}
