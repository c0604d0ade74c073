/**
 * OAuth 2.0 token endpoint (client_credentials, RFC 6749 §4.4) and the instance's OIDC discovery
 * and JWKS documents. Not enveloped: other tools read them as they are (DESIGN §12).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { issueAccessToken, jwksDocument, type InternalIssuer } from '../../plugins/auth/internal-oauth/internal-oauth-plugin.ts';
import { tokenFormBody } from '../middleware/token-form.ts';
import type { Services } from '../shared/services.ts';

function oauthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.body = { error, error_description: description };
  if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="oauth"');
}

function basicCredentials(header: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

export function oauthRoutes(services: Services, issuer: InternalIssuer): Router {
  const router = new Router();
  const form = tokenFormBody(16 * 1024);

  router.post('/oauth/token', form, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    ctx.set('Cache-Control', 'no-store');
    if (body.grant_type !== 'client_credentials') {
      oauthError(ctx, 400, 'unsupported_grant_type', 'only client_credentials is supported');
      return;
    }
    const basic = basicCredentials(ctx.get('authorization'));
    const id = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    if (typeof id !== 'string' || typeof secret !== 'string') {
      oauthError(ctx, 400, 'invalid_request', 'client_id and client_secret are required');
      return;
    }
    const grant = await issueAccessToken(services.apiKeys, issuer, id, secret);
    if (!grant) {
      oauthError(ctx, 401, 'invalid_client', 'unknown client or wrong secret');
      return;
    }
    ctx.body = grant;
  });

  router.get('/.well-known/openid-configuration', (ctx) => {
    const base = issuer.issuer().replace(/\/+$/, '');
    ctx.body = {
      issuer: issuer.issuer(),
      token_endpoint: `${base}/oauth/token`,
      jwks_uri: `${base}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      id_token_signing_alg_values_supported: ['ES256'],
    };
  });

  router.get('/.well-known/jwks.json', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = jwksDocument(issuer);
  });

  return router;
}
