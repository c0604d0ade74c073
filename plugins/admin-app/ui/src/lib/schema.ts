/** The workspace's entity model as `GET …/schema` describes it, and what the screens derive from it. */
import { adminBase, api } from './api.ts';
import { operatorsFor as operatorsOfKind } from '../../../../../core/query/operators.ts';

export interface FieldInfo {
  readonly name: string;
  readonly column: string;
  readonly type: string;
  readonly nullable: boolean;
  readonly maxLength: number | null;
  readonly primaryKey: boolean;
  readonly autoIncrement: boolean;
  readonly autoTimestamp: string | null;
  readonly generated: boolean;
  readonly hasDefault: boolean;
}

export interface RelationshipInfo {
  readonly name: string;
  readonly kind: 'manyToOne' | 'oneToMany';
  readonly field: string;
  readonly target: string;
}

export interface EntityInfo {
  readonly name: string;
  readonly table: string;
  readonly fields: readonly FieldInfo[];
  readonly relationships: readonly RelationshipInfo[];
  readonly options: Record<string, unknown>;
  /** The migration flag as set (`{blocksReads, blocksWrites, retryAfterSeconds}`), or null. */
  readonly migration?: unknown;
}

export interface ViewInfo {
  readonly uuid: string;
  readonly slug: string;
  readonly name: string;
  readonly entity: string;
  readonly isDefault: boolean;
}

export async function loadSchema(org: string, ws: string): Promise<EntityInfo[]> {
  return (await api<{ entities: EntityInfo[] }>('GET', `${adminBase(org, ws)}/schema`)).data.entities;
}

export async function loadViews(org: string, ws: string): Promise<ViewInfo[]> {
  return (await api<ViewInfo[]>('GET', `${adminBase(org, ws)}/views`)).data;
}

/** A field the client may write when creating (generated ids and service timestamps are not). */
export function writable(field: FieldInfo, mode: 'create' | 'update'): boolean {
  if (field.generated || field.autoTimestamp) return false;
  if (field.primaryKey) return mode === 'create' && !field.autoIncrement;
  return true;
}

/** Filter operators offered for a field type: the API's own table (core/query/operators.ts). */
export function operatorsFor(type: string): readonly string[] {
  if (type === 'boolean') return operatorsOfKind('boolean');
  return operatorsOfKind(type === 'text' || type === 'uuid' ? 'text' : 'ordered');
}

/**
 * The field names of an entity's default view in column order (`position`), or [] when there is no
 * such view or the credential may not read it: the grid then keeps the entity's own order.
 */
export async function loadColumnOrder(org: string, ws: string, entity: string): Promise<string[]> {
  try {
    const view = (await loadViews(org, ws)).find((v) => v.entity === entity && v.isDefault);
    if (!view) return [];
    const columns = (await api<{ fieldName: string; kind: string }[]>('GET', `/api/views/${encodeURIComponent(view.uuid)}/columns`)).data;
    return columns.filter((c) => c.kind !== 'GROUP').map((c) => c.fieldName);
  } catch {
    return [];
  }
}
