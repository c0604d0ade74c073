/**
 * The cursor law at full precision: a cursor walk yields every row exactly once, in the order
 * of the unpaged list, when the sort key holds more digits than the wire shows. Timestamps carry
 * microseconds on PostgreSQL and MariaDB while the wire stops at milliseconds; the trap is a seek
 * `k > '…123Z'` against a row of `…123456`, which repeats it ascending and skips rows descending.
 * Wide decimals, doubles a digit apart, single-precision floats and dates are walked as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { expectList, idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { sync } from '../support/import-calls.ts';

const vendors = await vendorsToRun();

/** Fractions of one second: several inside one millisecond, equal millisecond prefixes, ties. */
const FRACTIONS = ['123456', '123400', '123999', '123000', '123456', '124001', '000001', '999999', '123457', '123455', '500000', '500001', '123456'];

const DECIMALS = [
  '123456789012345678.000000000001', '123456789012345678.000000000002', '123456789012345678.000000000000', '123456789012345678.000000000001',
  '0.000000000001', '-0.000000000001', '0.000000000000', '999999999999999999.999999999999', '0.000000000002',
];

const DOUBLES = [0.1, 0.30000000000000004, 0.3, 0.10000000000000002, 1e-300, 5e-324, 0, 123456789.12345679, 123456789.1234568, 0.1, 2 / 3];

const REALS = [0.1, 0.2, 0.3, 1 / 3, 0.1, 16777217, 16777216, 2 / 3];

interface Row {
  stamp: string;
  loose: string | null;
  day: string | null;
  amount: string | null;
  ratio: number | null;
  small: number | null;
}

/** 26 rows: every list cycled, with NULLs sprinkled into the nullable columns. */
function rows(): Row[] {
  return Array.from({ length: 26 }, (_, i) => {
    const second = i % 3 === 0 ? '00' : '01';
    return {
      stamp: `2026-11-22 10:00:${second}.${FRACTIONS[i % FRACTIONS.length]}`,
      loose: i % 5 === 4 ? null : `2026-11-22 10:00:00.${FRACTIONS[(i * 7) % FRACTIONS.length]}`,
      day: i % 6 === 5 ? null : `2026-11-${String(20 + (i % 3)).padStart(2, '0')}`,
      amount: i % 7 === 6 ? null : (DECIMALS[i % DECIMALS.length] ?? null),
      ratio: i % 8 === 7 ? null : (DOUBLES[i % DOUBLES.length] ?? null),
      small: i % 9 === 8 ? null : (REALS[i % REALS.length] ?? null),
    };
  });
}

async function createTable(ws: TestWorkspace): Promise<void> {
  const mariadb = ws.vendor === 'mariadb';
  const types = mariadb
    ? { stamp: 'datetime(6)', date: 'date', decimal: 'decimal(30,12)', double: 'double', real: 'float' }
    : { stamp: 'timestamptz(6)', date: 'date', decimal: 'numeric(30,12)', double: 'double precision', real: 'real' };
  const loose = mariadb ? 'datetime(6)' : 'timestamp(6)';
  await ws.db.query(`CREATE TABLE ${ws.db.table('ticks')} (id ${ws.db.sql.autoId}, stamp ${types.stamp} NOT NULL, loose ${loose} NULL,
    day ${types.date} NULL, amount ${types.decimal} NULL, ratio ${types.double} NULL, small ${types.real} NULL)`);
  const zone = mariadb ? '' : '+00';
  for (const row of rows()) {
    const values = [`${row.stamp}${zone}`, row.loose, row.day, row.amount, row.ratio, row.small];
    const params = values.map((_, i) => ws.db.sql.param(i + 1)).join(', ');
    await ws.db.query(`INSERT INTO ${ws.db.table('ticks')} (stamp, loose, day, amount, ratio, small) VALUES (${params})`, values);
  }
  await sync(ws);
}

describe.each(vendors)('cursor walks are exact at full precision on $name', (target) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await startWorkspace(target, { fixture: false });
    await createTable(ws);
  });
  afterAll(async () => ws?.close());

  const list = (params: readonly (readonly [string, string | number])[]) => ws.call('GET', ws.records(`/ticks${query(params)}`));

  /** Adds a computed column to the default view of ticks; returns its uuid. */
  async function addComputed(displayName: string, formula: string): Promise<string> {
    const views = (await ws.call('GET', ws.admin('/views'), { token: ADMIN_TOKEN })).body.data as { uuid: string; entity: string; isDefault: boolean }[];
    const ticks = views.find((v) => v.entity === 'ticks' && v.isDefault);
    const column = await ws.call('POST', '/api/columns', { body: { viewUuid: ticks?.uuid, displayName, formula } });
    expect(column.status, JSON.stringify(column.body)).toBe(201);
    return column.body.data.uuid as string;
  }

  async function walk(sort: string, size: number): Promise<unknown[]> {
    const ids: unknown[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 60; pages++) {
      const res = await list([['sort', sort], ['size', size], after === null ? ['paging', 'cursor'] : ['after', after]]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(...idsOf(res));
      after = res.body.meta.nextCursor as string | null;
      if (after === null) return ids;
    }
    throw new Error(`the walk over ${sort} did not end`);
  }

  const SORTS = ['stamp', 'loose', 'day', 'amount', 'ratio', 'small', 'loose,desc;stamp', 'day;amount,desc'];

  it.each(SORTS.flatMap((key) => (key.includes(';') ? [key] : [`${key},asc`, `${key},desc`])))('sort=%s: every row once, in the unpaged order', async (sort) => {
    const unpaged = expectList(await list([['sort', sort], ['size', 1000]])).map((r) => r.id);
    expect(unpaged).toHaveLength(26);
    for (const size of [1, 2, 3]) expect(await walk(sort, size), `size ${size}`).toEqual(unpaged);
  });

  it('a computed timestamp key (a formula over the column) walks exactly too', async () => {
    const column = await addComputed('Stamp Copy', 'stamp');
    for (const sort of ['stampCopy,asc', 'stampCopy,desc']) {
      const unpaged = expectList(await list([['sort', sort], ['size', 1000]])).map((r) => r.id);
      expect(await walk(sort, 2), sort).toEqual(unpaged);
    }
    expect((await ws.call('DELETE', `/api/columns/item/${column}`)).status).toBe(204);
  });
});
