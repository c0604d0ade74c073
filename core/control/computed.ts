/**
 * Computed column record → ComputedField the query planner can emit. The one place where the
 * control plane meets the formula compiler.
 */
import type { Entity, SchemaModel } from '../schema/model.ts';
import type { ComputedField } from '../query/plan.ts';
import type { ColumnRecord } from './types.ts';

export function compileComputedColumn(column: ColumnRecord, _entity: Entity, _model: SchemaModel, _maxDepth: number): ComputedField {
  // Wired to core/formula once the compiler lands.
  return {
    fieldName: column.fieldName,
    valueType: 'null',
    refs: [],
    emit: () => {
      throw new Error('formula compiler not wired');
    },
    broken: column.broken ?? 'formula compiler not available',
  };
}
