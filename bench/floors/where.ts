/**
 * The floor of `where=status = 'paid' OR amount > 1000` on orders (scenario G): the condition
 * written by hand as a developer would write it (no casts, no formula compiler), with the
 * columns of the service's orders page so the Koa floor shapes rows alike.
 */
import type pg from 'pg';
import type { Row } from './sql.ts';

/** The formula the service gets, and the values the hand-written condition binds for it. */
export const WHERE_FORMULA = "status = 'paid' OR amount > 1000";
const WHERE_VALUES = ['paid', 1000] as const;

const PAGE = `
SELECT id AS c0, customer_id AS c1, product_id AS c2, quantity AS c3, amount AS c4, status AS c5, note AS c6,
       ordered_at AS c7, created_at AS c8, updated_at AS c9
FROM orders
WHERE status = $1 OR amount > $2
ORDER BY id DESC
LIMIT $3 OFFSET $4`;

/** One page, newest first, no count (the scenario asks count=none). */
export async function paidOrBigOrders(pool: pg.Pool, size: number, page: number): Promise<Row[]> {
  return (await pool.query(PAGE, [...WHERE_VALUES, size, page * size])).rows as Row[];
}
