/**
 * authenticate() asks the plugins in order and the first that recognises the token decides,
 * whether a plugin answers at once or with a promise; a promise only when one answered with one.
 */
import { describe, expect, it } from 'vitest';
import { authenticate, bearerToken } from '../../../plugins/auth/authorize.ts';
import type { AuthAnswer, AuthPlugin, AuthRequest, Principal } from '../../../plugins/auth/shared/auth-plugin.ts';

const WS = '6f1c1a52-3a8e-4a57-9f61-1f0e2b1c9d10';
const owner = (subject: string): Principal => ({ kind: 'owner', workspaceId: WS, subject });

/** Recognises tokens starting with `prefix`; `later` answers through a promise; records what it was asked. */
function plugin(prefix: string, later: boolean, asked: AuthRequest[]): AuthPlugin {
  return {
    name: prefix,
    authenticate(request): AuthAnswer {
      asked.push(request);
      const answer = request.token.startsWith(prefix) ? owner(prefix) : null;
      return later ? Promise.resolve(answer) : answer;
    },
  };
}

describe('authenticate', () => {
  it('takes the first plugin that recognises the token, through promises or without', async () => {
    for (const [laterA, laterB] of [[false, false], [false, true], [true, false], [true, true]] as const) {
      const asked: AuthRequest[] = [];
      const plugins = [plugin('a_', laterA, asked), plugin('b_', laterB, asked)];
      const first = authenticate(plugins, 'a_token', WS);
      expect(first instanceof Promise).toBe(laterA);
      expect(await first).toEqual(owner('a_'));
      const second = authenticate(plugins, bearerToken('bearer   b_token '), WS);
      expect(second instanceof Promise).toBe(laterA || laterB);
      expect(await second).toEqual(owner('b_'));
      expect(asked).toEqual([{ token: 'a_token', workspaceId: WS }, { token: 'b_token', workspaceId: WS }, { token: 'b_token', workspaceId: WS }]);
    }
  });

  it('refuses a token no plugin recognises', async () => {
    const asked: AuthRequest[] = [];
    expect(() => authenticate([plugin('a_', false, asked)], 'c_token')).toThrow(/invalid or unknown credential/);
    await expect(authenticate([plugin('a_', true, asked)], 'c_token')).rejects.toThrow(/invalid or unknown credential/);
    expect(() => bearerToken(undefined)).toThrow(/missing bearer token/);
    expect(asked).toEqual([{ token: 'c_token' }, { token: 'c_token' }]);
  });

  it('a plugin that refuses a token of its kind decides, later plugins are not asked', async () => {
    const asked: AuthRequest[] = [];
    const refusing: AuthPlugin = { name: 'refusing', authenticate: () => Promise.reject(new Error('invalid key')) };
    await expect(authenticate([refusing, plugin('a_', false, asked)], 'a_token')).rejects.toThrow('invalid key');
    expect(asked).toEqual([]);
  });
});
