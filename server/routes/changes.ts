/** The changes feed (docs/change-events.md): one page of events after a position, owners only for now. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { readChanges, readChangesRequest, requireEventsOn } from '../../core/events/feed.ts';
import type { WorkspaceRuntime } from '../../core/workspace/runtime.ts';
import type { Services } from '../shared/services.ts';
import { dataAccess, ownerAccess } from './context.ts';
import { param } from './params.ts';

/** External users get 403 until the feed applies RLS to each event's record. */
async function ownedRuntime(ctx: Context, services: Services): Promise<WorkspaceRuntime> {
  const { runtime } = await dataAccess(ctx, services, param(ctx, 'org'), param(ctx, 'ws'), false);
  await ownerAccess(ctx, services, runtime.workspace.id);
  return runtime;
}

function idFieldOf(runtime: WorkspaceRuntime): (entity: string) => string | undefined {
  return (entity) => runtime.model.entities.get(entity)?.idField.name;
}

export function changesRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/v1/:org/:ws' });

  router.get('/changes', async (ctx) => {
    const runtime = await ownedRuntime(ctx, services);
    const request = readChangesRequest(ctx.query);
    ctx.body = await readChanges(runtime.database, runtime.workspace.id, null, request, idFieldOf(runtime));
  });

  router.get('/:entity/changes', async (ctx) => {
    const runtime = await ownedRuntime(ctx, services);
    const entity = runtime.entity(param(ctx, 'entity'));
    requireEventsOn(entity.name, runtime.entityRecord(entity.name).options);
    const request = readChangesRequest(ctx.query);
    ctx.body = await readChanges(runtime.database, runtime.workspace.id, entity.name, request, idFieldOf(runtime));
  });

  return router;
}
