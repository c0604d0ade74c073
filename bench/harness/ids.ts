/** Deterministic request inputs shared by the load generator and the floors. */
import { DATASET } from './dataset.ts';

/** The i-th order id of the rotating get-by-id scenario: a fixed walk over all 1M ids. */
export function orderIdFor(i: number): number {
  return ((i * 104_729) % DATASET.orders) + 1;
}

/** The body of the create scenario: always valid, always the same. */
export const CREATE_ORDER_BODY = JSON.stringify({ customerId: 4242, amount: 12.5, status: 'new', orderedAt: '2024-01-01T00:00:00Z' });
