/**
 * The formula parser loads chevrotain's single-file bundle (core/formula/chevrotain.ts): one
 * value import of the package anywhere else would load its unbundled build (~700 lodash-es
 * modules) beside it, and the memory saved would be spent twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as bundled from '../../core/formula/chevrotain.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_DIRS = ['core', 'dialects', 'plugins', 'server', 'cli'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `import { … } from 'chevrotain'` without `type`, or a dynamic import of the package. */
const VALUE_IMPORT = /import\s+(?!type\b)[^;]*from\s+['"]chevrotain['"]|import\(\s*['"]chevrotain['"]\s*\)/;

describe('chevrotain bundle', () => {
  it('is the only place the service takes chevrotain values from', () => {
    const offenders = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .filter((file) => !file.endsWith(join('core', 'formula', 'chevrotain.ts')))
      .filter((file) => VALUE_IMPORT.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('is the installed release', () => {
    const entry = createRequire(import.meta.url).resolve('chevrotain');
    const installed = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(bundled.VERSION).toBe(installed.version);
    expect(typeof bundled.CstParser).toBe('function');
    expect(typeof bundled.createToken).toBe('function');
  });
});
