/**
 * The admin application (DESIGN §15) served at `/admin/`: the files Vite built into
 * plugins/admin-app/ui/dist (`npm run build:admin`, run by `npm install`). The app routes by the
 * URL's hash, so the server only ever serves index.html and the hashed assets next to it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@koa/send';
import type { Context, Middleware, Next } from 'koa';

export const ADMIN_PATH = '/admin';

/**
 * Run from source (tsx) the built files sit beside this module; run from dist/ (`npm run build`)
 * they are still in the source tree, two folders up from dist/plugins/admin-app.
 */
function builtFilesDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [join(here, 'ui', 'dist'), join(here, '..', '..', '..', 'plugins', 'admin-app', 'ui', 'dist')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
}

/**
 * Scripts and styles only from this origin, no framing. Styles may be inline because the formula
 * editor (CodeMirror) injects its own style elements.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = 'The admin application is not built. Run `npm run build:admin` (npm install does it) and restart.';

export function adminAppMiddleware(dir: string = builtFilesDir()): Middleware {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path !== ADMIN_PATH && !ctx.path.startsWith(`${ADMIN_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === ADMIN_PATH) return ctx.redirect(`${ADMIN_PATH}/`);
    const file = ctx.path.slice(ADMIN_PATH.length + 1) || 'index.html';
    if (!existsSync(join(dir, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = NOT_BUILT;
      return;
    }
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    // Asset names carry a content hash, so they never change; index.html names the current ones.
    const asset = file.startsWith('assets/');
    ctx.set('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    // The build writes a .gz beside each file; @koa/send picks it for clients that accept gzip.
    ctx.vary('Accept-Encoding');
    try {
      await send(ctx, file, { root: dir });
    } catch (error) {
      if ((error as { status?: number }).status === 404) return next();
      throw error;
    }
  };
}
