/**
 * The plugin under test, and the ONLY module of the kit that touches `Dialect` members: when
 * the Dialect interface changes shape, this file is the one to update.
 *
 * The module named by --dialect exports its `Dialect` as `dialect` (or as its default export)
 * and a `ConformanceSupport` as `conformance` (dialects/conformance.ts).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ident, render, type CompiledSql, type Sql, type SqlRenderer } from '../../core/sql.ts';
import type { FormulaDialect } from '../../core/formula/index.ts';
import type { ColumnType, DatabaseSchema } from '../../core/schema/introspection.ts';
import type { ConformanceSupport } from '../../dialects/conformance.ts';
import type { DatabaseConfig, Dialect } from '../../dialects/dialect.ts';

/** Environment variables that carry the kit's arguments from run.ts into the suites. */
export const DIALECT_ENV = 'WDAPI_CONFORMANCE_DIALECT';
export const URL_ENV = 'WDAPI_CONFORMANCE_URL';

export interface Plugin {
  readonly dialect: Dialect;
  readonly support: ConformanceSupport;
  /** The URL of the database the kit runs on. */
  readonly url: string;
}

/** A connection through the plugin's own driver. */
export interface PluginConnection {
  query(statement: CompiledSql): Promise<Record<string, unknown>[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** True when run.ts started this process's suites: they then run against the plugin only. */
export function kitMode(): boolean {
  return Boolean(process.env[DIALECT_ENV]);
}

function isDialect(value: unknown): value is Dialect {
  const d = value as Partial<Dialect> | null;
  return typeof d === 'object' && d !== null && typeof d.name === 'string' && typeof d.connect === 'function' && typeof d.sql?.quoteIdent === 'function';
}

/** Imports and checks the module named by `path` (relative to the working directory). */
export async function loadPluginModule(path: string): Promise<{ dialect: Dialect; support: ConformanceSupport }> {
  const mod = (await import(pathToFileURL(isAbsolute(path) ? path : resolve(path)).href)) as Record<string, unknown>;
  const dialect = mod.dialect ?? mod.default;
  if (!isDialect(dialect)) throw new Error(`${path} exports no Dialect as \`dialect\` or as its default export`);
  const support = mod.conformance as ConformanceSupport | undefined;
  if (!support || typeof support.autoId !== 'string' || typeof support.resetIdentity !== 'function' || !support.types || !support.defaults) {
    throw new Error(`${path} exports no \`conformance\` object (autoId, types, defaults, resetIdentity; see docs/dialects.md)`);
  }
  return { dialect, support };
}

let loaded: Promise<Plugin> | undefined;

/** The plugin named by the kit's environment, loaded once per process. */
export function currentPlugin(): Promise<Plugin> {
  const path = process.env[DIALECT_ENV];
  const url = process.env[URL_ENV];
  if (!path || !url) throw new Error(`${DIALECT_ENV} and ${URL_ENV} must be set (npm run conformance -- --dialect <module> --url <database url>)`);
  loaded ??= loadPluginModule(path).then((m) => ({ ...m, url }));
  return loaded;
}

// ── Everything the kit reads from the Dialect ─────────────────────────────────────────────

export const vendorOf = (plugin: Plugin): string => plugin.dialect.name;

export const rendererOf = (plugin: Plugin): SqlRenderer => ({
  quoteIdent: (name) => plugin.dialect.sql.quoteIdent(name),
  placeholder: (index) => plugin.dialect.sql.placeholder(index),
});

export const formulaOf = (plugin: Plugin): FormulaDialect => plugin.dialect.formula;

export const matchesAnyUniqueKey = (plugin: Plugin): boolean => plugin.dialect.capabilities.upsertMatchesAnyUniqueKey;

/** The quoted, qualified reference of `table` in the area `config` points at. */
export const tableText = (plugin: Plugin, config: DatabaseConfig, table: string): string => render(plugin.dialect.bind(config).tableRef(table), rendererOf(plugin)).text;

export const quoted = (plugin: Plugin, name: string): string => render(ident(name), rendererOf(plugin)).text;

/** A value as the plugin's driver binds it for a column of `type`. */
export const encode = (plugin: Plugin, type: ColumnType, value: unknown): unknown => plugin.dialect.sql.encodeValue(type, value);

export async function connect(plugin: Plugin, config: DatabaseConfig): Promise<PluginConnection> {
  const driver = await plugin.dialect.connect({ ...config, poolSize: 2 });
  return {
    query: async (statement) => (await driver.query(statement)).rows,
    ping: () => driver.ping(),
    close: () => driver.close(),
  };
}

export async function introspect(plugin: Plugin, config: DatabaseConfig): Promise<DatabaseSchema> {
  const driver = await plugin.dialect.connect({ ...config, poolSize: 1 });
  try {
    return await plugin.dialect.bind(config).introspect(driver);
  } finally {
    await driver.close();
  }
}

/** Renders a fragment as the plugin spells it. */
export const renderFor = (plugin: Plugin, fragment: Sql): CompiledSql => render(fragment, rendererOf(plugin));

/** The plugin's dialect, to register with a service under test (its name may shadow a built-in). */
export const dialectsToRegister = (plugin: Plugin): readonly Dialect[] => [plugin.dialect];
