/** The OpenAPI document describes both aggregate operations (DESIGN §14) and stays valid OpenAPI 3.1. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';

describe('OpenAPI document: aggregates', () => {
  let ws: TestWorkspace;
  let doc: any;

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    doc = (await ws.call('GET', ws.records('/openapi.json'))).body;
  });
  afterAll(async () => ws?.close());

  it('is still valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
  });

  it('documents GET /{entity}/aggregate per entity and GET /api/data/<view slug>/aggregate, with their parameters and answer', () => {
    const names = (operation: { parameters: { name: string }[] }) => operation.parameters.map((p) => p.name).sort();
    const perEntity = doc.paths['/api/v1/acme/shop/orders/aggregate'].get;
    expect(perEntity.operationId).toBe('aggregateOrders');
    expect(names(perEntity)).toEqual(['filter', 'groupBy', 'metrics', 'page', 'size', 'sort', 'where']);
    expect(perEntity.parameters.find((p: { name: string }) => p.name === 'metrics').description).toContain('amount');
    const viewPath = Object.keys(doc.paths).find((path) => /^\/api\/data\/[a-z0-9-]+-orders\/aggregate$/.test(path)) ?? '';
    expect(viewPath, 'each view has its own aggregate path').not.toBe('');
    expect(names(doc.paths[viewPath].get)).toEqual(names(perEntity));
    expect(perEntity.responses[200].content['application/json'].schema.properties.data.items).toEqual({ $ref: '#/components/schemas/AggregateRow' });
    expect(Object.keys(doc.components.schemas.AggregateRow.properties).sort()).toEqual(['avg', 'count', 'countDistinct', 'group', 'max', 'min', 'sum']);
    expect(doc.components.schemas.AggregateMeta.required).toEqual(['page', 'size', 'totalElements']);
  });
});
