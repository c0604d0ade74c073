/** Small helpers every route module shares. */
import type { Context } from 'koa';
import type { Services } from '../services.ts';

/** A path parameter ('' when absent; the routes' own lookups then answer 404). */
export function param(ctx: Context, name: string): string {
  return (ctx.params as Record<string, string>)[name] ?? '';
}

/** After a metadata change: every instance reloads within a second, this one at once. */
export async function metadataChanged(services: Services, workspaceId: string): Promise<void> {
  await services.store.bumpVersion(workspaceId);
  services.workspaces.invalidate(workspaceId);
}
