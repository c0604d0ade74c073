/**
 * The kit's private area on the plugin's database: a schema (MySQL: a database) of its own, so
 * the fixture's table names (regions, customers, …) never meet the author's tables, and dropped
 * afterwards whatever the suites created in it.
 */
import type { DatabaseConfig } from '../../dialects/dialect.ts';
import { uniqueName } from '../support/names.ts';
import { connect, introspect, quoted, tableText, vendorOf, type Plugin, type PluginConnection } from './plugin.ts';

export interface Scratch {
  /** The workspace `database` payload (and DatabaseConfig) of the area. */
  readonly config: DatabaseConfig;
  /** A connection into the area. */
  readonly db: PluginConnection;
  drop(): Promise<void>;
}

async function onAdminUrl<T>(plugin: Plugin, work: (db: PluginConnection) => Promise<T>): Promise<T> {
  const admin = await connect(plugin, { vendor: vendorOf(plugin), url: plugin.url });
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}

/** Tables in an order that drops each before the tables it references. */
function dropOrder(tables: readonly { name: string; foreignKeys: readonly { refTable: string }[] }[]): string[] {
  const left = new Map(tables.map((t) => [t.name, t]));
  const order: string[] = [];
  while (left.size > 0) {
    const referenced = new Set([...left.values()].flatMap((t) => t.foreignKeys.map((fk) => fk.refTable).filter((r) => r !== t.name)));
    const free = [...left.keys()].filter((name) => !referenced.has(name));
    // A reference cycle: drop the rest in any order and let the database say if it minds.
    for (const name of free.length > 0 ? free : [...left.keys()]) {
      order.push(name);
      left.delete(name);
    }
  }
  return order;
}

export async function createScratch(plugin: Plugin, prefix: string): Promise<Scratch> {
  const name = uniqueName(prefix);
  const create = plugin.support.scratch?.create?.(quoted(plugin, name)) ?? `CREATE SCHEMA ${quoted(plugin, name)}`;
  await onAdminUrl(plugin, (admin) => admin.query({ text: create, params: [] }));
  const located = plugin.support.scratch?.database?.(plugin.url, name) ?? { url: plugin.url, schema: name };
  const config: DatabaseConfig = { vendor: vendorOf(plugin), ...located };
  const db = await connect(plugin, config);
  return {
    config,
    db,
    async drop() {
      const schema = await introspect(plugin, config);
      for (const table of dropOrder(schema.tables)) await db.query({ text: `DROP TABLE ${tableText(plugin, config, table)}`, params: [] });
      await db.close();
      await onAdminUrl(plugin, (admin) => admin.query({ text: `DROP SCHEMA ${quoted(plugin, name)}`, params: [] }));
    },
  };
}
