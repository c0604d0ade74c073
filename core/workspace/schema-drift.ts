/**
 * A table or column the service holds is gone from the workspace database (dropped or renamed
 * behind its back, before a sync). The answer names what is missing from the schema the service
 * holds, never the database's own text: the vendor's identifier only picks one of our names.
 */
import type { DbError } from '../../dialects/dialect.ts';
import { ApiError } from '../errors.ts';
import type { Entity } from '../schema/model.ts';

export interface MissingObject {
  readonly kind: 'column' | 'table';
  /** Absent when the database's identifier matches nothing the entity knows (a column of a joined table, say). */
  readonly name?: string;
}

/** The database may qualify the name (`t0.note`, `db.orders`, `dbo.orders`): a known name equal to it or ending it. */
function known(candidates: readonly string[], reported: string | undefined): string | undefined {
  if (reported === undefined) return undefined;
  return candidates.find((name) => reported === name || reported.endsWith(`.${name}`));
}

export function missingObject(entity: Entity, mapped: DbError): MissingObject {
  if (mapped.kind === 'undefined_table') {
    const name = known([entity.table], mapped.table);
    return { kind: 'table', ...(name !== undefined ? { name } : {}) };
  }
  const name = known(entity.fields.map((f) => f.column), mapped.column);
  return { kind: 'column', ...(name !== undefined ? { name } : {}) };
}

export function schemaOutOfSync(entity: Entity, missing: MissingObject, cause: unknown): ApiError {
  const what = missing.name !== undefined ? `${missing.kind} '${missing.name}' is missing` : `a ${missing.kind} it uses is missing`;
  const message = `${entity.name} no longer matches its database: ${what}; an owner can sync the workspace (POST /api/admin/v1/orgs/{org}/workspaces/{ws}/sync)`;
  return new ApiError('SCHEMA_OUT_OF_SYNC', message, { entity: entity.name, missing }, undefined, cause);
}
