// The layering check behind test/ops/layering.test.ts and `npm run layering`.
//
// dependency-cruiser applies the rules of .dependency-cruiser.cjs (the room order lives there);
// this module turns its verdict into stable one-line strings, adds the folder-cycle check, and
// compares the result with the baseline of violations known today. The baseline may only shrink:
// a new violation fails, and so does an entry that no longer occurs.
//
//   npm run layering              print the violations by rule and the folder arrow count
//   npm run layering -- --update  rewrite the baseline from the code as it is
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { folderArrows, folderCycleArrows } from './layering-folders.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PRODUCT_FOLDERS = ['core', 'dialects', 'plugins', 'server', 'cli'];
/** bench/ is cruised for its own rooms (.dependency-cruiser.cjs), not counted as product code. */
const CRUISED_FOLDERS = [...PRODUCT_FOLDERS, 'bench'];
export const BASELINE_FILE = join(ROOT, 'test', 'ops', 'layering-baseline.json');

export interface LayeringReport {
  /** Every violation as `rule: from → to` (a file cycle as `rule: a → b → a`), sorted. */
  readonly violations: readonly string[];
  /** Distinct arrows between direct folders of product code (`core/query → core/schema`). */
  readonly folderArrowCount: number;
}

export interface BaselineDiff {
  /** Violations the baseline does not know: the change broke a rule. */
  readonly added: readonly string[];
  /** Baseline entries that no longer occur: remove them so the list only shrinks. */
  readonly stale: readonly string[];
}

/**
 * Cruises the product code under `root` (the repository, or a fixture tree in a test) with the
 * project's rules and tsconfig.
 */
export async function checkLayering(root: string = ROOT): Promise<LayeringReport> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
  const folders = CRUISED_FOLDERS.filter((folder) => existsSync(join(root, folder)));
  const { output } = await cruise(folders, { ...options, baseDir: root }, undefined, { tsConfig });
  if (typeof output === 'string') throw new Error('dependency-cruiser returned text, not a result');
  const edges = productEdges(output);
  const violations = [
    ...output.summary.violations.map(describeViolation),
    ...folderCycleArrows(edges).map((arrow) => `no-folder-cycle: ${arrow}`),
  ];
  return { violations: [...new Set(violations)].sort(), folderArrowCount: folderArrows(edges).length };
}

function describeViolation(violation: IViolation): string {
  if (violation.cycle === undefined) return `${violation.rule.name}: ${violation.from} → ${violation.to}`;
  return `${violation.rule.name}: ${describeCycle([violation.from, ...violation.cycle.map((step) => step.name)])}`;
}

/** A cycle written from its smallest file name, so the same cycle always reads the same. */
function describeCycle(closedPath: readonly string[]): string {
  const members = closedPath.slice(0, -1);
  const start = members.indexOf([...members].sort()[0] ?? '');
  const rotated = [...members.slice(start), ...members.slice(0, start)];
  return [...rotated, rotated[0]].join(' → ');
}

/** File-to-file imports among product modules (npm packages and node: modules left out). */
function productEdges(result: ICruiseResult): Array<readonly [string, string]> {
  const isProduct = (path: string): boolean => PRODUCT_FOLDERS.some((folder) => path.startsWith(`${folder}/`));
  return result.modules
    .filter((module) => isProduct(module.source))
    .flatMap((module) =>
      module.dependencies
        .filter((dependency) => isProduct(dependency.resolved))
        .map((dependency) => [module.source, dependency.resolved] as const),
    );
}

export async function readBaseline(): Promise<readonly string[]> {
  const parsed = JSON.parse(await readFile(BASELINE_FILE, 'utf8')) as { violations?: unknown };
  if (!Array.isArray(parsed.violations)) throw new Error(`${BASELINE_FILE}: "violations" is not a list`);
  return parsed.violations.map(String);
}

export async function writeBaseline(report: LayeringReport): Promise<void> {
  const body = {
    about:
      'Layering violations known when the rules came in. The list only shrinks: ' +
      'fix one, then run `npm run layering -- --update`. Never add to it by hand.',
    violations: report.violations,
  };
  await writeFile(BASELINE_FILE, `${JSON.stringify(body, null, 2)}\n`);
}

export function compareWithBaseline(report: LayeringReport, baseline: readonly string[]): BaselineDiff {
  const known = new Set(baseline);
  const found = new Set(report.violations);
  return {
    added: report.violations.filter((violation) => !known.has(violation)),
    stale: baseline.filter((entry) => !found.has(entry)),
  };
}

/** The violations counted per rule, for the report and the failure message. */
export function countByRule(violations: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const violation of violations) {
    const rule = violation.slice(0, violation.indexOf(':'));
    counts[rule] = (counts[rule] ?? 0) + 1;
  }
  return counts;
}

/** The message of a failed check: each new violation and each stale entry on its own line. */
export function describeDiff(diff: BaselineDiff, report: LayeringReport): string {
  return [
    ...diff.added.map((violation) => `new layering violation: ${violation}`),
    ...diff.stale.map((entry) => `no longer occurs, remove it from the baseline: ${entry}`),
    `(${report.folderArrowCount} folder-to-folder arrows; \`npm run layering -- --update\` rewrites the baseline)`,
  ].join('\n');
}

async function main(update: boolean): Promise<number> {
  const report = await checkLayering();
  console.log(JSON.stringify({ byRule: countByRule(report.violations), folderArrows: report.folderArrowCount }));
  if (update) {
    await writeBaseline(report);
    console.log(`baseline rewritten: ${report.violations.length} violations`);
    return 0;
  }
  const diff = compareWithBaseline(report, await readBaseline());
  if (diff.added.length === 0 && diff.stale.length === 0) return 0;
  console.error(describeDiff(diff, report));
  return 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.includes('--update'));
}
