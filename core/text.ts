/** Strings the service can store: the ground floor of every value and payload check. */

/** `String.prototype.isWellFormed` is in Node 20; the ES2023 lib this project compiles against does not declare it. */
interface WellFormedCheck {
  isWellFormed(): boolean;
}

/**
 * Why a string cannot be stored, or null. No text column of PostgreSQL can hold U+0000, and a lone
 * surrogate has no UTF-8 form (drivers would silently store U+FFFD); refusing both everywhere keeps
 * vendors alike (DESIGN §4). Two native scans: cheap enough for every cell of a bulk request.
 */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (!(text as unknown as WellFormedCheck).isWellFormed()) return 'must not contain a lone surrogate (such as \\ud800): it is not valid Unicode';
  return null;
}
