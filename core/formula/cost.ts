/**
 * The cost bound of a formula (DESIGN §11): what a formula computes per row must stay linear in
 * what it reads. Text is the one value that can grow faster than the formula is long: REPLACE
 * multiplies its input by up to |replacement| / |search| without the formula repeating anything,
 * so REPLACE nested k times can double a value k times (30 levels asked the database for
 * gigabytes). CONCAT and `||` only add what the formula itself writes, so they keep the largest
 * growth of their parts.
 *
 * Each node gets a growth factor: an upper bound of its output's length over the total length of
 * the values and literals it reads. The first call (innermost first) whose factor passes
 * MAX_TEXT_GROWTH is refused with its position.
 */
import { childrenOf, type Expr } from './ast.ts';
import { formulaError, positionOf } from './errors.ts';

/** Most a formula's text may grow over what it reads (a 1 KB value may become 1 MB at most). */
export const MAX_TEXT_GROWTH = 1000;

/**
 * A replacement that is not a literal has no length the checker knows; it is counted as this
 * many characters per character searched for, so two such REPLACE in a row pass and four do not.
 */
const UNKNOWN_REPLACEMENT_CHARS = 16;

function literalLength(node: Expr | undefined): number | null {
  return node?.kind === 'String' ? node.value.length : null;
}

/** How much one REPLACE(s, search, replacement) may multiply the length of `s`. */
function replaceFactor(search: Expr | undefined, replacement: Expr | undefined, replacementGrowth: number): number {
  const searched = literalLength(search);
  if (searched === 0) return 1; // an empty search replaces nothing, on every vendor and in the evaluator
  const written = literalLength(replacement) ?? UNKNOWN_REPLACEMENT_CHARS * replacementGrowth;
  return Math.max(1, written / (searched ?? 1));
}

function tooCostly(node: Expr): Error {
  const position = positionOf(node);
  return formulaError(
    'too_costly',
    `the call at column ${position.column} is too costly: its text may grow more than ${MAX_TEXT_GROWTH}-fold over what it reads (nested REPLACE)`,
    position,
  );
}

/** The growth factor of `node`; throws INVALID_FORMULA at the first node past the bound. */
function growthOf(node: Expr): number {
  const below = childrenOf(node).map(growthOf);
  const widest = Math.max(1, ...below);
  if (node.kind !== 'Call' || node.name !== 'REPLACE') return widest;
  const [, search, replacement] = node.args;
  const growth = (below[0] ?? 1) * replaceFactor(search, replacement, below[2] ?? 1);
  if (growth > MAX_TEXT_GROWTH) throw tooCostly(node);
  return growth;
}

/** Refuses a formula whose text may grow beyond MAX_TEXT_GROWTH (gate 1's cost bound). */
export function checkCost(ast: Expr): void {
  growthOf(ast);
}
