/** Database failures → service errors. Clients never see the driver's message or SQL (DESIGN §5). */
import type { BoundDialect } from '../../dialects/dialect.ts';
import { ApiError, queryTimeout, serviceUnavailable } from '../errors.ts';
import type { Entity } from '../schema/model.ts';
import { missingObject, schemaOutOfSync } from './schema-drift.ts';
import { connectionCauseText } from './connection-cause.ts';

function fieldOfColumn(entity: Entity, column: string | undefined): string | undefined {
  return column ? entity.fields.find((f) => f.column === column)?.name : undefined;
}

function uniqueFields(entity: Entity, constraint: string | undefined): string {
  const key = entity.uniqueKeys.find((k) => k.name === constraint);
  return key ? key.fields.join(', ') : 'a unique field';
}

/** Returns the ApiError a database error means, or the error itself when it is not the client's doing. */
export function translateDbError(dialect: BoundDialect, entity: Entity, error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const mapped = dialect.mapError(error);
  if (!mapped) return error;
  const field = fieldOfColumn(entity, mapped.column);
  switch (mapped.kind) {
    case 'unique_violation':
      return new ApiError('CONFLICT', `a ${entity.name} record with the same ${uniqueFields(entity, mapped.constraint)} already exists`);
    case 'foreign_key_violation':
      return new ApiError('REFERENCE_NOT_FOUND', `a reference of ${entity.name} points to a record that does not exist`);
    case 'not_null_violation':
      return new ApiError('VALIDATION_FAILED', `${field ?? 'a field'} is required`, [{ field: field ?? null, rule: 'required', message: 'is required' }]);
    case 'check_violation':
      return new ApiError('VALIDATION_FAILED', 'a value violates a check constraint of the table', [{ field: field ?? null, rule: 'check', message: 'violates a check constraint' }]);
    case 'invalid_value':
      return new ApiError('VALIDATION_FAILED', `a value is not valid for its column${field ? ` (${field})` : ''}`, [{ field: field ?? null, rule: 'type', message: 'is not a valid value for the column' }]);
    case 'connection_lost':
      return serviceUnavailable(`the workspace database is unavailable: ${connectionCauseText(mapped.connection, 'the connection failed')}; try again shortly`, error);
    case 'deadlock':
      return serviceUnavailable('the request conflicted with a concurrent one; try again', error);
    case 'undefined_column':
    case 'undefined_table':
      return schemaOutOfSync(entity, missingObject(entity, mapped), error);
    case 'statement_timeout':
      // Drivers throw queryTimeout themselves, naming the limit they set; this is the fallback.
      return queryTimeout('STATEMENT_TIMEOUT_MS', undefined, error);
    default:
      return error;
  }
}
