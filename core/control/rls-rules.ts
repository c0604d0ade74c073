/** RLS rule payloads (DESIGN §10, §12): the column may be named by its API field name; the table column is stored. */
import type { Entity } from '../schema/model.ts';
import { PayloadReader } from '../payload.ts';
import type { RlsRuleRecord } from '../workspace/types.ts';

const CLAIM_PATH = /^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/;

function resolveColumn(reader: PayloadReader, entity: Entity, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const field = entity.fields.find((f) => f.column === name) ?? entity.fieldsByName.get(name);
  if (!field) return reader.fail('column', 'unknown', `is not a column of ${entity.name}; columns: ${entity.fields.map((f) => f.column).join(', ')}`);
  return field.column;
}

export function readNewRule(body: unknown, entity: Entity, viewUuid: string): Omit<RlsRuleRecord, 'id'> {
  const reader = new PayloadReader(body, ['column', 'claim', 'enabled']);
  const column = resolveColumn(reader, entity, reader.string('column', { required: true }));
  const claim = reader.string('claim', { required: true, pattern: CLAIM_PATH, patternText: 'a claim name or dotted path' });
  const enabled = reader.boolean('enabled') ?? true;
  reader.done();
  return { viewUuid, column: column ?? '', claim: claim ?? '', enabled };
}

export function readRuleChanges(body: unknown, entity: Entity, rule: RlsRuleRecord): RlsRuleRecord {
  const reader = new PayloadReader(body, ['column', 'claim', 'enabled']);
  const column = resolveColumn(reader, entity, reader.string('column'));
  const claim = reader.string('claim', { pattern: CLAIM_PATH, patternText: 'a claim name or dotted path' });
  const enabled = reader.boolean('enabled');
  reader.done();
  return { ...rule, ...(column ? { column } : {}), ...(claim ? { claim } : {}), ...(enabled !== undefined ? { enabled } : {}) };
}
