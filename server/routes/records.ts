/** Record endpoints (spec "Record endpoints"): thin mapping from HTTP to core. */
import Router from '@koa/router';
import type { Context } from 'koa';
import { readScope, getRecord } from '../../core/query/read.ts';
import { parseReadRequestOnce, type QueryParams } from '../../core/query/parse-request.ts';
import { aggregateRecords } from '../../core/query/aggregate.ts';
import { parseAggregateRequest } from '../../core/query/aggregate-request.ts';
import { createRecord, deleteRecord, updateRecord } from '../../core/write/records.ts';
import { jsonBody } from '../middleware/json-body.ts';
import type { Services } from '../shared/services.ts';
import { dataAccess } from './context.ts';
import { param } from './params.ts';
import { answerList, exportRouteFormat, respondWithExport } from './export.ts';

function params(ctx: Context): { org: string; ws: string; entity: string; id: string } {
  return { org: param(ctx, 'org'), ws: param(ctx, 'ws'), entity: param(ctx, 'entity'), id: param(ctx, 'id') };
}

export function recordRoutes(services: Services): Router {
  const router = new Router({ prefix: '/api/v1/:org/:ws' });
  const body = jsonBody(services.settings.jsonLimitBytes);
  const options = { estimateThreshold: services.settings.countEstimateThreshold, cursorSecret: services.cursorSecret, maxResponseItems: services.settings.maxResponseItems, responseIdleTimeoutMs: services.settings.responseIdleTimeoutMs };

  router.get('/:entity', async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, false);
    await answerList(ctx, runtime, readScope(runtime, runtime.entity(p.entity).name, policies.read), options);
  });

  // Registered before get-by-id, which would otherwise take 'aggregate' for a record id (docs/query-planning.md, "Aggregates").
  router.get('/:entity/aggregate', async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, false);
    const request = parseAggregateRequest(ctx.query as QueryParams);
    ctx.body = await aggregateRecords(runtime.database, readScope(runtime, runtime.entity(p.entity).name, policies.read), request);
  });

  // Registered before get-by-id too; the export operation of the OpenAPI document (docs/openapi.md).
  router.get('/:entity/export', async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, false);
    await respondWithExport(ctx, runtime, readScope(runtime, runtime.entity(p.entity).name, policies.read), exportRouteFormat(ctx));
  });

  router.get('/:entity/:id', async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, false);
    const request = parseReadRequestOnce(ctx.querystring, () => ctx.query as QueryParams);
    ctx.body = { data: await getRecord(runtime.database, readScope(runtime, runtime.entity(p.entity).name, policies.read), request, p.id) };
  });

  router.post('/:entity', body, async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, true);
    const scope = readScope(runtime, runtime.entity(p.entity).name, policies.read);
    const request = parseReadRequestOnce(ctx.querystring, () => ctx.query as QueryParams);
    ctx.body = { data: await createRecord(runtime.database, scope, policies.write, ctx.request.body, request) };
    ctx.status = 201;
  });

  router.put('/:entity/:id', body, async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, true);
    const scope = readScope(runtime, runtime.entity(p.entity).name, policies.read);
    const request = parseReadRequestOnce(ctx.querystring, () => ctx.query as QueryParams);
    ctx.body = { data: await updateRecord(runtime.database, scope, policies.write, p.id, ctx.request.body, request) };
  });

  router.delete('/:entity/:id', async (ctx) => {
    const p = params(ctx);
    const { runtime, policies } = await dataAccess(ctx, services, p.org, p.ws, true);
    await deleteRecord(runtime.database, readScope(runtime, runtime.entity(p.entity).name, policies.read), p.id);
    ctx.status = 204;
  });

  return router;
}
