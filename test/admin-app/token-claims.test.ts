/**
 * The token check reads the checks the service did not reach from the token's own claims
 * (plugins/admin-app/ui/src/lib/jwt.ts `claimCheck`), instead of calling them "not reached".
 */
import { describe, expect, it } from 'vitest';
import { claimCheck } from '../../plugins/admin-app/ui/src/lib/jwt.ts';

const expected = { issuerUrl: 'https://idp.example/', audience: 'wdapi' };
const now = 1_800_000_000;

describe('token checks read from the claims', () => {
  it('tells iss, aud, exp and sub apart', () => {
    const good = { iss: 'https://idp.example/', aud: ['x', 'wdapi'], exp: now + 60, sub: 'u1' };
    for (const check of ['iss', 'aud', 'exp', 'sub'] as const) expect(claimCheck(check, good, expected, now)).toBe('passes');
    const bad = { iss: 'https://other/', aud: 'x', exp: now - 60, sub: '' };
    for (const check of ['iss', 'aud', 'exp', 'sub'] as const) expect(claimCheck(check, bad, expected, now)).toBe('fails');
  });

  it('leaves the signature to the service, and a token without claims unread', () => {
    expect(claimCheck('signature', { sub: 'u1' }, expected, now)).toBeNull();
    expect(claimCheck('exp', undefined, expected, now)).toBeNull();
  });

  it('passes aud when the provider names no audience, and allows 30 s of clock difference', () => {
    expect(claimCheck('aud', { aud: 'anything' }, { ...expected, audience: '' }, now)).toBe('passes');
    expect(claimCheck('exp', { exp: now - 10 }, expected, now)).toBe('passes');
  });
});
