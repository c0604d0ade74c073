/**
 * chevrotain, loaded from the single-file build its package ships (lib/chevrotain.mjs).
 *
 * Why: the package's entry point is its unbundled ESM build, which pulls in lodash-es module by
 * module (about 700 modules); loading it costs about 30 MB of resident memory in every process,
 * the bundle about 4 MB. The package's `exports` map does not list the bundle, so it is found
 * beside the entry point. Same release, same API; types come from the package as usual.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Chevrotain = typeof import('chevrotain');

/** `…/chevrotain/lib/src/api.js` → `…/chevrotain/lib/chevrotain.mjs`. */
function bundlePath(): string {
  const entry = createRequire(import.meta.url).resolve('chevrotain');
  return join(dirname(entry), '..', 'chevrotain.mjs');
}

const chevrotain = (await import(pathToFileURL(bundlePath()).href)) as Chevrotain;

export const { createToken, Lexer, CstParser, EOF } = chevrotain;
