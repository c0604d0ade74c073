/**
 * Ratios of a side to its floor as the median of the per-round ratios. Sides take turns in short
 * rounds, so a round of one side and the same round of its floor ran seconds apart under the same
 * background load; a burst of load from a neighbour (this machine is shared) moves one round of one
 * side. Pooled over all rounds, that one round moved the verdict by up to ±15% (seen: the
 * same commit gave G 67%–96% and C's CPU 1.17x–1.49x); the median of the paired rounds sets it
 * aside. A side without rounds falls back to the pooled figures.
 */
import type { RoundFigures, SideResult } from './sides.ts';
import { median } from './stats.ts';

export type Figure = keyof RoundFigures;

/** `side[figure] / floor[figure]`, paired round by round, median over the rounds. */
export function pairedRatio(side: SideResult, floor: SideResult, figure: Figure): number {
  const count = Math.min(side.rounds.length, floor.rounds.length);
  if (count === 0) return side[figure] / floor[figure];
  const ratios = Array.from({ length: count }, (_, i) => (side.rounds[i]?.[figure] ?? Number.NaN) / (floor.rounds[i]?.[figure] ?? Number.NaN));
  return median(ratios);
}
