/**
 * The gate in front of every identity-provider fetch, on its own with a fake
 * clock: concurrent callers share one attempt, a failure is answered from memory until its
 * backoff has passed, the backoff doubles up to its maximum, and a success forgets the failures.
 * The HTTP behaviour is in idp-outage.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FailureGate } from '../../../plugins/auth/external-jwt/failure-gate.ts';

function setup() {
  let now = 1_000_000;
  let attempts = 0;
  let fail = true;
  const gate = new FailureGate({ initialMs: 1000, maxMs: 5000, now: () => now });
  const attempt = async () => {
    attempts += 1;
    await Promise.resolve();
    if (fail) throw new Error(`failure ${attempts}`);
    return `ok ${attempts}`;
  };
  return {
    gate,
    run: () => gate.run('issuer', attempt),
    advance: (ms: number) => (now += ms),
    attempts: () => attempts,
    heal: () => (fail = false),
  };
}

describe('FailureGate', () => {
  it('shares one attempt among concurrent callers', async () => {
    const s = setup();
    s.heal();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.run()));
    expect(new Set(results)).toEqual(new Set(['ok 1']));
    expect(s.attempts()).toBe(1);
  });

  it('answers a failure from memory until the backoff has passed, doubling it up to the maximum', async () => {
    const s = setup();
    await expect(s.run()).rejects.toThrow('failure 1');
    for (const [failures, wait] of [[1, 1000], [2, 2000], [3, 4000], [4, 5000], [5, 5000]] as const) {
      s.advance(wait - 1);
      await expect(s.run()).rejects.toThrow(`failure ${failures}`);
      expect(s.attempts()).toBe(failures);
      s.advance(1);
      await expect(s.run()).rejects.toThrow(`failure ${failures + 1}`);
    }
  });

  it('keeps keys apart and forgets the failures after a success', async () => {
    const s = setup();
    await expect(s.run()).rejects.toThrow('failure 1');
    expect(await s.gate.run('other issuer', async () => 'fine')).toBe('fine');
    s.heal();
    await expect(s.run()).rejects.toThrow('failure 1');
    s.advance(1000);
    expect(await s.run()).toBe('ok 2');
    expect(await s.run()).toBe('ok 3');
  });
});
