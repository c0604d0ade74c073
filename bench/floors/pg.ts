/** The raw-driver floor: the scenario's SQL on a bare pg Pool, driven by loops (harness/loops.ts), no HTTP. */
import type pg from 'pg';
import { createOrder, getOrder, insertValues, listOrders, type FloorSql } from './sql.ts';
import { CREATE_ORDER_BODY, orderIdFor } from '../harness/ids.ts';
import type { Scenario } from '../harness/requests.ts';

export function sqlWork(pool: pg.Pool, sql: FloorSql, scenario: Scenario): (i: number) => Promise<unknown> {
  switch (scenario.id) {
    case 'A':
      return () => listOrders(pool, sql, false, 'exact', 20, 0);
    case 'A-none':
      return () => listOrders(pool, sql, false, 'none', 20, 0);
    case 'B-none':
      return () => listOrders(pool, sql, true, 'none', 20, 0);
    case 'B-exact':
      return () => listOrders(pool, sql, true, 'exact', 20, 0);
    case 'B-estimated':
      return () => listOrders(pool, sql, true, 'estimated', 20, 0);
    case 'C':
      return (i) => getOrder(pool, sql, orderIdFor(i));
    case 'D': {
      const body = JSON.parse(CREATE_ORDER_BODY) as Record<string, unknown>;
      return () => createOrder(pool, sql, insertValues(body));
    }
  }
}
