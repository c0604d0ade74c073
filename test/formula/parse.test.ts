import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.ts';
import { parseFormula, printFormula } from '../../core/formula/index.ts';

function refusal(text: string): { message: string; reason: string; position: { offset: number; line: number; column: number } } {
  try {
    parseFormula(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.code).toBe('INVALID_FORMULA');
    const details = e.details as { reason: string; position: { offset: number; line: number; column: number } };
    return { message: e.message, reason: details.reason, position: details.position };
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('gate 1 refusals name the construct and its position', () => {
  const cases: [string, string, string, number][] = [
    ['amount + (SELECT 1)', 'statement', 'subqueries and statements (SELECT) are not allowed', 11],
    ['name FROM orders', 'statement', 'subqueries and statements (FROM) are not allowed', 6],
    ['UPPER(name FROM 2)', 'statement', 'subqueries and statements (FROM) are not allowed', 12],
    ['SUBSTRING(UPPER(name FROM 2))', 'statement', 'subqueries and statements (FROM) are not allowed', 22],
    ['SUBSTRING(name, 1 FROM 2)', 'statement', 'subqueries and statements (FROM) are not allowed', 19],
    ['SUBSTRING(name FROM 1 FROM 2)', 'statement', 'subqueries and statements (FROM) are not allowed', 23],
    ['SUBSTRING(name FROM (SELECT 1))', 'statement', 'subqueries and statements (SELECT) are not allowed', 22],
    ['SUBSTRING(name) FROM orders', 'statement', 'subqueries and statements (FROM) are not allowed', 17],
    ['SUBSTRING(name FOR 2)', 'syntax', "found 'FOR'", 16],
    ['SUBSTRING(name FROM 1, 2)', 'syntax', "found ','", 22],
    ['a WHERE b', 'statement', 'subqueries and statements (WHERE) are not allowed', 3],
    ['drop', 'statement', 'subqueries and statements (DROP) are not allowed', 1],
    ['1 union 2', 'statement', 'subqueries and statements (UNION) are not allowed', 3],
    ['amount -- total', 'comment', 'comments are not allowed', 8],
    ['amount /* x */ + 1', 'comment', 'comments are not allowed', 8],
    ['amount /* open', 'comment', 'comments are not allowed', 8],
    ['amount; DROP TABLE x', 'semicolon', "';' is not allowed", 7],
    ['tags[1]', 'square_brackets', 'square brackets are not allowed', 5],
    ["EXEC('x')", 'exec', 'EXEC is not allowed', 1],
    ['execute x', 'exec', 'EXECUTE is not allowed', 1],
    ['ARRAY(1, 2)', 'array_values', 'ARRAY constructs are not allowed', 1],
    ['x IN (values (1))', 'array_values', 'VALUES constructs are not allowed', 7],
    ['(amount + 1', 'unbalanced_parentheses', "unbalanced parentheses: '(' at column 1 is never closed", 1],
    ['amount + 1)', 'unbalanced_parentheses', "unbalanced parentheses: ')' at column 11 has no matching '('", 11],
    ["CASE WHEN a THEN 'x'", 'unbalanced_case', 'unbalanced CASE/END: CASE at column 1 has no matching END', 1],
    ['amount END', 'unbalanced_case', 'unbalanced CASE/END: END at column 8 has no matching CASE', 8],
    ["CONCAT(name, 'abc)", 'unterminated_string', 'unterminated string literal starting at column 14', 14],
    ["'it''s", 'unterminated_string', 'unterminated string literal starting at column 1', 1],
    ['"odd', 'unterminated_identifier', 'unterminated quoted name starting at column 1', 1],
    ['pg_sleep(10)', 'unknown_function', "unknown function 'pg_sleep'", 1],
    ['1 + LOAD_FILE(x)', 'unknown_function', "unknown function 'LOAD_FILE'", 5],
    ['xp_cmdshell(x)', 'unknown_function', 'allowed functions: CONCAT, UPPER', 1],
    ['SUM(amount)', 'aggregate', 'aggregate functions (SUM) are not supported', 1],
    ['ROUND(1, 2, 3)', 'arity', 'ROUND takes 1 to 2 arguments, got 3', 1],
    ['UPPER()', 'arity', 'UPPER takes 1 argument, got 0', 1],
    ['CAST(x AS MONEY)', 'unknown_type', "unknown type 'MONEY' in CAST", 11],
    ['CAST(x AS DECIMAL(50,2))', 'unknown_type', 'DECIMAL precision must be an integer from 1 to 38', 19],
    ['amount +', 'syntax', 'expected a value but found the end of the formula', 9],
    ['amount name', 'syntax', "unexpected 'name' after a complete expression", 8],
    ['amount % 2', 'syntax', "unexpected character '%' at column 8; use MOD(a, b)", 8],
    ['amount::text', 'syntax', "unexpected character ':'", 7],
    ['CASE END', 'syntax', 'expected WHEN', 6],
    ['', 'syntax', 'formula is empty', 1],
  ];
  it.each(cases)('%s → %s', (text, reason, message, column) => {
    const r = refusal(text);
    expect(r.reason).toBe(reason);
    expect(r.message).toContain(message);
    expect(r.position.column).toBe(column);
    expect(r.position.offset).toBe(column - 1);
  });

  it('reports line and column on multi-line formulas', () => {
    const r = refusal("CASE WHEN paid\n  THEN 'yes' -- note\nEND");
    expect(r).toMatchObject({ reason: 'comment', position: { line: 2, column: 14, offset: 28 } });
  });

  it('treats words inside string literals as data', () => {
    expect(parseFormula("CONCAT('SELECT ', name, ' -- ; [x] /* DROP */')")).toEqual({
      kind: 'Call',
      name: 'CONCAT',
      args: [
        { kind: 'String', value: 'SELECT ' },
        { kind: 'Field', path: ['name'] },
        { kind: 'String', value: ' -- ; [x] /* DROP */' },
      ],
    });
  });

  it('allows forbidden words as quoted names and inside longer identifiers', () => {
    expect(parseFormula('"from" || selection || updatedAt')).toMatchObject({ kind: 'Concat' });
    expect(parseFormula('SUBSTRING("from" FROM "for" FOR fortune)')).toEqual({ kind: 'Call', name: 'SUBSTRING', args: [{ kind: 'Field', path: ['from'] }, { kind: 'Field', path: ['for'] }, { kind: 'Field', path: ['fortune'] }] });
    expect(printFormula(parseFormula('"for" || "from"'))).toBe('"for" || "from"');
  });

  it('bounds length and nesting', () => {
    expect(refusal('1+'.repeat(5001) + '1').reason).toBe('too_long');
    expect(refusal('('.repeat(100) + '1' + ')'.repeat(100)).reason).toBe('too_deep');
    expect(refusal('- '.repeat(100) + '1').reason).toBe('too_deep');
    expect(refusal('1' + ' - 1'.repeat(300)).reason).toBe('too_deep');
    expect(parseFormula('1' + ' + 1'.repeat(300))).toMatchObject({ kind: 'Arithmetic', op: '+' });
  });
});

describe('grammar', () => {
  const field = (...path: string[]) => ({ kind: 'Field', path });
  const num = (value: number) => ({ kind: 'Number', value });

  it('reads literals', () => {
    expect(parseFormula("'it''s'")).toEqual({ kind: 'String', value: "it's" });
    expect(parseFormula('12.5e1')).toEqual(num(125));
    expect(parseFormula('.5')).toEqual(num(0.5));
    expect(parseFormula('true')).toEqual({ kind: 'Boolean', value: true });
    expect(parseFormula('FALSE')).toEqual({ kind: 'Boolean', value: false });
    expect(parseFormula('null')).toEqual({ kind: 'Null' });
  });

  it('reads field references, dotted paths and quoted names', () => {
    expect(parseFormula('amount')).toEqual(field('amount'));
    expect(parseFormula('customer.region.name')).toEqual(field('customer', 'region', 'name'));
    expect(parseFormula('"odd name"."a""b"')).toEqual(field('odd name', 'a"b'));
  });

  it('layers precedence like SQL', () => {
    expect(printFormula(parseFormula('a + b * c - d / e'))).toBe('a + b * c - d / e');
    expect(parseFormula('-a * b')).toEqual({
      kind: 'Arithmetic',
      op: '*',
      left: { kind: 'Negate', operand: field('a') },
      right: field('b'),
    });
    expect(parseFormula("a || b + 1 = 'x'")).toMatchObject({ kind: 'Compare', left: { kind: 'Concat' } });
    expect(parseFormula('NOT a = b AND c OR d')).toMatchObject({
      kind: 'Logical',
      op: 'OR',
      left: { kind: 'Logical', op: 'AND', left: { kind: 'Not', operand: { kind: 'Compare' } } },
    });
    expect(parseFormula('a != b')).toMatchObject({ kind: 'Compare', op: '<>' });
  });

  it('reads IS NULL, LIKE, IN, BETWEEN with NOT', () => {
    expect(parseFormula('a IS NOT NULL')).toEqual({ kind: 'IsNull', negated: true, operand: field('a') });
    expect(parseFormula("a NOT LIKE 'x%'")).toMatchObject({ kind: 'Like', negated: true });
    expect(parseFormula('a NOT IN (1, 2)')).toEqual({ kind: 'In', negated: true, operand: field('a'), list: [num(1), num(2)] });
    expect(parseFormula('a BETWEEN 1 AND 2 AND b')).toMatchObject({
      kind: 'Logical',
      left: { kind: 'Between', negated: false, low: num(1), high: num(2) },
    });
  });

  it('reads both CASE forms', () => {
    expect(parseFormula("CASE WHEN a > 1 THEN 'big' ELSE 'small' END")).toMatchObject({
      kind: 'Case',
      operand: null,
      whens: [{ when: { kind: 'Compare' }, then: { kind: 'String', value: 'big' } }],
      otherwise: { kind: 'String', value: 'small' },
    });
    expect(parseFormula("case status when 'a' then 1 when 'b' then 2 end")).toMatchObject({
      kind: 'Case',
      operand: field('status'),
      whens: [{ when: { value: 'a' } }, { when: { value: 'b' } }],
      otherwise: null,
    });
  });

  it('reads functions case-insensitively and CURRENT_* without parentheses', () => {
    expect(parseFormula('coalesce(a, 0)')).toEqual({ kind: 'Call', name: 'COALESCE', args: [field('a'), num(0)] });
    expect(parseFormula('current_date')).toEqual({ kind: 'Call', name: 'CURRENT_DATE', args: [] });
    expect(parseFormula('Current_Timestamp')).toEqual({ kind: 'Call', name: 'CURRENT_TIMESTAMP', args: [] });
    expect(parseFormula('now()')).toEqual({ kind: 'Call', name: 'NOW', args: [] });
  });

  it('reads SUBSTRING(s FROM start [FOR length]) as SUBSTRING(s, start[, length])', () => {
    expect(parseFormula('SUBSTRING(name FROM 1 FOR 2)')).toEqual(parseFormula('SUBSTRING(name, 1, 2)'));
    expect(parseFormula('substring(name from 2)')).toEqual({ kind: 'Call', name: 'SUBSTRING', args: [field('name'), num(2)] });
    expect(parseFormula('Substring(UPPER(a) From b + 1 For 2 * c)')).toEqual(parseFormula('SUBSTRING(UPPER(a), b + 1, 2 * c)'));
    expect(parseFormula('SUBSTRING(SUBSTRING(a FROM 2) FROM 1 FOR 3)')).toEqual(parseFormula('SUBSTRING(SUBSTRING(a, 2), 1, 3)'));
    // Words that merely begin with FOR or FROM stay names.
    expect(parseFormula('SUBSTRING(format FROM fromage FOR forecast)')).toEqual(parseFormula('SUBSTRING(format, fromage, forecast)'));
    expect(printFormula(parseFormula('substring(a from 1 for 2)'))).toBe('SUBSTRING(a, 1, 2)');
  });

  it('reads every CAST type', () => {
    const target = (text: string) => (parseFormula(`CAST(x AS ${text})`) as { target: unknown }).target;
    expect(target('text')).toEqual({ name: 'TEXT' });
    expect(target('VARCHAR(20)')).toEqual({ name: 'VARCHAR', length: 20 });
    expect(target('varchar')).toEqual({ name: 'VARCHAR', length: null });
    expect(target('INTEGER')).toEqual({ name: 'INTEGER' });
    expect(target('int')).toEqual({ name: 'INTEGER' });
    expect(target('BIGINT')).toEqual({ name: 'BIGINT' });
    expect(target('DECIMAL(10,2)')).toEqual({ name: 'DECIMAL', precision: 10, scale: 2 });
    expect(target('numeric(8)')).toEqual({ name: 'DECIMAL', precision: 8, scale: 0 });
    expect(target('DECIMAL')).toEqual({ name: 'DECIMAL', precision: null, scale: null });
    expect(target('BOOLEAN')).toEqual({ name: 'BOOLEAN' });
    expect(target('DATE')).toEqual({ name: 'DATE' });
    expect(target('TIMESTAMP')).toEqual({ name: 'TIMESTAMP' });
  });

  it('prints canonical text', () => {
    const canonical = (text: string) => printFormula(parseFormula(text));
    expect(canonical("case when a>1 then 'x' end")).toBe("CASE WHEN a > 1 THEN 'x' END");
    expect(canonical('(a + b) * c')).toBe('(a + b) * c');
    expect(canonical('a - (b - c)')).toBe('a - (b - c)');
    expect(canonical('- (-a)')).toBe('-(-a)');
    expect(canonical('not (a or b)')).toBe('NOT (a OR b)');
    expect(canonical('"select" || "a b"')).toBe('"select" || "a b"');
    expect(canonical('cast(x as decimal(8))')).toBe('CAST(x AS DECIMAL(8,0))');
    expect(canonical('current_date')).toBe('CURRENT_DATE');
  });
});
