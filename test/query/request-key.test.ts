/**
 * The compiled-read cache's key (core/query/request-key.ts): requests that differ in any one member,
 * or inside one member's Maps, never share a key; equal requests always do. The variants table names
 * every ReadRequest member, so a member added later fails tsc here until it has a variant.
 */
import { describe, expect, it } from 'vitest';
import { requestKey } from '../../core/query/request-key.ts';
import type { ArrayRequests, ReadRequest } from '../../core/query/request.ts';

const base = (): ReadRequest => ({
  page: 0,
  size: 20,
  sort: [{ path: ['id'], direction: 'asc' }],
  expand: null,
  fields: null,
  filters: [{ path: ['status'], op: 'eq', value: 'paid' }],
  count: null,
});

const arrays = (over: Partial<ArrayRequests> = {}): ArrayRequests => ({
  size: new Map([['orders', 5]]),
  sort: new Map([['orders', [{ path: ['amount'], direction: 'desc' as const }]]]),
  where: new Map([['orders', "status = 'paid'"]]),
  ...over,
});

const VARIANTS = {
  page: { page: 1 },
  size: { size: 21 },
  sort: { sort: [{ path: ['id'], direction: 'desc' }] },
  expand: { expand: [['customer']] },
  fields: { fields: [['id']] },
  filters: { filters: [{ path: ['status'], op: 'neq', value: 'paid' }] },
  count: { count: 'none' },
  where: { where: 'id > 1' },
  paging: { paging: { mode: 'cursor', after: null } },
  arrays: { arrays: arrays() },
} satisfies Record<keyof ReadRequest, Partial<ReadRequest>>;

describe('request key', () => {
  it('differs when any one member differs', () => {
    const keys = new Map<string, string>([['base', requestKey(base())]]);
    for (const [member, change] of Object.entries(VARIANTS)) keys.set(member, requestKey({ ...base(), ...change }));
    const seen = new Map<string, string>();
    for (const [member, key] of keys) {
      expect(seen.get(key), `${member} has the key of ${seen.get(key)}`).toBeUndefined();
      seen.set(key, member);
    }
  });

  it('differs inside the array options, whose members are Maps', () => {
    const variants = [
      arrays(),
      arrays({ size: new Map([['orders', 6]]) }),
      arrays({ size: new Map([['orders.items', 5]]) }),
      arrays({ sort: new Map([['orders', [{ path: ['amount'], direction: 'asc' as const }]]]) }),
      arrays({ sort: new Map() }),
      arrays({ where: new Map([['orders', "status = 'new'"]]) }),
      arrays({ where: new Map() }),
    ];
    const keys = variants.map((a) => requestKey({ ...base(), arrays: a }));
    expect(new Set(keys).size).toBe(variants.length);
  });

  it('differs in a paging cursor and in each part of a filter', () => {
    const keys = [
      requestKey({ ...base(), paging: { mode: 'cursor', after: 'a' } }),
      requestKey({ ...base(), paging: { mode: 'cursor', after: 'b' } }),
      requestKey({ ...base(), filters: [{ path: ['status'], op: 'eq', value: 'new' }] }),
      requestKey({ ...base(), filters: [{ path: ['code'], op: 'eq', value: 'paid' }] }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is equal for equal requests built apart', () => {
    const a = { ...base(), arrays: arrays(), where: 'id > 1', paging: { mode: 'cursor' as const, after: 'x' } };
    const b = { ...base(), arrays: arrays(), where: 'id > 1', paging: { mode: 'cursor' as const, after: 'x' } };
    expect(requestKey(a)).toBe(requestKey(b));
  });
});
