/**
 * The plugin as a `VendorTarget`: the shared HTTP suites run against it unchanged. Each
 * provision is a scratch area holding the shared fixture, loaded through the plugin's driver.
 */
import { TABLE_ROWS } from '../support/fixture.ts';
import type { ProvisionedDatabase, Rows, VendorTarget } from '../support/vendors.ts';
import { createTable, httpFixtureTables } from './fixture-ddl.ts';
import { connect, currentPlugin, dialectsToRegister, encode, matchesAnyUniqueKey, quoted, rendererOf, tableText, vendorOf, type Plugin } from './plugin.ts';
import { createScratch, type Scratch } from './scratch.ts';

async function loadFixture(plugin: Plugin, scratch: Scratch): Promise<void> {
  const ref = (name: string) => tableText(plugin, scratch.config, name);
  const q = (name: string) => quoted(plugin, name);
  const p = (i: number) => rendererOf(plugin).placeholder(i);
  const tables = httpFixtureTables(plugin.support);
  for (const table of tables) await scratch.db.query({ text: createTable(table, ref, q), params: [] });
  for (const [name, rows] of TABLE_ROWS) {
    const types = new Map(tables.find((t) => t.name === name)?.columns.map((c) => [c.name, c.type]));
    const columns = Object.keys(rows[0] ?? {});
    const params: unknown[] = [];
    const tuples = rows.map((row) => `(${columns.map((c) => { params.push(encode(plugin, types.get(c) ?? 'text', row[c] ?? null)); return p(params.length); }).join(', ')})`);
    await scratch.db.query({ text: `INSERT INTO ${ref(name)} (${columns.map(q).join(', ')}) VALUES ${tuples.join(', ')}`, params });
    const reset = plugin.support.resetIdentity(ref(name));
    if (reset) await scratch.db.query({ text: reset, params: [] });
  }
}

async function provision(plugin: Plugin, withFixture: boolean): Promise<ProvisionedDatabase> {
  const scratch = await createScratch(plugin, 'wdapi_kit');
  try {
    if (withFixture) await loadFixture(plugin, scratch);
  } catch (error) {
    await scratch.drop().catch(() => undefined);
    throw error;
  }
  const { url, schema } = scratch.config;
  return {
    sql: { autoId: plugin.support.autoId, param: (i) => rendererOf(plugin).placeholder(i), resetIdentity: (table) => plugin.support.resetIdentity(table) },
    database: { vendor: vendorOf(plugin), url, ...(schema === undefined ? {} : { schema }) },
    query: async (text, params) => (await scratch.db.query({ text, params: params ?? [] })) as Rows,
    table: (name) => tableText(plugin, scratch.config, name),
    drop: () => scratch.drop(),
  };
}

/** The target of the plugin named by the kit's environment. */
export async function conformanceTarget(): Promise<VendorTarget> {
  const plugin = await currentPlugin();
  return {
    name: vendorOf(plugin),
    dialects: dialectsToRegister(plugin),
    conformancePlugin: true,
    upsertMatchesAnyUniqueKey: matchesAnyUniqueKey(plugin),
    async available() {
      try {
        const db = await connect(plugin, { vendor: vendorOf(plugin), url: plugin.url });
        try {
          await db.ping();
          return true;
        } finally {
          await db.close();
        }
      } catch {
        return false;
      }
    },
    provision: (_service, withFixture) => provision(plugin, withFixture),
  };
}
