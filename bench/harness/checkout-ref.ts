/**
 * `npm run bench -- --compare <git ref>`: the other commit checked out beside this one (a detached git worktree under the system's temp folder, kept between runs), its
 * dependencies installed only when its lockfile differs from ours, and compiled as
 * `npm run build` does, so that its bench service child runs on plain node exactly like ours.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildDist } from './build-dist.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Where a checkout's compiled bench service child lies: bench/harness/ now, directly in bench/ in
 * commits from before the bench was shelved by scenario, which a comparison may still name.
 */
const CHILDREN = [join('dist', 'bench', 'harness', 'service-child.js'), join('dist', 'bench', 'service-child.js')];

export interface Checkout {
  /** The ref as given and the commit it names. */
  readonly label: string;
  readonly commit: string;
  /** The compiled bench service child of that checkout. */
  readonly child: string;
}

async function git(args: readonly string[], cwd = ROOT): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

async function compile(dir: string): Promise<void> {
  const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    await run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? '';
    throw new Error(`compiling ${dir} failed: ${out.slice(0, 800) || String(error)}`);
  }
}

/** Our own node_modules when the lockfiles agree (the usual case: a few commits apart), else `npm ci`. */
async function installDependencies(dir: string): Promise<void> {
  if (existsSync(join(dir, 'node_modules'))) return;
  const same = readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
  if (same) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  else await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
}

export async function checkoutRef(ref: string, log: (message: string) => void): Promise<Checkout> {
  const commit = await git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = join(tmpdir(), `wdapi-compare-${commit.slice(0, 12)}`);
  if (!existsSync(dir)) {
    log(`compare: checking out ${ref} (${commit.slice(0, 12)}) into ${dir}`);
    await git(['worktree', 'add', '--detach', dir, commit]);
  }
  await installDependencies(dir);
  log(`compare: compiling ${ref}`);
  await compile(dir);
  const child = CHILDREN.map((path) => join(dir, path)).find((path) => existsSync(path));
  if (!child) throw new Error(`${ref} has no bench service child (${CHILDREN.join(' or ')}); it predates the bench this comparison drives`);
  return { label: ref, commit, child };
}

/** This checkout, compiled the same way. */
export async function checkoutHead(): Promise<Checkout> {
  const build = await buildDist();
  if ('failure' in build) throw new Error(build.failure);
  const commit = await git(['rev-parse', 'HEAD']);
  const dirty = (await git(['status', '--porcelain', '--untracked-files=no'])) !== '';
  return { label: dirty ? 'working tree' : 'HEAD', commit, child: build.child };
}
