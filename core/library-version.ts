/**
 * The installed version of a library whose internals a `*-patch.ts` module reaches into. A patch
 * applies only to the version it was written against, so each one compares this with its own pin
 * and falls back to the library's documented path on any other version (or when it cannot tell).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Walks up from the package's entry file to its own package.json (not every package exports it). */
export function installedVersion(name: string): string | null {
  try {
    let dir = dirname(require.resolve(name));
    for (;;) {
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (manifest.name === name) return manifest.version ?? null;
      } catch {
        // no package.json here (a dist subfolder): keep walking up
      }
      const parent = dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  } catch {
    return null;
  }
}
