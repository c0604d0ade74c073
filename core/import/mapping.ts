/**
 * Which CSV column feeds which field (spec "CSV import" rules 2–4, DESIGN §12 "Import").
 * Importable columns come from the view in its order; a header maps by display name
 * (case-insensitive), then API field name, then database column name; without a header the
 * columns map by position. Mapping problems are 400 BAD_REQUEST before any row is read.
 */
import type { ColumnRecord } from '../workspace/types.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { Entity, Field } from '../schema/model.ts';

export type ImportMethod = 'INSERT' | 'UPDATE';

/** An importable view column. */
export interface ImportColumn {
  readonly field: Field;
  readonly displayName: string;
}

export interface MappedColumn {
  /** 0-based position in the record. */
  readonly index: number;
  readonly csvColumn: string;
  readonly field: Field;
}

export interface ImportMapping {
  readonly columns: readonly MappedColumn[];
  /** `{csvColumn: fieldName}` as reported in the `started` event; positions are "1", "2", … without a header. */
  readonly mapping: Record<string, string>;
  readonly skippedColumns: string[];
  /** Number of fields every record must have. */
  readonly width: number;
}

/** An explicit mapping: CSV column (or 1-based position without a header) → field name; null skips. */
export type MappingInput = Record<string, string | null>;

/**
 * Spec rule 4: regular columns, a UUID key and foreign key columns are importable; an
 * auto-increment key only for UPDATE (which matches on it); auto-set timestamps, generated
 * columns, relationship display and computed columns never.
 */
function importable(field: Field, method: ImportMethod): boolean {
  if (field.autoTimestamp || field.generated) return false;
  if (field.primaryKey && field.autoIncrement) return method === 'UPDATE';
  return true;
}

/** The view's importable columns in view order. Display groups take no position: their members are columns of their own. */
export function importableColumns(entity: Entity, columns: readonly ColumnRecord[], method: ImportMethod): ImportColumn[] {
  const out: ImportColumn[] = [];
  const seen = new Set<string>();
  for (const column of [...columns].sort((a, b) => a.position - b.position)) {
    if (column.kind !== 'FIELD' && column.kind !== 'RELATIONSHIP') continue;
    const field = entity.fieldsByName.get(column.fieldName);
    if (!field || seen.has(field.name) || !importable(field, method)) continue;
    seen.add(field.name);
    out.push({ field, displayName: column.displayName });
  }
  return out;
}

function byHeader(header: string, columns: readonly ImportColumn[]): ImportColumn | undefined {
  const name = header.trim();
  const lower = name.toLowerCase();
  return columns.find((c) => c.displayName.toLowerCase() === lower)
    ?? columns.find((c) => c.field.name === name)
    ?? columns.find((c) => c.field.column === name);
}

function assemble(pairs: readonly MappedColumn[], skipped: string[], width: number): ImportMapping {
  // fromEntries defines its keys: a CSV column named __proto__ stays a key (an assignment would
  // try to set the prototype and be ignored).
  const mapping: Record<string, string> = Object.fromEntries(pairs.map((pair) => [pair.csvColumn, pair.field.name]));
  return { columns: pairs, mapping, skippedColumns: skipped, width };
}

/** Header auto-mapping: the first CSV column to reach a field wins; the rest are skipped and listed. */
export function autoMapping(header: readonly string[], columns: readonly ImportColumn[]): ImportMapping {
  const pairs: MappedColumn[] = [];
  const skipped: string[] = [];
  const used = new Set<string>();
  header.forEach((csvColumn, index) => {
    const column = byHeader(csvColumn, columns);
    if (!column || used.has(column.field.name)) {
      skipped.push(csvColumn);
      return;
    }
    used.add(column.field.name);
    pairs.push({ index, csvColumn, field: column.field });
  });
  return assemble(pairs, skipped, header.length);
}

