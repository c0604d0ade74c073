/**
 * The list, get and create scenarios (A–D): one HTTP request shape each, sent by the load
 * generator to the service and to the floors that answer it by hand (floors/), which is why they
 * sit in the harness. Their measurement is scenarios/lists.ts.
 */
import { CREATE_ORDER_BODY } from './ids.ts';

export type ScenarioId = 'A' | 'A-none' | 'B-none' | 'B-exact' | 'B-estimated' | 'C' | 'D';

export interface Scenario {
  readonly id: ScenarioId;
  /** The letter `--only` selects by (bench/catalogue.ts); B is the list with expansion. */
  readonly group: 'A' | 'B' | 'C' | 'D';
  readonly label: string;
  readonly method: 'GET' | 'POST';
  /** Path under `/api/v1/{org}/{ws}`; `{id}` is replaced by a rotating order id. */
  readonly path: string;
  readonly body?: string;
}

const EXPAND = 'expand=customer,customer.region';

export const SCENARIOS: readonly Scenario[] = [
  // No count parameter: the default mode (exact), as a client that asks nothing gets it.
  { id: 'A', group: 'A', label: 'list 20 orders, sort=id,desc (default count)', method: 'GET', path: '/orders?size=20&sort=id,desc' },
  // The same page without the 1M-row count, so the figure is about the service, not COUNT(*).
  { id: 'A-none', group: 'A', label: 'list 20 orders, sort=id,desc, count=none', method: 'GET', path: '/orders?size=20&sort=id,desc&count=none' },
  { id: 'B-none', group: 'B', label: 'list + expand, count=none', method: 'GET', path: `/orders?size=20&sort=id,desc&${EXPAND}&count=none` },
  { id: 'B-exact', group: 'B', label: 'list + expand, count=exact', method: 'GET', path: `/orders?size=20&sort=id,desc&${EXPAND}&count=exact` },
  { id: 'B-estimated', group: 'B', label: 'list + expand, count=estimated', method: 'GET', path: `/orders?size=20&sort=id,desc&${EXPAND}&count=estimated` },
  { id: 'C', group: 'C', label: 'get one order by id (rotating)', method: 'GET', path: '/orders/{id}' },
  { id: 'D', group: 'D', label: 'create an order', method: 'POST', path: '/orders', body: CREATE_ORDER_BODY },
];

/** The id used when capturing SQL: distinctive, so the floors know which parameter to rotate. */
export const CAPTURE_ID = 123_457;

export function scenarioById(id: ScenarioId): Scenario {
  const found = SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`scenario ${id} is not defined`);
  return found;
}
