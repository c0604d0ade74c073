/**
 * The plugin as a target of the formula differential property (test/formula/db.ts): the formula
 * fixture tables in a scratch area, the plugin's formula dialect, and the entity model as the
 * plugin's own introspection reports it (native types drive `fieldValue`).
 */
import { buildModel } from '../../core/schema/index.ts';
import type { FormulaValue } from '../../core/formula/index.ts';
import type { ColumnType } from '../../core/schema/introspection.ts';
import { normalise, type Target } from '../formula/db.ts';
import { createTable, formulaFixtureTables } from './fixture-ddl.ts';
import { currentPlugin, encode, formulaOf, introspect, quoted, rendererOf, tableText, vendorOf } from './plugin.ts';
import { createScratch } from './scratch.ts';

/**
 * A driver value as the evaluator would give it, whatever the driver's habits: Dates to ISO
 * text, 0/1 booleans to booleans, then the shared normalisation (numbers, timestamp text).
 */
export function normaliseAny(value: unknown, type: string): unknown {
  if (value instanceof Date) return normalise(type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString(), type);
  if (type === 'boolean' && (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint')) {
    return String(value) === '1' ? true : String(value) === '0' ? false : value;
  }
  if (typeof value === 'bigint') return Number(value);
  return normalise(value, type);
}

export async function openPluginFormulaTarget(): Promise<Target> {
  const plugin = await currentPlugin();
  const scratch = await createScratch(plugin, 'wdapi_kit_formula');
  const ref = (name: string) => tableText(plugin, scratch.config, name);
  const run = async (text: string, params: unknown[] = []) => scratch.db.query({ text, params });
  try {
    for (const table of formulaFixtureTables(plugin.support)) await run(createTable(table, ref, (name) => quoted(plugin, name)));
  } catch (error) {
    await scratch.drop().catch(() => undefined);
    throw error;
  }
  const model = buildModel(await introspect(plugin, scratch.config));
  const orders = model.entities.get('orders');
  if (!orders) throw new Error(`the ${vendorOf(plugin)} introspection of the formula fixture has no orders entity`);
  return {
    name: vendorOf(plugin),
    dialect: formulaOf(plugin),
    renderer: rendererOf(plugin),
    context: { entity: orders, model },
    ddl: [],
    toParam: (value: FormulaValue, type: ColumnType) => encode(plugin, type, value),
    normalise: normaliseAny,
    query: run,
    table: ref,
    close: () => scratch.drop(),
  };
}
