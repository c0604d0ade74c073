/**
 * Reads one schema of a PostgreSQL database (a server, or PGlite: same catalogs) into the
 * vendor-neutral DatabaseSchema. Five catalog queries, run together, whatever the table count.
 *
 * Only pg_catalog is read (information_schema filters by privilege and is slow on big
 * catalogs). Every query returns one row per column / key column / enum label, with scalar
 * values only, so nothing depends on how a driver parses arrays or JSON.
 */
import type { Executor } from '../dialect.ts';
import type {
  ColumnInfo,
  ColumnType,
  DatabaseSchema,
} from '../../core/schema/introspection.ts';
import { assembleSchema, cellBool, cellNumber, cellText, estimateOf, groupBy } from '../../core/schema/catalog-rows.ts';

type Row = Record<string, unknown>;

/**
 * Base tables: ordinary ('r') and partitioned ('p') tables; partitions themselves are reached
 * through their parent. reltuples is -1 until the table is first vacuumed or analyzed
 * (PostgreSQL 14+, "pg_class" in the manual).
 */
const TABLES = `
  select c.relname as table_name, c.reltuples::float8 as reltuples
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition
  order by c.relname`;

/**
 * Columns in ordinal order. A domain is mapped through its base type (one level). The typmod
 * of varchar(n)/char(n) is n + 4 and that of numeric(p,s) is ((p << 16) | s) + 4 ("pg_attribute"
 * atttypmod; format_type decodes it the same way). For a generated column, pg_attrdef holds the
 * generation expression, which is not a default.
 */
const COLUMNS = `
  select c.relname as table_name, a.attnum, a.attname as column_name,
         pg_catalog.format_type(a.atttypid, a.atttypmod) as native_type,
         bt.typname as base_type, bt.typtype as base_typtype, bt.oid::int8 as base_oid,
         case when t.typtype = 'd' then t.typtypmod else a.atttypmod end as typmod,
         a.attnotnull as not_null,
         a.attidentity as identity, a.attgenerated as generated,
         case when a.attgenerated = '' then pg_catalog.pg_get_expr(d.adbin, d.adrelid) end as default_value
  from pg_catalog.pg_attribute a
  join pg_catalog.pg_class c on c.oid = a.attrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_type t on t.oid = a.atttypid
  join pg_catalog.pg_type bt on bt.oid = case when t.typtype = 'd' then t.typbasetype else t.oid end
  left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition
    and a.attnum > 0 and not a.attisdropped
  order by c.relname, a.attnum`;

/** Labels of every enum type used by a column of the schema, in their sort order. */
const ENUM_LABELS = `
  select e.enumtypid::int8 as type_oid, e.enumlabel as label
  from pg_catalog.pg_enum e
  where e.enumtypid in (
    select case when t.typtype = 'd' then t.typbasetype else t.oid end
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_type t on t.oid = a.atttypid
    where n.nspname = $1 and a.attnum > 0 and not a.attisdropped)
  order by e.enumtypid, e.enumsortorder`;

/**
 * Unique indexes (unique and primary key constraints are backed by one), one row per key
 * column. Partial indexes and indexes on expressions are left out: neither can serve as an
 * upsert target on a plain column list. INCLUDE columns (beyond indnkeyatts) are not key columns.
 */
const UNIQUE_KEYS = `
  select c.relname as table_name, ic.relname as key_name, i.indisprimary as is_primary,
         k.ord, a.attname as column_name
  from pg_catalog.pg_index i
  join pg_catalog.pg_class c on c.oid = i.indrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_class ic on ic.oid = i.indexrelid
  cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, ord)
  join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
  where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition
    and i.indisunique and i.indisvalid and i.indpred is null and i.indexprs is null
    and k.ord <= i.indnkeyatts
  order by c.relname, ic.relname, k.ord`;

/**
 * Foreign keys, one row per column pair in constraint order. Only references to tables of the
 * same schema are reported: DatabaseSchema names tables without a schema.
 */
