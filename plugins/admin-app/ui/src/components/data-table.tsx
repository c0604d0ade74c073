/**
 * A table over @tanstack/table-core (headless): the library keeps the column model and rows; the
 * sort, paging and filters are the server's (manual), so the header only reports clicks.
 */
import { createTable, getCoreRowModel, type ColumnDef, type TableOptionsResolved } from '@tanstack/table-core';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';

export type Row = Record<string, unknown>;

export interface SortState {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

interface DataTableProps {
  readonly caption: string;
  readonly fields: readonly { readonly name: string; readonly label: string; readonly sortable?: boolean }[];
  readonly rows: readonly Row[];
  readonly sort?: SortState | undefined;
  readonly onSort?: (field: string) => void;
  /** Extra cells at the end of each row (edit and delete buttons). */
  readonly actions?: (row: Row) => ComponentChildren;
  /** A stable key per row (the record id), so a re-sorted page moves rows instead of relabelling them. */
  readonly rowKey?: string;
  /** The text of a table without rows ('No rows.' unless said); '' shows none (rows are loading, or failed to load). */
  readonly empty?: string;
  /** Rows are being loaded (aria-busy). */
  readonly busy?: boolean;
}

export function display(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function useTable(fields: DataTableProps['fields'], rows: readonly Row[], rowKey: string | undefined) {
  return useMemo(() => {
    const columns: ColumnDef<Row, unknown>[] = fields.map((f) => ({ id: f.name, header: f.label, accessorFn: (row: Row) => row[f.name] }));
    const options: TableOptionsResolved<Row> = {
      data: rows as Row[],
      columns,
      getCoreRowModel: getCoreRowModel(),
      manualSorting: true,
      manualPagination: true,
      manualFiltering: true,
      state: {},
      onStateChange: () => undefined,
      renderFallbackValue: null,
      ...(rowKey ? { getRowId: (row: Row, index: number) => (row[rowKey] === undefined ? `#${index}` : String(row[rowKey])) } : {}),
    };
    const table = createTable(options);
    table.setOptions((previous) => ({ ...previous, state: table.initialState }));
    return table;
  }, [fields, rows, rowKey]);
}

function ariaSort(sort: SortState | undefined, field: string): 'ascending' | 'descending' | 'none' {
  if (sort?.field !== field) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

export function DataTable({ caption, fields, rows, sort, onSort, actions, rowKey, empty = 'No rows.', busy }: DataTableProps) {
  const table = useTable(fields, rows, rowKey);
  const sortable = new Set(fields.filter((f) => f.sortable !== false).map((f) => f.name));
  return (
    <div class="table-wrap">
      <table class="grid" aria-busy={busy ? 'true' : undefined}>
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const label = String(header.column.columnDef.header);
                const id = header.column.id;
                return (
                  <th key={header.id} scope="col" aria-sort={onSort && sortable.has(id) ? ariaSort(sort, id) : undefined}>
                    {onSort && sortable.has(id) ? (
                      <button type="button" class="sort" onClick={() => onSort(id)}>
                        {label}
                        <span aria-hidden="true">{sort?.field === id ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
              {actions && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{display(cell.getValue())}</td>
              ))}
              {actions && <td class="actions">{actions(row.original)}</td>}
            </tr>
          ))}
          {rows.length === 0 && empty && (
            <tr>
              <td colSpan={fields.length + (actions ? 1 : 0)}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
