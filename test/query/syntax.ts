/**
 * Syntax checks of the planner's statements with node-sql-parser, one grammar per vendor. The
 * parser misses a few constructs the dialects emit; those are taken out before parsing and are
 * checked by the golden text alone:
 * - PostgreSQL: `ESCAPE '\'` (the parser reads `\'` as an escaped quote, PostgreSQL does not)
 *   and the casts in json_populate_recordset(NULL::"schema"."table", $1::json) and
 *   convert_from($1::bytea, 'UTF8')::json (the parser takes no cast inside function arguments).
 * - MySQL: the 8.0.19 row alias `VALUES … AS new_row … = new_row.c`, given to the parser in the
 *   older `VALUES(c)` spelling. MariaDB's `INSERT … RETURNING` parses with the 'mariadb' grammar,
 *   which in turn misses `CAST(… AS CHAR CHARACTER SET utf8mb4)`, so reads use 'mysql'.
 * - SQL Server: see test/dialects/mssql/tsql-parser.ts.
 */
import nodeSqlParser from 'node-sql-parser';
import { parseTsql } from '../dialects/mssql/tsql-parser.ts';

export type SyntaxFamily = 'postgresql' | 'mysql' | 'mariadb' | 'transactsql';

const parser = new nodeSqlParser.Parser();

const POSTGRES_REWRITES: readonly [RegExp, string][] = [
  [/\s+ESCAPE\s+'\\'/g, ''],
  [/NULL::"[^"]+"(\."[^"]+")*/g, 'NULL'],
  [/(\$\d+)::json\b/g, '$1'],
  [/convert_from\((\$\d+)::bytea, 'UTF8'\)::json/g, '$1'],
];

const MYSQL_REWRITES: readonly [RegExp, string][] = [
  [/ AS `new_row` ON DUPLICATE KEY UPDATE/g, ' ON DUPLICATE KEY UPDATE'],
  [/`new_row`\.(`[^`]+`)/g, 'VALUES($1)'],
];

function rewrite(text: string, rules: readonly [RegExp, string][]): string {
  return rules.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

/** The text the parser is given for `family` (see the header comment). */
export function parsableText(family: SyntaxFamily, text: string): string {
  if (family === 'postgresql') return rewrite(text, POSTGRES_REWRITES);
  if (family === 'mysql' || family === 'mariadb') return rewrite(text, MYSQL_REWRITES);
  return text;
}

/** Throws the parser's message when `text` is not a statement of `family` it accepts. */
export function checkSyntax(family: SyntaxFamily, text: string): void {
  if (family === 'transactsql') {
    parseTsql(text);
    return;
  }
  parser.astify(parsableText(family, text), { database: family });
}
