/**
 * Whose budget a request spends (DESIGN §16): a verified credential's, else its address's.
 * API keys and the internal tokens issued for them share the key's budget (the token's subject
 * is the key id); external tokens are counted per issuer and subject.
 */
import type { Principal } from '../auth/shared/auth-plugin.ts';

export function credentialKey(principal: Principal): string {
  switch (principal.kind) {
    case 'admin':
      return 'admin';
    case 'owner':
      return `key:${principal.subject}`;
    case 'external':
      return `ext:${String(principal.claims.iss ?? '')}:${principal.subject}`;
  }
}

export function addressKey(address: string): string {
  return `ip:${address}`;
}
