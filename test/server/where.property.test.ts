/**
 * Property (DESIGN §13): `where` built from random boolean formulas over the
 * fixture returns exactly the rows the in-process evaluator accepts (true, not false or NULL),
 * in id order, with the same count, on every vendor. The formula is checked against the model
 * the service itself introspected, so the evaluator reads the fields exactly as the service does.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula, parseFormula, printFormula, type Expr } from '../../core/formula/index.ts';
import type { Entity, SchemaModel } from '../../core/schema/model.ts';
import { startWorkspace, type TestWorkspace } from '../support/harness.ts';
import { idsOf, query } from '../support/http-expect.ts';
import { vendorsToRun } from '../support/vendors.ts';
import { booleanFormula, ORDER_FORMULA_ROWS } from './where-arbitraries.ts';

const vendors = await vendorsToRun();

/** Failures found while writing the test, kept as regression examples. */
const regressions: readonly string[] = [
  "customer.name LIKE '100\\%%' OR product.price IS NULL",
  "NOT (COALESCE(productId, -1) IN (1, 2)) AND 'x ' = 'x'",
  "UPPER(customer.region.name) BETWEEN 'A' AND 'O' OR customer.birthDate > CAST('1975-06-15' AS DATE)",
  "orderedAt < CAST('2026-05-01 00:00:00' AS TIMESTAMP) AND amount / quantity > 20",
];

describe.each(vendors)('where property on $name', (target) => {
  let ws: TestWorkspace;
  let model: SchemaModel;
  let orders: Entity;

  beforeAll(async () => {
    ws = await startWorkspace(target);
    const runtime = await ws.service.services.workspaces.bySlug(ws.org, ws.ws);
    model = runtime.model;
    orders = runtime.entity('orders');
  });
  afterAll(async () => ws?.close());

  /** The ids the evaluator keeps, or null when it raises (no agreed answer to compare). */
  function expectedIds(ast: Expr): number[] | null {
    const checked = checkFormula(ast, { entity: orders, model });
    try {
      return ORDER_FORMULA_ROWS.filter((row) => evaluateFormula(checked, row) === true).map((row) => Number(row.id));
    } catch {
      return null;
    }
  }

  async function agree(text: string, ast: Expr): Promise<void> {
    const expected = expectedIds(ast);
    const res = await ws.call('GET', ws.records(`/orders${query([['where', text], ['size', '1000']])}`));
    if (expected === null) return;
    expect(idsOf(res), `${target.name}: where=${text}`).toEqual(expected);
    expect(res.body.meta.totalElements).toBe(expected.length);
  }

  it.each(regressions)('regression: %s', async (text) => {
    await agree(text, parseFormula(text));
  });

  it('random boolean formulas keep exactly the rows the evaluator accepts', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(booleanFormula(3), async (ast) => {
        await agree(printFormula(ast), ast);
      }),
      { numRuns: Number(process.env.WHERE_RUNS ?? 150), endOnFailure: true },
    );
  });
});
