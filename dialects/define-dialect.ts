/**
 * `defineDialect`: a vendor writes what is its own and gets the standard rest. What must be
 * written is the type `DialectDefinition` below (docs/dialects.md counts it).
 */
import type { FormulaDialect } from '../core/formula/formula-dialect.ts';
import type {
  BoundDialect, DatabaseConfig, Dialect, DialectCapabilities, DialectIntrospector, DialectWriter, Driver, ErrorMapper, SqlSpelling,
} from './dialect.ts';
import { noEstimate, standardSchemaExists, standardSpelling, type OwnSpelling } from './standard-sql.ts';

export interface DialectDefinition {
  readonly name: string;
  /** The schema used when a workspace names none; leave out where the connection's database is the scope (MySQL). */
  readonly defaultSchema?: string;
  readonly capabilities?: Partial<DialectCapabilities>;
  /** quoteIdent, placeholder, like and columnType, plus any standard spelling the vendor does differently. */
  readonly sql: OwnSpelling & Partial<SqlSpelling>;
  readonly writer: DialectWriter;
  /** introspect, plus schemaExists and estimateRows when the vendor has better than the defaults. */
  readonly introspector: Pick<DialectIntrospector, 'introspect'> & Partial<DialectIntrospector>;
  readonly errors: ErrorMapper;
  readonly formula: FormulaDialect;
  connect(config: DatabaseConfig): Promise<Driver>;
  /** Why a URL cannot be this vendor's; leave out to let the driver decide when it connects. */
  urlProblem?(url: string): string | null;
}

const DEFAULT_CAPABILITIES: DialectCapabilities = {
  needsUrl: true,
  maxParams: 65535,
  upsertMatchesAnyUniqueKey: false,
  jsonArrivesAsText: true,
  maxIdentifierLength: { limit: 63, unit: 'bytes' },
};

function bindDialect(dialect: Dialect, config: DatabaseConfig): BoundDialect {
  const schema = config.schema ?? dialect.defaultSchema;
  const { sql, writer, introspector } = dialect;
  const tableRef = (table: string) => sql.tableRef(schema, table);
  return {
    name: dialect.name,
    capabilities: dialect.capabilities,
    sql,
    formula: dialect.formula,
    mapError: dialect.errors,
    tableRef,
    insert: (db, statement) => writer.insert(db, tableRef(statement.table), statement),
    upsert: (db, statement) => writer.upsert(db, tableRef(statement.table), statement),
    insertAndRead: async (db, statement, read) => (writer.insertAndRead ? writer.insertAndRead(db, tableRef(statement.table), statement, read) : null),
    updateAndRead: async (db, update, read) => (writer.updateAndRead ? writer.updateAndRead(db, tableRef(update.table), update, read) : null),
    introspect: (db) => introspector.introspect(db, schema),
    schemaExists: (db) => introspector.schemaExists(db, schema),
    estimateRows: (db, select, rootTable) => introspector.estimateRows(db, select, tableRef(rootTable)),
    createTableIfMissing: (table, definition) => sql.createTableIfMissing(tableRef(table), definition),
  };
}

/** A complete, frozen `Dialect` from a definition: every part without a vendor spelling gets the default. */
export function defineDialect(definition: DialectDefinition): Dialect {
  const sql = standardSpelling(definition.sql);
  const dialect: Dialect = {
    name: definition.name,
    defaultSchema: definition.defaultSchema,
    capabilities: { ...DEFAULT_CAPABILITIES, ...definition.capabilities },
    sql,
    writer: definition.writer,
    introspector: {
      schemaExists: (db, schema) => standardSchemaExists(db, schema, sql),
      estimateRows: noEstimate,
      ...definition.introspector,
    },
    errors: definition.errors,
    formula: definition.formula,
    connect: definition.connect,
    urlProblem: definition.urlProblem ?? (() => null),
    // `this`, not the object built here: a dialect derived by spreading (`{ ...base, sql }`) binds its own parts.
    bind(this: Dialect, config) {
      return bindDialect(this, config);
    },
  };
  return Object.freeze(dialect);
}
