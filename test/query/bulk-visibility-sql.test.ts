/**
 * Golden SQL of the bulk upsert's visibility SELECT (core/write/bulk-visibility.ts): before an
 * UPDATE-mode batch under a row policy, the rows whose key matches an existing row the caller
 * cannot see are looked up. hiddenConflicts plans and compiles it (core/query/plan-write.ts,
 * compile-write.ts) and runs it, so it is captured with a recording executor.
 */
import { describe, expect, it } from 'vitest';
import { hiddenConflicts } from '../../core/write/bulk-visibility.ts';
import { entity, expectCompiled, golden, ownerPolicy, scopeOf, VENDORS, type PerVendor, type Vendor } from './fixture.ts';
import { checkSyntax } from './syntax.ts';
import { recordingExecutor } from './write-statements.ts';

type Rows = Parameters<typeof hiddenConflicts>[3];

const VISIBILITY: PerVendor = {
  postgres: golden(
    [
      'SELECT "t0"."email" AS "k0" FROM "public"."customers" "t0"',
      'WHERE (("t0"."email" = $1) OR ("t0"."email" = $2))',
      'AND NOT (("t0"."owner" = $3))',
    ],
    ['ada@example.com', 'bob@example.com', 'alice'],
  ),
  mysql: golden(
    ['SELECT `t0`.`email` AS `k0` FROM `customers` `t0`', 'WHERE ((`t0`.`email` = ?) OR (`t0`.`email` = ?))', 'AND NOT ((`t0`.`owner` = ?))'],
    ['ada@example.com', 'bob@example.com', 'alice'],
  ),
  mssql: golden(
    ['SELECT [t0].[email] AS [k0] FROM [dbo].[customers] [t0]', 'WHERE (([t0].[email] = @p1) OR ([t0].[email] = @p2))', 'AND NOT (([t0].[owner] = @p3))'],
    ['ada@example.com', 'bob@example.com', 'alice'],
  ),
};

async function visibilitySelect(vendor: Vendor) {
  const customers = entity('customers');
  const email = customers.fieldsByName.get('email');
  if (!email) throw new Error('no customers.email');
  const rows: Rows = ['ada@example.com', 'bob@example.com'].map((value, index) => ({ index, values: new Map([[email, value]]) }));
  const db = recordingExecutor();
  await hiddenConflicts(vendor.dialect, db, scopeOf('customers', ownerPolicy('alice')), rows, [email], 'UPDATE');
  expect(db.statements).toHaveLength(1);
  return db.statements[0] ?? { text: '', params: [] };
}

describe.each(VENDORS)('the bulk visibility SELECT in $name SQL', (vendor) => {
  it('looks up conflict keys among the rows the row policy hides', async () => {
    const sent = await visibilitySelect(vendor);
    expectCompiled(sent, VISIBILITY[vendor.name]);
    checkSyntax(vendor.syntax, sent.text);
  });
});
