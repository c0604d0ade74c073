/**
 * The known traps of formula parity, each with its agreed value (DESIGN §7, §12
 * "Formula values") on two rows: examples.ts's row (trailing spaces in `note`, an accent and an
 * emoji in `customer.name`, an upper-case `code`, `customer.vip` NULL) and a row of NULLs.
 * vendors.test.ts runs them through the evaluator and every database.
 */
import type { FormulaValue } from '../../core/formula/index.ts';
import type { Row } from './db.ts';
import { exampleRow } from './examples.ts';

export const trapRows: readonly Row[] = [exampleRow, Object.fromEntries(Object.keys(exampleRow).map((k) => [k, null]))];

/** [group, formula, value on exampleRow, value on the NULL row] */
export const traps: readonly (readonly [string, string, FormulaValue, FormulaValue])[] = [
  // CONCAT counts NULL as '' (MySQL's CONCAT is NULL on any NULL).
  ['CONCAT with NULL', "CONCAT(note, NULL, '|')", 'Hello World  |', '|'],
  ['CONCAT with NULL', "CONCAT(customer.vip, '-', qty)", '-3', '-'],
  ['CONCAT with NULL', 'CONCAT(code, customer.region.name)', 'AB-1North', ''],
  ['CONCAT with NULL', "CONCAT(NULL, NULL)", '', ''],
  // `||` is NULL when either side is (MySQL's default `||` is OR).
  ['||', "note || '!'", 'Hello World  !', null],
  ['||', "'a' || NULL", null, null],
  ['||', 'qty || paid', '3true', null],
  ['||', 'code || customer.vip', null, null],
  ['||', "'x' || 1 || 'y' || 0.5", 'x1y0.5', 'x1y0.5'],
  ["||", "1 || 2 = '12'", true, true],
  // `/` is double precision on every vendor; dividing by zero gives NULL.
  ['division', '7 / 2', 3.5, 3.5],
  ['division', 'qty / 2', 1.5, null],
  ['division', 'CAST(7 AS INTEGER) / CAST(2 AS INTEGER)', 3.5, 3.5],
  ['division', '-7 / 2', -3.5, -3.5],
  ['division', '2 / 3', 0.6666666666666666, 0.6666666666666666],
  ['division', '1 / 3 * 3', 1, 1],
  ['division', 'qty / 0', null, null],
  ['division', '0 / 0', null, null],
  ['division', 'amount / (qty - 3)', null, null],
  ['division', 'COALESCE(qty / 0, -1)', -1, -1],
  ['division', 'MOD(qty, 0)', null, null],
  // LENGTH counts characters, trailing spaces included.
  ['LENGTH', 'LENGTH(note)', 13, null],
  ['LENGTH', "LENGTH('a  ')", 3, 3],
  ['LENGTH', "LENGTH(' ')", 1, 1],
  ['LENGTH', "LENGTH('😀é')", 2, 2],
  ['LENGTH', 'LENGTH(customer.name)', 5, null],
  ['LENGTH', "LENGTH(CONCAT(code, '  '))", 6, 2],
  ['LENGTH', 'LENGTH(TRIM(note))', 11, null],
  ['LENGTH', "LENGTH('中文')", 2, 2],
  // GREATEST/LEAST ignore NULL arguments; only all-NULL is NULL.
  ['GREATEST/LEAST', 'GREATEST(qty, NULL, 1)', 3, 1],
  ['GREATEST/LEAST', 'LEAST(qty, amount)', 3, null],
  ['GREATEST/LEAST', 'LEAST(NULL, qty, -1)', -1, -1],
  ['GREATEST/LEAST', 'GREATEST(NULL, NULL)', null, null],
  ['GREATEST/LEAST', "GREATEST(orderDate, NULL)", '2024-02-29', null],
  ['GREATEST/LEAST', "GREATEST(code, 'ab-1')", 'ab-1', 'ab-1'],
  ['GREATEST/LEAST', "LEAST(code, 'ab-1')", 'AB-1', 'ab-1'],
  ['GREATEST/LEAST', "GREATEST(note, 'Hello World')", 'Hello World  ', 'Hello World'],
  ['GREATEST/LEAST', "LEAST(note, 'Hello World')", 'Hello World', 'Hello World'],
  ['GREATEST/LEAST', "GREATEST(customer.name, 'Zoe 😀')", 'Zoë 😀', 'Zoe 😀'],
  ['GREATEST/LEAST', "GREATEST('😀x', '\uE000')", '😀x', '😀x'],
  // A tie between 0 and -0 keeps the first argument (PostgreSQL's rule); MariaDB picked -0.
  ['GREATEST/LEAST', "CONCAT(GREATEST(LENGTH(''), -0) - MOD(0 + 0, 0.1))", '0', '0'],
  ['GREATEST/LEAST', 'CONCAT(GREATEST(0, -0))', '0', '0'],
  ['GREATEST/LEAST', 'CONCAT(GREATEST(-0, 0))', '-0', '-0'],
  ['GREATEST/LEAST', 'CONCAT(LEAST(0, -0))', '0', '0'],
  ['GREATEST/LEAST', 'CONCAT(LEAST(-0, 0))', '-0', '-0'],
  ['GREATEST/LEAST', 'CONCAT(GREATEST(qty - 3, -0))', '0', '-0'],
  // ROUND is half away from zero, also for negative values and negative digits.
  ['ROUND', 'ROUND(0.5)', 1, 1],
  ['ROUND', 'ROUND(1.5)', 2, 2],
  ['ROUND', 'ROUND(2.5)', 3, 3],
  ['ROUND', 'ROUND(-0.5)', -1, -1],
  ['ROUND', 'ROUND(-2.5)', -3, -3],
  ['ROUND', 'ROUND(-0.4)', 0, 0],
  ['ROUND', 'ROUND(-1.45, 1)', -1.5, -1.5],
  ['ROUND', 'ROUND(2.675, 2)', 2.68, 2.68],
  ['ROUND', 'ROUND(1.005, 2)', 1.01, 1.01],
  ['ROUND', 'ROUND(0.285, 2)', 0.29, 0.29],
  ['ROUND', 'ROUND(-1250, -2)', -1300, -1300],
  ['ROUND', 'ROUND(amount / 4)', 3, null],
  ['ROUND', 'ROUND(-price)', -3, null],
  ['ROUND', 'ROUND(-qty / 2, 0)', -2, null],
  // CAST to BOOLEAN and DATE.
  ['CAST', "CAST('true' AS BOOLEAN)", true, true],
  ['CAST', "CAST(' t ' AS BOOLEAN)", true, true],
  ['CAST', "CAST('no' AS BOOLEAN)", false, false],
  ['CAST', "CAST('0' AS BOOLEAN)", false, false],
  ['CAST', 'CAST(qty AS BOOLEAN)', true, null],
  ['CAST', 'CAST(0.0 AS BOOLEAN)', false, false],
  ['CAST', 'CAST(-1 AS BOOLEAN)', true, true],
  ['CAST', 'CAST(customer.vip AS BOOLEAN)', null, null],
  ['CAST', "CAST('2024-02-29' AS DATE)", '2024-02-29', '2024-02-29'],
  ['CAST', "CAST('2024-2-3' AS DATE)", '2024-02-03', '2024-02-03'],
  ['CAST', 'CAST(createdAt AS DATE)', '2024-03-01', null],
  ['CAST', 'CAST(shippedAt AS DATE)', '2024-03-02', null],
  ['CAST', "CAST(CAST('2024-03-01 23:59:59.999' AS TIMESTAMP) AS DATE)", '2024-03-01', '2024-03-01'],
  ['CAST', 'CAST(orderDate AS DATE) = orderDate', true, null],
  ['CAST', 'CAST(CAST(paid AS TEXT) AS BOOLEAN)', true, null],
  // Text comparison: code-point order, case- and accent-sensitive, trailing spaces significant
  // (MariaDB's PAD SPACE collations say 'a' = 'a '; PostgreSQL text does not).
  ['trailing spaces', "note = 'Hello World'", false, null],
  ['trailing spaces', "note <> 'Hello World'", true, null],
  ['trailing spaces', "note > 'Hello World'", true, null],
  ['trailing spaces', "'a' = 'a '", false, false],
  ['trailing spaces', "'a ' > 'a'", true, true],
  ['trailing spaces', "'a' < 'a '", true, true],
  ['trailing spaces', "'a' >= 'a '", false, false],
  ['trailing spaces', 'TRIM(note) = note', false, null],
  ['trailing spaces', 'TRIM(note) < note', true, null],
  ['trailing spaces', "NULLIF(note, 'Hello World')", 'Hello World  ', null],
  ['trailing spaces', "NULLIF('a ', 'a')", 'a ', 'a '],
  ['trailing spaces', "NULLIF('a', 'a')", null, null],
  ['trailing spaces', "CONCAT(note, '') = note", true, null],
  ['collation', "code = 'ab-1'", false, null],
  ['collation', "code < 'ab'", true, null],
  ['collation', "customer.name = 'Zoe 😀'", false, null],
  ['collation', "customer.name > 'Zoe'", true, null],
  ['collation', "code IN ('ab-1', 'x')", false, null],
  ['collation', "customer.name IN ('zoë 😀')", false, null],
  ['collation', "code BETWEEN 'a' AND 'z'", false, null],
  ['collation', "CASE WHEN code = 'ab-1' THEN 'ci' ELSE 'cs' END", 'cs', 'cs'],
  ['collation', "UPPER(code) = 'AB-1'", true, null],
  ['collation', "code LIKE 'ab%'", false, null],
];

/**
 * IN, NOT IN, BETWEEN and the simple CASE on text go through the dialect's comparison, so trailing
 * spaces count as they do for `=` (MariaDB's PAD SPACE collations would say 'a' IN ('a ')).
 * [formula, agreed value] on examples.ts's row.
 */
export const textMembership: readonly (readonly [string, FormulaValue])[] = [
  ["note IN ('Hello World')", false],
  ["note NOT IN ('Hello World', 'x')", true],
  ["'a' BETWEEN 'a ' AND 'b'", false],
  ["CASE note WHEN 'Hello World' THEN 'same' ELSE 'different' END", 'different'],
];
