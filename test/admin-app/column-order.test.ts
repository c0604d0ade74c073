/** Column order without a browser: the service's move (core/control/column-order.ts) and the grid's header order (ui lib/column-order.ts). */
import { describe, expect, it } from 'vitest';
import { movedOrder } from '../../core/control/column-order.ts';
import type { ColumnRecord } from '../../core/workspace/types.ts';
import { inColumnOrder } from '../../plugins/admin-app/ui/src/lib/column-order.ts';

const columns = ['a', 'b', 'c', 'd'].map((uuid, position) => ({ uuid, position }) as ColumnRecord);

describe('movedOrder', () => {
  it.each([
    ['d', 0, ['d', 'a', 'b', 'c']],
    ['a', 3, ['b', 'c', 'd', 'a']],
    ['b', 2, ['a', 'c', 'b', 'd']],
    ['c', 2, ['a', 'b', 'c', 'd']],
  ])('moves %s to %i and shifts the columns between', (uuid, position, expected) => {
    expect(movedOrder(columns, uuid, position)).toEqual(expected);
  });
});

describe('inColumnOrder', () => {
  it('puts the names the view orders first, in its order, and keeps the others after them as they came', () => {
    expect(inColumnOrder(['id', 'name', 'email', 'customer', 'extra'], ['email', 'id', 'name'])).toEqual(['email', 'id', 'name', 'customer', 'extra']);
  });

  it('keeps the order as it is without a view order, and ignores view columns absent from the rows', () => {
    expect(inColumnOrder(['id', 'amount'], [])).toEqual(['id', 'amount']);
    expect(inColumnOrder(['amount', 'id'], ['id', 'status', 'amount'])).toEqual(['id', 'amount']);
  });
});
