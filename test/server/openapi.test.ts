import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { pgliteTarget } from '../support/vendors.ts';

describe('OpenAPI document of a workspace', () => {
  let ws: TestWorkspace;
  let doc: any;

  beforeAll(async () => {
    ws = await startWorkspace(pgliteTarget);
    await ws.call('POST', '/api/columns', {
      body: { viewUuid: (await ws.call('GET', ws.admin('/views'))).body.data.find((v: any) => v.entity === 'orders').uuid, displayName: 'Total', formula: 'amount * quantity' },
    });
    const res = await ws.call('GET', ws.records('/openapi.json'));
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => ws?.close());

  it('is valid OpenAPI 3.1 according to a real validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every entity with field types, nullability and read-only computed columns', () => {
    const order = doc.components.schemas.Orders.properties;
    expect(order.amount).toEqual({ type: 'number' });
    expect(order.note).toEqual({ type: ['string', 'null'] });
    expect(order.orderedAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(order.total).toMatchObject({ type: ['number', 'null'], readOnly: true });
    expect(order.createdAt.readOnly).toBe(true);
    expect(doc.components.schemas.OrdersInput.required).toEqual(expect.arrayContaining(['customerId', 'amount', 'orderedAt']));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/acme/shop/orders', '/api/v1/acme/shop/orders/{id}', '/api/v1/acme/shop/customers']));
    expect(doc.components.securitySchemes.bearer.scheme).toBe('bearer');
  });

  it('documents cursor paging: the paging and after parameters and meta.nextCursor', () => {
    const names = (doc.paths['/api/v1/acme/shop/orders'].get.parameters as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['page', 'paging', 'after']));
    const paging = doc.paths['/api/v1/acme/shop/orders'].get.parameters.find((p: { name: string }) => p.name === 'paging');
    expect(paging.schema.enum).toEqual(['offset', 'cursor']);
    expect(doc.components.schemas.Meta.properties.nextCursor.type).toEqual(['string', 'null']);
    expect(doc.components.schemas.Meta.properties.page.type).toEqual(['integer', 'null']);
  });

  it('documents where on the list operation only', () => {
    const names = (operation: { parameters?: { name: string }[] }) => (operation.parameters ?? []).map((p) => p.name);
    const whereParam = doc.paths['/api/v1/acme/shop/orders'].get.parameters.find((p: { name: string }) => p.name === 'where');
    expect(whereParam).toMatchObject({ in: 'query', schema: { type: 'string', maxLength: 4096 } });
    expect(whereParam.description).toContain('64');
    expect(names(doc.paths['/api/v1/acme/shop/orders/{id}'].get)).not.toContain('where');
    expect(names(doc.paths['/api/v1/acme/shop/orders'].post)).not.toContain('where');
  });

  it('documents one-to-many expansion: arrays, expandSize/expandSort/expandWhere and meta.expandSizes', () => {
    const names = (doc.paths['/api/v1/acme/shop/customers/{id}'].get.parameters as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['expand', 'expandSize', 'expandSort', 'expandWhere']));
    const size = doc.paths['/api/v1/acme/shop/customers'].get.parameters.find((p: { name: string }) => p.name === 'expandSize');
    expect(size).toMatchObject({ style: 'deepObject', schema: { additionalProperties: { minimum: 1, maximum: 1000, default: 20 } } });
    expect(doc.components.schemas.Customers.properties.orders).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Orders' } });
    expect(doc.components.schemas.Meta.properties.expandSizes.type).toBe('object');
  });

  it('documents what the admin application relies on: column position, the migration flag read, the job list, the encoded mapping header', () => {
    const patch = doc.paths['/api/columns/item/{uuid}'].patch;
    expect(patch.requestBody.content['application/json'].schema.properties.position).toMatchObject({ type: 'integer', minimum: 0 });
    expect(doc.components.schemas.Column.required).toContain('position');
    expect(doc.paths['/api/admin/v1/orgs/acme/workspaces/shop/entities/{entity}/migration'].get.responses[200].content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/MigrationFlag' });
    const jobs = doc.paths['/api/imports'].get;
    expect(jobs.parameters.map((p: { name: string }) => p.name)).toEqual(['org', 'ws', 'state', 'size']);
    expect(doc.components.schemas.ImportJobListItem.properties.state.enum).toEqual(['RUNNING', 'DONE', 'FAILED', 'INTERRUPTED']);
    const mapping = doc.paths['/api/data/import/{viewUuid}'].post.parameters.find((p: { name: string }) => p.name === 'X-Import-Mapping');
    expect(mapping).toMatchObject({ in: 'header' });
    expect(mapping.description).toContain('percent-encoded');
  });

  it('needs a credential of the workspace', async () => {
    expect((await ws.call('GET', ws.records('/openapi.json'), { token: null })).status).toBe(401);
  });

  // Last: type-checking blocks the event loop for seconds, which can stale pooled HTTP connections.
  it('generates a typed client that type-checks against real usage', async () => {
    const types = astToString(await openapiTS(doc));
    const dir = mkdtempSync(join(tmpdir(), 'wdapi-openapi-'));
    writeFileSync(join(dir, 'api.ts'), types);
    writeFileSync(join(dir, 'use.ts'), `
      import type { components, paths } from './api';
      type Order = components['schemas']['Orders'];
      const o: Order = { id: 1, amount: 2.5, total: null, note: null, customerId: 3 };
      type ListOk = paths['/api/v1/acme/shop/orders']['get']['responses'][200]['content']['application/json'];
      const page: ListOk = { data: [o], meta: { page: 0, size: 20, totalElements: 1, totalPages: 1, countMode: 'exact' } };
      // @ts-expect-error amount is a number
      const bad: Order = { amount: 'x' };
      export { page, bad };
    `);
    const program = ts.createProgram([join(dir, 'use.ts')], { strict: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022 });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