const FOREIGN_KEYS = `
  select c.relname as table_name, con.conname as fk_name, k.ord,
         a.attname as column_name, rc.relname as ref_table, ra.attname as ref_column
  from pg_catalog.pg_constraint con
  join pg_catalog.pg_class c on c.oid = con.conrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_class rc on rc.oid = con.confrelid
  cross join lateral unnest(con.conkey, con.confkey) with ordinality as k(attnum, refattnum, ord)
  join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
  join pg_catalog.pg_attribute ra on ra.attrelid = con.confrelid and ra.attnum = k.refattnum
  where n.nspname = $1 and con.contype = 'f' and rc.relnamespace = n.oid
    and c.relkind in ('r', 'p') and not c.relispartition
  order by c.relname, con.conname, k.ord`;

const TYPE_MAP: Readonly<Record<string, ColumnType>> = {
  int2: 'integer',
  int4: 'integer',
  int8: 'bigint',
  numeric: 'decimal',
  float4: 'float',
  float8: 'float',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamp',
  time: 'time',
  timetz: 'time',
  uuid: 'uuid',
  text: 'text',
  varchar: 'text',
  bpchar: 'text',
  citext: 'text',
  json: 'json',
  jsonb: 'json',
  bytea: 'binary',
};

/** True when `schema` exists and the session may use it (without USAGE its tables cannot be read). */
export async function postgresSchemaExists(db: Executor, schema: string): Promise<boolean> {
  const text = `select pg_catalog.has_schema_privilege(nspname, 'USAGE') as usable from pg_catalog.pg_namespace where nspname = $1`;
  const row = (await db.query({ text, params: [schema] })).rows[0];
  return row !== undefined && cellBool(row.usable);
}

/** Reads tables, columns, keys and foreign keys of `schema`. */
export async function introspectPostgres(db: Executor, schema: string): Promise<DatabaseSchema> {
  const run = async (text: string): Promise<Row[]> => (await db.query({ text, params: [schema] })).rows;
  const [tables, columns, enumLabels, uniqueKeys, foreignKeys] = await Promise.all([
    run(TABLES),
    run(COLUMNS),
    run(ENUM_LABELS),
    run(UNIQUE_KEYS),
    run(FOREIGN_KEYS),
  ]);
  const enums = groupBy(enumLabels, (r) => cellText(r.type_oid), (r) => cellText(r.label));
  return assembleSchema({ tables, columns, uniqueKeys, foreignKeys }, {
    toColumn: (r) => toColumn(r, enums),
    isPrimary: (_name, first) => cellBool(first?.is_primary),
    estimatedRows: (table) => estimateOf(table.reltuples),
  });
}

function toColumn(row: Row, enums: ReadonlyMap<string, string[]>): ColumnInfo {
  const baseType = cellText(row.base_type);
  const isEnum = cellText(row.base_typtype) === 'e';
  const typmod = cellNumber(row.typmod);
  const defaultValue = row.default_value == null ? null : cellText(row.default_value);
  const hasLength = baseType === 'varchar' || baseType === 'bpchar';
  const isNumeric = baseType === 'numeric';
  return {
    name: cellText(row.column_name),
    type: isEnum ? 'text' : (TYPE_MAP[baseType] ?? 'unknown'),
    nativeType: cellText(row.native_type),
    nullable: !cellBool(row.not_null),
    maxLength: hasLength && typmod >= 4 ? typmod - 4 : null,
    numericPrecision: isNumeric && typmod >= 4 ? ((typmod - 4) >> 16) & 0xffff : null,
    numericScale: isNumeric && typmod >= 4 ? (typmod - 4) & 0xffff : null,
    defaultValue,
    // attidentity: 'a' ALWAYS, 'd' BY DEFAULT; serial/bigserial are a nextval() default.
    autoIncrement: cellText(row.identity) !== '' || (defaultValue?.startsWith('nextval(') ?? false),
    generated: cellText(row.generated) !== '',
    enumValues: isEnum ? (enums.get(cellText(row.base_oid)) ?? []) : null,
  };
}
