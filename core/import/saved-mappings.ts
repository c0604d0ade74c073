/**
 * Saved import mappings of a view (spec "CSV import" rule 8, DESIGN §12): `PRIVATE` ones are
 * seen by their creator only, `SHARED` ones by everyone with access to the view.
 */
import { PayloadReader } from '../payload.ts';
import type { ColumnRecord, ViewRecord } from '../workspace/types.ts';
import { ApiError } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import type { SavedMapping } from './job-store.ts';
import { importableColumns, type ImportMethod, type MappingInput } from './mapping.ts';

const VISIBILITIES = ['PRIVATE', 'SHARED'] as const;
const METHODS = ['INSERT', 'UPDATE'] as const;

function readMapping(reader: PayloadReader, header: boolean, entity: Entity, columns: readonly ColumnRecord[], method: ImportMethod): MappingInput | undefined {
  const value = reader.body.mapping;
  if (value === undefined) return reader.fail('mapping', 'required', 'is required');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reader.fail('mapping', 'type', 'must be an object {csvColumn: fieldName}');
  const importable = importableColumns(entity, columns, method);
  const out: MappingInput = {};
  for (const [key, target] of Object.entries(value as Record<string, unknown>)) {
    if (!header && !/^[1-9]\d*$/.test(key)) reader.fail(`mapping.${key}`, 'pattern', 'without a header, keys are 1-based column positions');
    if (target === null) {
      out[key] = null;
      continue;
    }
    if (typeof target !== 'string') {
      reader.fail(`mapping.${key}`, 'type', 'must be a field name or null');
      continue;
    }
    const column = importable.find((c) => c.field.name === target || c.field.column === target);
    if (!column) reader.fail(`mapping.${key}`, 'enum', `'${target}' is not an importable field of the view for method ${method}`);
    else out[key] = column.field.name;
  }
  if (Object.values(out).filter((v) => v !== null).length === 0) reader.fail('mapping', 'required', 'must map at least one column');
  return out;
}

function oneOf<T extends string>(reader: PayloadReader, key: string, allowed: readonly T[], fallback: T): T {
  const value = reader.string(key);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    reader.fail(key, 'enum', `must be one of ${allowed.join(', ')}`);
    return fallback;
  }
  return value as T;
}

export function readNewMapping(body: unknown, view: ViewRecord, entity: Entity, columns: readonly ColumnRecord[], createdBy: string): Omit<SavedMapping, 'id'> {
  const reader = new PayloadReader(body, ['name', 'visibility', 'mapping', 'header', 'method']);
  const name = reader.string('name', { required: true });
  const visibility = oneOf(reader, 'visibility', VISIBILITIES, 'PRIVATE');
  const method = oneOf(reader, 'method', METHODS, 'INSERT');
  const header = reader.boolean('header') ?? true;
  const mapping = readMapping(reader, header, entity, columns, method);
  reader.done();
  return { viewUuid: view.uuid, name: name ?? '', visibility, mapping: mapping ?? {}, header, method, createdBy };
}

/** A mapping another user keeps private does not exist for the caller. */
export function visibleTo(mapping: SavedMapping, subject: string): boolean {
  return mapping.visibility === 'SHARED' || mapping.createdBy === subject;
}

/** Only the creator, or an owner of the workspace, deletes a mapping. */
export function checkDeletable(mapping: SavedMapping, subject: string, isOwner: boolean): void {
  if (!isOwner && mapping.createdBy !== subject) throw new ApiError('FORBIDDEN', 'only the creator of a shared mapping or a workspace owner may delete it');
}
