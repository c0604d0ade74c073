/**
 * Computed column record → ComputedField the query planner can emit. The one place where the
 * control plane meets the formula compiler. Wired to core/formula once it lands.
 */
import type { Entity, SchemaModel } from '../schema/model.ts';
import type { ComputedField } from '../query/plan.ts';
import type { ColumnRecord, ViewRecord } from './types.ts';
import type { WorkspaceRuntime } from './runtime.ts';
import { badRequest } from '../errors.ts';

export function compileComputedColumn(column: ColumnRecord, _entity: Entity, _model: SchemaModel, _maxDepth: number): ComputedField {
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

export async function validateComputedFormula(_runtime: WorkspaceRuntime, _view: ViewRecord, _fieldName: string, _formula: string): Promise<string> {
  throw badRequest('computed columns are not available yet');
}
