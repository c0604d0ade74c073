/**
 * An entity as read through one of its views: the view's compiled computed columns, the entity's
 * options and migration flag. Compiled once per loaded workspace (the runtime's memo is dropped
 * with the runtime when the workspace's version moves).
 */
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import { compileComputedColumn } from './computed-field.ts';
import type { ViewShape } from './plan.ts';

/** The shape of `entityName` through `viewUuid`, or through its default view when none is given. */
export function viewShape(runtime: WorkspaceRuntime, entityName: string, viewUuid?: string): ViewShape {
  const uuid = viewUuid ?? runtime.defaultViewRecord(entityName)?.uuid ?? '';
  return runtime.memo(`shape:${entityName}:${uuid}`, () => {
    const entity = runtime.entity(entityName);
    const record = runtime.entityRecord(entityName);
    const columns = (runtime.columnsByView.get(uuid) ?? []).filter((c) => c.kind === 'COMPUTED' && c.formula !== null);
    const computed = columns.map((column) => compileComputedColumn(column, entity, runtime.model, record.options.maxExpandDepth));
    return { entity, computed, options: record.options, migration: record.migration };
  });
}