/** Without a header: the i-th field goes to the i-th importable column; extra fields are skipped. */
export function positionalMapping(width: number, columns: readonly ImportColumn[]): ImportMapping {
  const pairs: MappedColumn[] = [];
  const skipped: string[] = [];
  for (let index = 0; index < width; index++) {
    const column = columns[index];
    if (column) pairs.push({ index, csvColumn: String(index + 1), field: column.field });
    else skipped.push(String(index + 1));
  }
  return assemble(pairs, skipped, width);
}

function targetField(name: string, columns: readonly ImportColumn[], entity: Entity): Field {
  const column = columns.find((c) => c.field.name === name) ?? columns.find((c) => c.field.column === name);
  if (column) return column.field;
  const known = entity.fieldsByName.get(name) ?? entity.fields.find((f) => f.column === name);
  if (known) throw badRequest(`the mapping targets '${name}', which cannot be imported (read-only, generated or not in the view)`);
  throw badRequest(`the mapping targets '${name}', which is not a field of ${entity.name}`);
}

function sourceIndex(key: string, header: readonly string[] | null, width: number): number {
  if (header === null) {
    const position = /^\d+$/.test(key) ? Number(key) : NaN;
    if (!(position >= 1 && position <= width)) throw badRequest(`without a header, mapping keys are column positions 1..${width}; got '${key}'`);
    return position - 1;
  }
  const exact = header.indexOf(key);
  const index = exact >= 0 ? exact : header.findIndex((h) => h.trim().toLowerCase() === key.trim().toLowerCase());
  if (index < 0) throw badRequest(`the mapping names the CSV column '${key}', which is not in the header`);
  return index;
}

/** An explicit mapping (X-Import-Mapping header or a saved mapping); CSV columns it leaves out are skipped. */
export function explicitMapping(input: MappingInput, header: readonly string[] | null, width: number, columns: readonly ImportColumn[], entity: Entity): ImportMapping {
  const byIndex = new Map<number, MappedColumn>();
  const targets = new Set<string>();
  for (const [key, target] of Object.entries(input)) {
    if (target === null || target === '') continue;
    const index = sourceIndex(key, header, width);
    const field = targetField(target, columns, entity);
    if (targets.has(field.name)) throw badRequest(`the mapping sends two CSV columns to '${field.name}'`);
    targets.add(field.name);
    byIndex.set(index, { index, csvColumn: header ? (header[index] ?? key) : String(index + 1), field });
  }
  const pairs = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const skipped: string[] = [];
  for (let index = 0; index < width; index++) if (!byIndex.has(index)) skipped.push(header ? (header[index] ?? String(index + 1)) : String(index + 1));
  return assemble(pairs, skipped, width);
}

/** DESIGN §12: UPDATE without the primary key, or nothing mapped at all, is refused before any row. */
export function checkMapping(mapping: ImportMapping, entity: Entity, method: ImportMethod, columns: readonly ImportColumn[]): void {
  const names = mapping.columns.map((c) => c.field.name);
  if (names.length === 0) {
    const wanted = columns.map((c) => `${c.displayName} (${c.field.name})`).join(', ');
    throw new ApiError('BAD_REQUEST', `no CSV column maps to an importable column of the view; importable columns: ${wanted}`);
  }
  if (method === 'UPDATE') {
    if (!names.includes(entity.idField.name)) throw badRequest(`method UPDATE matches rows on the primary key: map a CSV column to '${entity.idField.name}'`);
    if (names.length === 1) throw badRequest('method UPDATE needs at least one mapped column besides the primary key');
  }
}

/** Mapping inputs arrive as JSON from a header or a saved mapping: an object of strings (or null). */
export function readMappingInput(value: unknown, source: string): MappingInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(`${source} must be a JSON object {csvColumn: fieldName}`);
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, target] of entries) {
    if (target !== null && typeof target !== 'string') throw badRequest(`${source}: the target of '${key}' must be a field name or null`);
  }
  return Object.fromEntries(entries) as MappingInput; // defines keys, so '__proto__' stays one
}
