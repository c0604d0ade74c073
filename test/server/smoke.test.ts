import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { vendorsToRun } from '../support/vendors.ts';

const vendors = await vendorsToRun();

describe.each(vendors)('record endpoints smoke on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target);
  });
  afterAll(async () => ws?.close());

  it('lists orders with the default page and meta', async () => {
    const res = await ws.call('GET', ws.records('/orders'));
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.meta).toMatchObject({ page: 0, size: 20, totalElements: 45, totalPages: 3 });
  });

  it('expands nested relationships', async () => {
    const res = await ws.call('GET', ws.records('/orders/1?expand=customer,customer.region'));
    expect(res.status).toBe(200);
    expect(res.body.data.customer.region).toEqual({ id: 1, name: 'North' });
  });
});
