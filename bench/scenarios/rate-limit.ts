/**
 * Issue 18's measured requests; `--only J,K` (or `--only 18`) selects them.
 * J: scenario A through HAProxy in front of two compiled instances, beside one instance asked directly.
 * K: scenario C with the rate limit on and its counters in Redis, beside the same service without it.
 */
export type Group18 = 'J' | 'K';

export const GROUPS_18: readonly Group18[] = ['J', 'K'];

/** The design's bound on what rate limiting with Redis may cost scenario C (issue 18). */
export const RATE_LIMIT_COST_BOUND = 0.1;

export function selectGroups18(only: readonly string[] | null): Group18[] {
  if (!only) return [...GROUPS_18];
  const wanted = new Set(only.map((s) => s.trim().toUpperCase()));
  return GROUPS_18.filter((g) => wanted.has(g) || wanted.has('18'));
}
