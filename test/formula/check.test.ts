import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../core/errors.ts';
import { checkFormula, parseFormula, printFormula } from '../../core/formula/index.ts';
import { context, model, orders } from '../support/formula-fixtures.ts';

const check = (text: string, maxDepth?: number) =>
  checkFormula(parseFormula(text), maxDepth === undefined ? context : { ...context, maxDepth });

function refusal(text: string, maxDepth?: number): { message: string; reason: string; column: number } {
  try {
    check(text, maxDepth);
  } catch (error) {
    const e = error as ApiError;
    expect(e.code).toBe('INVALID_FORMULA');
    const details = e.details as { reason: string; position: { column: number } };
    return { message: e.message, reason: details.reason, column: details.position.column };
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('name resolution', () => {
  it('resolves API names and normalises column names to them', () => {
    const checked = check('order_date > created_at AND customer_id = 1');
    expect(printFormula(checked.ast)).toBe('orderDate > createdAt AND customerId = 1');
    expect(checked.refs).toEqual([['orderDate'], ['createdAt'], ['customerId']]);
  });

  it('follows many-to-one relationships and reports the paths', () => {
    const checked = check("CONCAT(customer.name, ' / ', customer.region.name, ' / ', customer.name)");
    expect(checked.refs).toEqual([['customer', 'name'], ['customer', 'region', 'name']]);
    expect(checked.type).toBe('text');
  });

  it('matches names case-insensitively when unambiguous', () => {
    expect(printFormula(check('AMOUNT + Customer.Region.ID').ast)).toBe('amount + customer.region.id');
  });

  it('refuses unknown fields with a suggestion', () => {
    expect(refusal('amout + 1')).toEqual({
      reason: 'unknown_field',
      message: "unknown field 'amout' on entity 'orders'; did you mean 'amount'?",
      column: 1,
    });
    expect(refusal('1 + customer.nme').message).toBe("unknown field 'nme' on entity 'customers'; did you mean 'name'?");
    expect(refusal('supplier.name').message).toContain("unknown relationship 'supplier' on entity 'orders'");
    expect(refusal('customer').message).toContain("'customer' is a relationship");
  });

  it('refuses one-to-many hops, too deep paths and unusable types', () => {
    expect(refusal('customer.region.customers.name').message).toContain('one-to-many');
    expect(refusal('customer.region.name', 1)).toMatchObject({ reason: 'relationship_depth' });
    expect(refusal('customer.region.name', 1).message).toBe("'customer.region.name' follows 2 relationships; the maximum is 1");
    expect(refusal('blob IS NULL').reason).toBe('unsupported_field');
  });

  it('maps column types to formula types', () => {
    const types = Object.fromEntries(
      ['amount', 'qty', 'price', 'note', 'paid', 'orderDate', 'createdAt', 'shippedAt', 'token'].map((f) => [f, check(f).type]),
    );
    expect(types).toEqual({
      amount: 'number',
      qty: 'number',
      price: 'number',
      note: 'text',
      paid: 'boolean',
      orderDate: 'date',
      createdAt: 'timestamp',
      shippedAt: 'timestamp',
      token: 'text',
    });
    expect(model.entities.get('orders')).toBe(orders);
  });
});

describe('types', () => {
  it('infers result types', () => {
    expect(check('amount / 2').type).toBe('number');
    expect(check("note || 'x'").type).toBe('text');
    expect(check('qty > 1 AND paid').type).toBe('boolean');
    expect(check('COALESCE(orderDate, CURRENT_DATE)').type).toBe('date');
    expect(check("CASE WHEN paid THEN createdAt ELSE '2024-01-01' END").type).toBe('timestamp');
    expect(check('NULL').type).toBe('null');
    expect(check('CASE WHEN paid THEN NULL ELSE 1 END').type).toBe('number');
    expect(check('GREATEST(orderDate, createdAt)').type).toBe('timestamp');
    expect(check('CAST(amount AS VARCHAR(5))').type).toBe('text');
    expect(check('NOW()').type).toBe('timestamp');
  });

  it('refuses clear mismatches naming the argument', () => {
    const cases: [string, string][] = [
      ['UPPER(amount)', 'UPPER expects text for argument 1, got number'],
      ['SUBSTRING(note, note)', 'SUBSTRING expects number for argument 2, got text'],
      ["ROUND('x')", 'ROUND expects number for argument 1, got text'],
      ["amount + 'x'", 'operator + expects numbers, got text on the right'],
      ['-note', 'unary - expects a number, got text'],
      ['amount = note', 'cannot compare number with text'],
      ['paid AND qty', 'AND expects boolean, got number'],
      ['NOT note', 'NOT expects boolean, got text'],
      ["CASE WHEN qty THEN 1 END", 'CASE WHEN expects a boolean condition, got number'],
      ["CASE WHEN paid THEN 1 ELSE 'x' END", 'CASE results must have one type, got number and text'],
      ["COALESCE(amount, 'none')", 'COALESCE arguments must have one type, got number and text'],
      ['qty LIKE 1', 'LIKE expects text, got number'],
      ["qty IN (1, 'a')", 'IN compares values of one type, got number and text'],
      ['CAST(paid AS DATE)', 'cannot CAST boolean AS DATE'],
      ["orderDate > 'soon'", "'soon' is not a valid date"],
      ["CAST('abc' AS INTEGER)", "\"abc\" cannot be CAST AS INTEGER"],
      ['orderDate = note', 'cannot compare date with text'],
    ];
    for (const [text, message] of cases) {
      const r = refusal(text);
      expect(r.reason, text).toBe('type_mismatch');
      expect(r.message, text).toContain(message);
    }
  });

  it('points at the offending node', () => {
    expect(refusal('qty + UPPER(amount)').column).toBe(13);
  });

  it('records implicit conversions for the evaluator and the dialects', () => {
    const conversions = (text: string) =>
      [...check(text).coercions.entries()].map(([node, to]) => `${printFormula(node)}->${to}`);
    expect(conversions('CONCAT(amount, paid, note)')).toEqual(['amount->text', 'paid->text']);
    expect(conversions("orderDate > '2024-01-01'")).toEqual(["'2024-01-01'->date"]);
    expect(conversions('createdAt > orderDate')).toEqual(['orderDate->timestamp']);
    expect(conversions('qty + NULL')).toEqual(['NULL->number']);
    expect(conversions("note || 1")).toEqual(['1->text']);
  });
});
