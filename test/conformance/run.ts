/**
 * The conformance kit: `npm run conformance -- --dialect <module> --url <database url> [--only http,formula,parity]`.
 * Runs the shared HTTP suites, the formula differential property and PGlite parity against a
 * dialect plugin's database (docs/dialects.md, "Conformance kit"), prints a summary and exits
 * non-zero when anything failed. The plugin reaches the suites through environment variables.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startVitest } from 'vitest/node';
import type { TestModule } from 'vitest/node';
import { DIALECT_ENV, loadPluginModule, URL_ENV } from './plugin.ts';

/** The kit's parts and the suites each runs; every suite is a shared one the normal run uses too. */
export const PARTS: Record<string, readonly string[]> = {
  http: [
    'test/server/list-and-get.test.ts',
    'test/server/fields.test.ts',
    'test/server/filter.test.ts',
    'test/server/where.test.ts',
    'test/server/sort.test.ts',
    'test/server/cursor.test.ts',
    'test/server/expand.test.ts',
    'test/server/expand-arrays.test.ts',
    'test/server/create.test.ts',
    'test/server/update-delete.test.ts',
    'test/server/query-params.test.ts',
    'test/server/auth-and-errors.test.ts',
    'test/write/bulk.test.ts',
    'test/import/import.test.ts',
  ],
  formula: ['test/formula/properties.test.ts', 'test/server/where.property.test.ts', 'test/server/cursor-properties.test.ts', 'test/server/expand-arrays.property.test.ts'],
  parity: ['test/parity.test.ts'],
  /** A quick subset (paging, envelopes, formulas) for the kit's own test; not a conformance claim. */
  smoke: ['test/server/list-and-get.test.ts', 'test/formula/properties.test.ts'],
};

/** What runs without --only: every part but the smoke subset, which they include. */
const DEFAULT_PARTS = ['http', 'formula', 'parity'];

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}

/**
 * Counts tests and collects every failure: a failed test, and also an error outside any test
 * (an import, a beforeAll), which vitest reports by skipping the tests it stopped.
 */
function tally(modules: readonly TestModule[]): Tally {
  const out: Tally = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const module of modules) {
    for (const error of module.errors()) out.failures.push(`${module.moduleId}: ${error.message}`);
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors()) out.failures.push(`${suite.fullName}: ${error.message}`);
    }
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') out.passed++;
      else if (state === 'failed') {
        out.failed++;
        out.failures.push(test.fullName);
      } else out.skipped++;
    }
    if (module.state() === 'failed' && out.failures.length === 0) out.failures.push(`${module.moduleId}: failed`);
  }
  return out;
}

function parse(): { dialect: string; url: string; parts: string[] } {
  const { values } = parseArgs({ options: { dialect: { type: 'string' }, url: { type: 'string' }, only: { type: 'string' } } });
  if (!values.dialect || !values.url) throw new Error('usage: npm run conformance -- --dialect <module path> --url <database url> [--only http,formula,parity,smoke]');
  const parts = values.only ? values.only.split(',').map((p) => p.trim()) : DEFAULT_PARTS;
  const unknown = parts.filter((p) => !(p in PARTS));
  if (unknown.length > 0) throw new Error(`unknown part ${unknown.join(', ')}: the parts are ${Object.keys(PARTS).join(', ')}`);
  // npm runs scripts in the package folder; a relative path means the caller's folder.
  const base = process.env.INIT_CWD ?? process.cwd();
  return { dialect: isAbsolute(values.dialect) ? values.dialect : resolve(base, values.dialect), url: values.url, parts };
}

async function main(): Promise<number> {
  const { dialect, url, parts } = parse();
  // Fail on a bad module before starting any suite.
  const { dialect: loaded } = await loadPluginModule(dialect);
  process.env[DIALECT_ENV] = dialect;
  process.env[URL_ENV] = url;
  const files = parts.flatMap((p) => PARTS[p] ?? []);
  const vitest = await startVitest('test', files, { run: true, watch: false, passWithNoTests: false });
  const result = tally(vitest.state.getTestModules());
  const unhandled = vitest.state.getUnhandledErrors().length;
  await vitest.close();
  const ok = result.failed === 0 && result.failures.length === 0 && unhandled === 0 && result.passed > 0;
  console.log(`\nConformance of dialect '${loaded.name}' (${dialect}) on ${url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')}`);
  console.log(`  parts: ${parts.join(', ')} (${files.length} suites)`);
  console.log(`  tests: ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped${unhandled ? `, ${unhandled} unhandled errors` : ''}`);
  for (const failure of result.failures.slice(0, 50)) console.log(`  FAILED ${failure}`);
  console.log(ok ? 'CONFORMANCE: PASS' : 'CONFORMANCE: FAIL');
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    console.log('CONFORMANCE: FAIL');
    process.exit(2);
  },
);
