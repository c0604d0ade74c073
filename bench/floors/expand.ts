/**
 * The floor of one-to-many expansion (scenario E): `customers?expand=orders` by hand, the arrays
 * built inside the page statement with PostgreSQL `LATERAL` + `json_agg` (DESIGN §13's cost
 * rule), the JSON shaped in SQL so the route only wraps rows. The count runs beside it, as the
 * service runs its count.
 */
import type pg from 'pg';
import type { Row } from './sql.ts';

/** An instant as the service prints it: UTC, milliseconds, `Z`. */
const instant = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Items are the objects of the orders list, by id ascending, at most $3 per customer. */
const PAGE = `
SELECT c.id, c.name, c.email, c.region_id, c.vip, c.birth_date, c.created_at, items.orders
FROM customers c
CROSS JOIN LATERAL (
  SELECT coalesce(json_agg(json_build_object(
           'id', o.id, 'customerId', o.customer_id, 'productId', o.product_id, 'quantity', o.quantity,
           'amount', o.amount, 'status', o.status, 'note', o.note, 'orderedAt', ${instant('o.ordered_at')},
           'createdAt', ${instant('o.created_at')}, 'updatedAt', ${instant('o.updated_at')}) ORDER BY o.id), '[]') AS orders
  FROM (SELECT * FROM orders WHERE customer_id = c.id ORDER BY id LIMIT $3) o
) items
ORDER BY c.id
LIMIT $1 OFFSET $2`;

const COUNT = 'SELECT count(*) AS total FROM customers';

const iso = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

function customerJson(row: Row): Row {
  return {
    id: row.id, name: row.name, email: row.email, regionId: row.region_id, vip: row.vip,
    birthDate: row.birth_date, createdAt: iso(row.created_at), orders: row.orders,
  };
}

export interface ExpandPage {
  readonly data: Row[];
  readonly meta: Row;
}

/** The answer of `customers?size=<size>&page=<page>&expand=orders&expandSize[orders]=<perCustomer>`. */
export async function customersWithOrders(pool: pg.Pool, size: number, page: number, perCustomer: number): Promise<ExpandPage> {
  const [rows, counted] = await Promise.all([pool.query(PAGE, [size, page * size, perCustomer]), pool.query(COUNT)]);
  const total = Number((counted.rows[0] as Row | undefined)?.total ?? 0);
  return {
    data: (rows.rows as Row[]).map(customerJson),
    meta: { page, size, totalElements: total, totalPages: Math.ceil(total / size), countMode: 'exact', expandSizes: { orders: perCustomer } },
  };
}
