/**
 * The floor of `orders/aggregate?groupBy=status&metrics=count,sum:amount` (scenario H): the GROUP BY
 * written by hand as a developer would write it, shaped into the service's answer (DESIGN §14).
 * The number of groups is counted by a second statement only when the page cannot tell it
 * (a full page, or a page past the first); the bench's 4 groups never need it.
 */
import type pg from 'pg';
import type { Row } from './sql.ts';

const PAGE = `
SELECT status, count(*) AS count, sum(amount) AS amount
FROM orders
GROUP BY status
ORDER BY status
LIMIT $1 OFFSET $2`;

const COUNT_GROUPS = 'SELECT count(DISTINCT status) AS total FROM orders';

export interface AggregatePage {
  readonly data: Row[];
  readonly meta: { page: number; size: number; totalElements: number };
}

const groupJson = (row: Row): Row => ({ group: { status: row.status }, count: Number(row.count), sum: { amount: Number(row.amount) } });

/** A short first page holds every group, so its length is the count. */
async function countGroups(pool: pg.Pool, rows: readonly Row[], size: number, page: number): Promise<number> {
  if (page === 0 && rows.length < size) return rows.length;
  return Number(((await pool.query(COUNT_GROUPS)).rows[0] as Row | undefined)?.total ?? 0);
}

/** The answer of `orders/aggregate?groupBy=status&metrics=count,sum:amount&size=<size>&page=<page>`. */
export async function ordersByStatus(pool: pg.Pool, size: number, page: number): Promise<AggregatePage> {
  const rows = (await pool.query(PAGE, [size, page * size])).rows as Row[];
  const total = await countGroups(pool, rows, size, page);
  return { data: rows.map(groupJson), meta: { page, size, totalElements: total } };
}
