/**
 * The SQL of the CSV export through COPY (postgres-copy.ts): each cell as the text
 * core/query/export-cells.ts makes of the value pg hands over, and the statement's `$n`
 * placeholders turned into reads of transaction-local settings: COPY is a utility statement,
 * which takes no bound parameters.
 */
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { CsvCopyColumn } from '../dialect.ts';
import { quoteIdent } from './quote-ident.ts';

/** The alias of the export's statement inside the COPY query. */
const ROWS = 'wdapi_rows';

/**
 * The cell text of a column of `type`, or null when no SQL gives exactly the row path's text:
 * float (JavaScript and PostgreSQL print a double's shortest digits with different exponent
 * rules, and -0 differently), json (pg parses it and JSON.stringify respaces and reorders keys),
 * unknown (arrays and other types pg parses into objects).
 * - integer, bigint, text, uuid, time: the type's own output, which pg hands over as it is
 *   (bpchar keeps its padding: no cast to text, which would strip it).
 * - timestamp: the type's own output too, which copy-records.ts turns into the wire form as
 *   postgres-types.ts turns a row's. `to_char` in SQL made the same text at 0.4 s of the
 *   backend's time per column per million rows.
 * - decimal: trailing fraction zeros dropped (`12.50` → `12.5`, `0.00` → `0`), as decimalText
 *   does; PostgreSQL 13's trim_scale.
 * - date: the ISO text's first ten characters, as toDate slices them.
 * - binary: base64 without encode's line breaks, as Buffer's toString('base64').
 */
export function cellSql(ref: string, type: ColumnType): string | null {
  switch (type) {
    case 'integer':
    case 'bigint':
    case 'text':
    case 'uuid':
    case 'time':
    case 'timestamp':
      return ref;
    case 'decimal':
      return `trim_scale(${ref})`;
    case 'boolean':
      return `CASE WHEN ${ref} THEN 'true' WHEN NOT ${ref} THEN 'false' END`;
    case 'date':
      return `left(CAST(${ref} AS text), 10)`;
    case 'binary':
      return `translate(encode(${ref}, 'base64'), chr(10), '')`;
    default:
      return null;
  }
}

/** A column's cell, empty when one of its expanded rows is missing or hidden (as export-cells.ts's guards). */
function guardedCell(column: CsvCopyColumn): string | null {
  const cell = cellSql(`${ROWS}.${quoteIdent(column.alias)}`, column.type);
  if (cell === null || column.emptyWhenNull.length === 0) return cell;
  const present = column.emptyWhenNull.map((alias) => `${ROWS}.${quoteIdent(alias)} IS NOT NULL`).join(' AND ');
  return `CASE WHEN ${present} THEN ${cell} END`;
}

/**
 * The COPY of `select` (already free of placeholders), or null when a column has no exact cell.
 * A last NULL column ends every record with `,\n`, which copy-records.ts checks and writes as the
 * CRLF the row path writes; it also makes every record at least two
 * cells, so a lone `\.` is never quoted (COPY quotes it only in a single-column output).
 */
export function copyStatement(select: string, columns: readonly CsvCopyColumn[]): string | null {
  const cells: string[] = [];
  for (const column of columns) {
    const cell = guardedCell(column);
    if (cell === null) return null;
    cells.push(cell);
  }
  return `COPY (SELECT ${[...cells, 'NULL'].join(', ')} FROM (${select}) AS ${ROWS}) TO STDOUT (FORMAT csv)`;
}

const isIdentifierChar = (c: string | undefined): boolean => c !== undefined && /[\w$\u0080-\uffff]/.test(c);

/** The index of the quote closing the literal or identifier opened at `open` (a doubled quote is part of it), or -1. */
function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] !== quote) continue;
    if (text[i + 1] !== quote) return i;
    i++;
  }
  return -1;
}

/**
 * `text` with every `$n` placeholder replaced by `replace(n)`, skipping quoted literals and
 * identifiers. Null for anything this scanner does not read exactly (E'' strings with backslash
 * escapes, dollar quoting, comments): core's statements hold none, and the caller then lets core
 * write the rows.
 */
export function replacePlaceholders(text: string, replace: (index: number) => string): string | null {
  const parts: string[] = [];
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      const end = closingQuote(text, i);
      if (end < 0) return null;
      i = end + 1;
    } else if ((c === '-' && next === '-') || (c === '/' && next === '*')) return null;
    else if ((c === 'E' || c === 'e') && next === "'" && !isIdentifierChar(text[i - 1])) return null;
    else if (c === '$' && !isIdentifierChar(text[i - 1])) {
      const digits = /^\d+/.exec(text.slice(i + 1, i + 12))?.[0];
      if (!digits) return null;
      parts.push(text.slice(from, i), replace(Number(digits)));
      i += 1 + digits.length;
      from = i;
    } else i++;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
