/**
 * The CSV header row (DESIGN §14): API field names (`customer.region.name`) or, with
 * `header=display`, the display names of the view's columns (an expanded entity's from its
 * default view), each prefixed by the relationship path.
 */
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { ExportColumn } from './export.ts';

export function apiHeader(columns: readonly ExportColumn[]): string[] {
  return columns.map((c) => [...c.path, c.key].join('.'));
}

function displayNames(runtime: WorkspaceRuntime, viewUuid: string | undefined): Map<string, string> {
  const columns = viewUuid ? runtime.columnsByView.get(viewUuid) ?? [] : [];
  return new Map(columns.map((c) => [c.fieldName, c.displayName]));
}

/** `rootViewUuid`: the view read (undefined: the root entity's default view). */
export function displayHeader(runtime: WorkspaceRuntime, rootViewUuid: string | undefined, columns: readonly ExportColumn[]): string[] {
  const byNode = new Map<string, Map<string, string>>();
  return columns.map((c) => {
    const node = c.path.join('.');
    const view = c.path.length === 0 && rootViewUuid ? rootViewUuid : runtime.defaultViewRecord(c.entity)?.uuid;
    const names = byNode.get(node) ?? displayNames(runtime, view);
    byNode.set(node, names);
    return [...c.path, names.get(c.key) ?? c.key].join('.');
  });
}
