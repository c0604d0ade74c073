/**
 * Bulk writes on PostgreSQL. The rows travel as ONE bound parameter, a JSON array of objects
 * keyed by column name (sent as UTF-8 bytes, see recordsetBytes), unpacked by
 * `json_populate_recordset(NULL::table, …)`: each value goes
 * through its column type's own input function (typmods, domains, enums and arrays included),
 * exactly as a text parameter would. Against a multi-row VALUES list with one parameter per
 * cell this halves the statement's time on the server (bench/scenarios/import.ts) and spares the client
 * thousands of placeholders; PostgREST sends its bulk inserts the same way.
 */
import { ident, join, raw, sql, type Sql } from '../../core/sql.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import type { Executor, InsertStatement, UpsertOutcome, UpsertStatement } from '../dialect.ts';

export function valuesList(rows: readonly (readonly unknown[])[]): Sql {
  return join(rows.map((row) => sql`(${join(row.map((value) => sql`${value}`))})`));
}

/** INSERT … VALUES: record creation, where the generated keys come back in row order. */
export function insertHead(table: Sql, statement: InsertStatement): Sql {
  const columns = join(statement.columns.map((c) => ident(c)));
  return sql`INSERT INTO ${table} (${columns}) VALUES ${valuesList(statement.rows)}`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A cell as the JSON value json_populate_recordset feeds to the column's input function. Values
 * arrive encoded by the dialect's encodeValue: dates as ISO text, binary as a Buffer (sent as
 * bytea hex text), bigints as BigInt.
 */
function plainCell(value: unknown): unknown {
  if (value === undefined) return null;
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * One cell as JSON text. json columns arrive as JSON text already and are embedded as they are,
 * so PostgreSQL stores the value, not a string of it. A lone surrogate becomes U+FFFD, as the pg
 * driver's UTF-8 encoding of a text parameter does; PostgreSQL's JSON parser would refuse it.
 */
function cellJson(type: ColumnType | undefined, value: unknown): string {
  if (type === 'json' && typeof value === 'string') return value;
  const plain = plainCell(value);
  if (typeof plain === 'string' && LONE_SURROGATE.test(plain)) return JSON.stringify(plain.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD'));
  return JSON.stringify(plain);
}

/** Cell by cell: json columns embedded as they are, lone surrogates replaced. */
function recordsetJsonByCell(statement: UpsertStatement): string {
  const keys = statement.columns.map((column, i) => `${i === 0 ? '{' : ','}${JSON.stringify(column)}:`);
  const types = statement.columnTypes;
  let text = '';
  for (const row of statement.rows) {
    text += text === '' ? '[' : ',';
    for (let i = 0; i < row.length; i++) text += keys[i] + cellJson(types[i], row[i]);
    text += '}';
  }
  return text === '' ? '[]' : `${text}]`;
}

/**
 * The rows as the JSON array json_populate_recordset reads. The usual case goes through one
 * native JSON.stringify (about twice as fast as cell by cell); json columns, whose text must be
 * embedded rather than quoted, and any `\ud` in the output (a lone surrogate, which JSON.stringify
 * escapes and PostgreSQL refuses, or a harmless look-alike) take the cell-by-cell path.
 */
export function recordsetJson(statement: UpsertStatement): string {
  // A column named __proto__ would set the object's prototype instead of a key.
  if (statement.columnTypes.includes('json') || statement.columns.includes('__proto__')) return recordsetJsonByCell(statement);
  const columns = statement.columns;
  const objects = statement.rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) object[columns[i] as string] = plainCell(row[i]);
    return object;
  });
  const text = JSON.stringify(objects);
  return text.includes('\\ud') || text.includes('\\uD') ? recordsetJsonByCell(statement) : text;
}

/**
 * The rows' JSON as UTF-8 bytes, sent as a bytea parameter that the server decodes
 * (`convert_from(…, 'UTF8')`). As a text parameter the JSON (about 85 KB per 500-row import
 * batch) is a V8 string that lives as long as its statement; early in an import most of them were
 * promoted to the old generation, which grew by about 30 MB before a mark-compact and made the
 * import's peak RSS (docs/writes-and-import.md, "Import memory"). As bytes it is outside the V8 heap, and
 * the string dies as soon as it is encoded. bytea rather than a binary json parameter: both
 * drivers (pg and PGlite) send a Buffer as bytea.
 */
function recordsetBytes(statement: UpsertStatement): Buffer {
  return Buffer.from(recordsetJson(statement), 'utf8');
}

function recordsetInsert(table: Sql, statement: UpsertStatement): Sql {
  const columns = join(statement.columns.map((c) => ident(c)));
  const rows = sql`convert_from(${recordsetBytes(statement)}::bytea, 'UTF8')::json`;
  return sql`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${table}, ${rows})`;
}

/**
 * INSERT … SELECT FROM json_populate_recordset … ON CONFLICT (cols) DO NOTHING | DO UPDATE.
 * `RETURNING (xmax = 0)` tells inserted rows from updated ones, counted in the statement so one
 * row comes back instead of one per row; rows skipped by DO NOTHING return nothing. The caller
 * has already removed rows sharing a conflict key, which PostgreSQL refuses ("cannot affect row
 * a second time").
 */
export function renderPostgresUpsert(table: Sql, statement: UpsertStatement): Sql {
  const head = recordsetInsert(table, statement);
  // ERROR and IGNORE are counted from the affected rows; only UPDATE needs inserted and updated apart.
  if (statement.action === 'ERROR') return head;
  const target = join(statement.conflictColumns.map((c) => ident(c)));
  if (statement.action === 'IGNORE') return sql`${head} ON CONFLICT (${target}) DO NOTHING`;
  // With nothing to overwrite, rewrite the first match column to itself so the row still counts as updated.
  const assigned = statement.updateColumns.length > 0 ? statement.updateColumns : statement.conflictColumns.slice(0, 1);
  const sets = join(assigned.map((c) => sql`${ident(c)} = EXCLUDED.${ident(c)}`));
  const upsert = sql`${head} ON CONFLICT (${target}) DO UPDATE SET ${sets} RETURNING (xmax = 0) AS inserted`;
  return sql`WITH ${raw('written')} AS (${upsert}) SELECT count(*) FILTER (WHERE inserted)::integer AS inserted, count(*)::integer AS written FROM ${raw('written')}`;
}

export async function runUpsert(
  db: Executor,
  render: (fragment: Sql) => { text: string; params: readonly unknown[] },
  table: Sql,
  statement: UpsertStatement,
): Promise<UpsertOutcome> {
  const result = await db.query(render(renderPostgresUpsert(table, statement)));
  if (statement.action !== 'UPDATE') {
    return { inserted: result.affectedRows, updated: 0, ignored: statement.rows.length - result.affectedRows };
  }
  const inserted = Number(result.rows[0]?.inserted ?? 0);
  const written = Number(result.rows[0]?.written ?? 0);
  return { inserted, updated: written - inserted, ignored: statement.rows.length - written };
}
