/**
 * The import wizard's mapping preview (spec rules 2 and 4, as core/import/mapping.ts applies them
 * on the server): which view columns a file may fill, and which CSV column goes to which of them
 * before the user changes anything. Pure, so vitest checks it (test/admin-app/import-mapping.test.ts).
 */
export interface MappingColumn {
  readonly kind: string;
  readonly fieldName: string;
  readonly displayName: string;
}

export interface MappingField {
  readonly name: string;
  readonly column: string;
  readonly primaryKey: boolean;
  readonly autoIncrement: boolean;
  readonly autoTimestamp: string | null;
  readonly generated: boolean;
}

export interface Importable {
  readonly fieldName: string;
  readonly displayName: string;
  readonly column: string;
}

/** Regular and foreign-key columns; an auto-increment key only for UPDATE; never timestamps set by the service, generated or computed columns. */
export function importableColumns(columns: readonly MappingColumn[], fields: readonly MappingField[], method: 'INSERT' | 'UPDATE'): Importable[] {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const out: Importable[] = [];
  for (const column of columns) {
    const field = byName.get(column.fieldName);
    if (!field || (column.kind !== 'FIELD' && column.kind !== 'RELATIONSHIP')) continue;
    if (field.autoTimestamp || field.generated) continue;
    if (field.primaryKey && field.autoIncrement && method !== 'UPDATE') continue;
    out.push({ fieldName: field.name, displayName: column.displayName, column: field.column });
  }
  return out;
}

/** Display name (any case), then field name, then database column; the first CSV column to reach a field wins. */
export function autoMapping(header: readonly string[], importable: readonly Importable[]): Record<string, string | null> {
  const used = new Set<string>();
  const mapping: Record<string, string | null> = {};
  for (const csvColumn of header) {
    const name = csvColumn.trim();
    const lower = name.toLowerCase();
    const target =
      importable.find((c) => c.displayName.toLowerCase() === lower) ?? importable.find((c) => c.fieldName === name) ?? importable.find((c) => c.column === name);
    mapping[csvColumn] = target && !used.has(target.fieldName) ? target.fieldName : null;
    if (target) used.add(target.fieldName);
  }
  return mapping;
}

/**
 * The X-Import-Mapping value: percent-encoded UTF-8 JSON (docs/admin-app.md), because a header
 * carries Latin-1 at most and fetch refuses a column name such as "名前" in it.
 */
export function mappingHeader(mapping: Readonly<Record<string, string | null>>): string {
  return encodeURIComponent(JSON.stringify(mapping));
}
