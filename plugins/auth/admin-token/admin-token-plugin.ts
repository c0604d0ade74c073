/** The instance admin token: may call every admin route and acts as owner everywhere (DESIGN §12). */
import type { AuthPlugin, AuthRequest, Principal } from '../shared/auth-plugin.ts';
import { sameHash } from '../shared/secrets.ts';

export function adminTokenPlugin(adminTokenHash: string): AuthPlugin {
  return {
    name: 'admin-token',
    authenticate(request: AuthRequest): Principal | null {
      if (!request.token.startsWith('wda_')) return null;
      return sameHash(request.token, adminTokenHash) ? { kind: 'admin', subject: 'admin' } : null;
    },
  };
}
