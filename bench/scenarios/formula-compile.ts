/**
 * Formula compile throughput: parse (gate 1) + check + emit for PostgreSQL, over 20
 * representative formulas on a small fixture model. Standalone: `npx tsx bench/scenarios/formula-compile.ts`.
 */
import { pathToFileURL } from 'node:url';
import { checkFormula, emitFormula, parseFormula } from '../../core/formula/index.ts';
import { ident } from '../../core/sql.ts';
import { postgresFormula } from '../../dialects/postgres/postgres-formula.ts';
import { context } from '../../test/support/formula-fixtures.ts';

const formulas: readonly string[] = [
  'amount * qty',
  "CONCAT(customer.name, ' (', customer.region.name, ')')",
  'price / qty',
  "CASE WHEN amount > 1000 THEN 'large' WHEN amount > 100 THEN 'medium' ELSE 'small' END",
  'COALESCE(note, code, \'-\')',
  'ROUND(amount * 1.2, 2)',
  "UPPER(TRIM(note)) || ' #' || CAST(id AS TEXT)",
  'paid AND qty BETWEEN 1 AND 10',
  "orderDate >= '2024-01-01' AND createdAt < CURRENT_TIMESTAMP",
  'LENGTH(SUBSTRING(note, 2, 5))',
  "REPLACE(code, '-', '')",
  'ABS(amount - price) + CEIL(amount) - FLOOR(price)',
  'MOD(qty, 3) = 0',
  'GREATEST(amount, price, 0) - LEAST(amount, price)',
  'NULLIF(qty, 0) IS NULL',
  "note LIKE '%urgent%' OR code NOT IN ('A', 'B', 'C')",
  'CAST(amount AS DECIMAL(10,2))',
  "CASE customer.region.name WHEN 'North' THEN 1 WHEN 'South' THEN 2 ELSE 0 END",
  'CAST(createdAt AS DATE) = CURRENT_DATE',
  "CONCAT('SELECT ', note, ' -- ', customer.vip)",
];

const columnRef = (path: readonly string[]) => ident(`t${path.length - 1}`, path[path.length - 1] ?? '');

function compileAll(): number {
  let parts = 0;
  for (const text of formulas) {
    const checked = checkFormula(parseFormula(text), context);
    parts += emitFormula(checked, { dialect: postgresFormula, columnRef }).parts.length;
  }
  return parts;
}

export async function benchFormulaCompile(): Promise<{ formulasPerSecond: number }> {
  for (let i = 0; i < 200; i++) compileAll();
  const rounds = 1500;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) compileAll();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { formulasPerSecond: Math.round((rounds * formulas.length) / seconds) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { formulasPerSecond } = await benchFormulaCompile();
  console.table([{ bench: 'formula compile (parse + check + emit)', formulas: formulas.length, formulasPerSecond, target: 20_000 }]);
}
