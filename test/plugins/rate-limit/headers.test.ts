/** The RateLimit-* and Retry-After headers of one decision (DESIGN §16). */
import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from '../../../plugins/rate-limit/decision.ts';

describe('rateLimitHeaders', () => {
  it('an allowed request gets the limit, what is left and the seconds to the reset, no Retry-After', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 10, remaining: 7, resetMs: 42_300 })).toEqual({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '7', 'RateLimit-Reset': '43' });
  });

  it('a refusal adds Retry-After, equal to the reset', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetMs: 5_001 })).toEqual({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '6', 'Retry-After': '6' });
  });

  it('never says 0 seconds (a client would retry at once) nor a negative remainder', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 3, remaining: -4, resetMs: 0 })).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1', 'Retry-After': '1' });
  });
});
