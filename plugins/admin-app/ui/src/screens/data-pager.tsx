/**
 * Paging of the data grid (DESIGN §6, §13): by page number (`page`), or by cursor (`paging=cursor`,
 * then `after=<meta.nextCursor>` until the service answers no next cursor). A cursor belongs to one
 * query, so every change of sort, filters, `where` or shape starts again from the first page.
 */
export interface ListMeta {
  readonly page?: number | null;
  readonly totalElements?: number | null;
  readonly totalPages?: number | null;
  readonly countMode?: string;
  readonly nextCursor?: string | null;
}

export type PagingMode = 'page' | 'cursor';

export interface Paging {
  readonly mode: PagingMode;
  /** Page mode: the 0-based page. */
  readonly page: number;
  /** Cursor mode: the cursor of the page shown ('' for the first) and how many pages were passed. */
  readonly after: string;
  readonly cursorPage: number;
}

export const firstPage = (mode: PagingMode): Paging => ({ mode, page: 0, after: '', cursorPage: 0 });

export function setPagingParams(paging: Paging, params: URLSearchParams): void {
  if (paging.mode === 'page') {
    params.set('page', String(paging.page));
    return;
  }
  params.set('paging', 'cursor');
  if (paging.after) params.set('after', paging.after);
}

/** 1-based number of the page shown, in either mode. */
export const pageNumber = (paging: Paging): number => (paging.mode === 'page' ? paging.page : paging.cursorPage) + 1;

function rowsText(meta: ListMeta | undefined): string {
  return meta?.totalElements !== undefined && meta.totalElements !== null ? ` · ${meta.totalElements} rows (${meta.countMode ?? 'exact'})` : '';
}

interface PagerProps {
  readonly paging: Paging;
  readonly meta: ListMeta | undefined;
  readonly onChange: (paging: Paging) => void;
  /** While rows load or after they failed to: no page to move from, so every control is off. */
  readonly disabled?: boolean;
}

function PageButtons({ paging, meta, onChange, disabled = false }: PagerProps) {
  const pages = meta?.totalPages ?? null;
  return (
    <>
      <button type="button" class="secondary" disabled={disabled || paging.page === 0} onClick={() => onChange({ ...paging, page: paging.page - 1 })}>
        Previous page
      </button>
      <span role="status">
        Page {paging.page + 1}
        {pages !== null ? ` of ${Math.max(pages, 1)}` : ''}
        {rowsText(meta)}
      </span>
      <button type="button" class="secondary" disabled={disabled || (pages !== null && paging.page + 1 >= pages)} onClick={() => onChange({ ...paging, page: paging.page + 1 })}>
        Next page
      </button>
    </>
  );
}

/** A cursor only goes forward: Next while the service gives a next cursor, First page to start again. */
function CursorButtons({ paging, meta, onChange, disabled = false }: PagerProps) {
  const next = meta?.nextCursor ?? null;
  return (
    <>
      <button type="button" class="secondary" disabled={disabled || paging.after === ''} onClick={() => onChange(firstPage('cursor'))}>
        First page
      </button>
      <span role="status">
        Cursor page {paging.cursorPage + 1}
        {meta && next === null ? ' (last)' : ''}
        {rowsText(meta)}
      </span>
      <button type="button" class="secondary" disabled={disabled || next === null} onClick={() => next !== null && onChange({ ...paging, after: next, cursorPage: paging.cursorPage + 1 })}>
        Next page
      </button>
    </>
  );
}

export function Pager(props: PagerProps) {
  const { paging, onChange, disabled = false } = props;
  return (
    <nav class="toolbar" aria-label="Pages">
      <label for="paging-mode">Paging</label>
      <select id="paging-mode" disabled={disabled} value={paging.mode} onChange={(e) => onChange(firstPage(e.currentTarget.value as PagingMode))}>
        <option value="page">by page number</option>
        <option value="cursor">by cursor</option>
      </select>
      {paging.mode === 'page' ? <PageButtons {...props} /> : <CursorButtons {...props} />}
    </nav>
  );
}
