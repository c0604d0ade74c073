import { describe, expect, it } from 'vitest';
import type { RoundFigures, SideResult } from '../../bench/harness/sides.ts';
import { pairedRatio } from '../../bench/harness/paired.ts';

function side(rounds: RoundFigures[], pooled: Partial<SideResult> = {}): SideResult {
  return { label: 's', rps: 100, p50: 1, p99: 2, requests: 300, errors: 0, cpuMicros: 200, rounds, ...pooled };
}
const round = (rps: number, cpuMicros = 100, p99 = 1): RoundFigures => ({ rps, p99, cpuMicros });

describe('pairedRatio', () => {
  it('is the median of the per-round ratios, so one disturbed round does not move it', () => {
    const floor = side([round(100), round(100), round(100)]);
    // Round 2 of the subject ran during a neighbour's burst.
    expect(pairedRatio(side([round(90), round(40), round(85)]), floor, 'rps')).toBeCloseTo(0.85);
  });

  it('pairs rounds by position: a floor round slowed alike cancels out', () => {
    const floor = side([round(100, 100), round(50, 200), round(100, 100)]);
    expect(pairedRatio(side([round(80, 120), round(40, 240), round(80, 130)]), floor, 'cpuMicros')).toBeCloseTo(1.2);
    expect(pairedRatio(side([round(80), round(40), round(80)]), floor, 'rps')).toBeCloseTo(0.8);
  });

  it('averages the two middle ratios of an even count', () => {
    const floor = side([round(100), round(100), round(100), round(100)]);
    expect(pairedRatio(side([round(70), round(80), round(90), round(10)]), floor, 'rps')).toBeCloseTo(0.75);
  });

  it('falls back to the pooled figures without rounds', () => {
    expect(pairedRatio(side([], { rps: 80 }), side([], { rps: 100 }), 'rps')).toBeCloseTo(0.8);
  });
});
