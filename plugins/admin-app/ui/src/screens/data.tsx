/**
 * Screen 2 (DESIGN §15): a grid per entity with paging, sort by header, filters per column type,
 * the `where` box, and create / edit / delete with problems shown at the field.
 */
import { useState } from 'preact/hooks';
import { api, ApiFailure, message, recordsBase } from '../lib/api.ts';
import { inColumnOrder } from '../lib/column-order.ts';
import { loadColumnOrder, loadSchema, operatorsFor, type EntityInfo } from '../lib/schema.ts';
import { whereExample } from '../lib/where-example.ts';
import { useLoad } from '../lib/use-load.ts';
import type { WorkspaceProps } from '../lib/route.ts';
import { DataTable, type Row, type SortState } from '../components/data-table.tsx';
import { EntityPicker } from '../components/entity-picker.tsx';
import { described, ErrorNote, Field } from '../components/field.tsx';
import { firstPage, Pager, pageNumber, setPagingParams, type ListMeta, type Paging } from './data-pager.tsx';
import { RecordForm } from './record-form.tsx';
import { outOfSyncOf, SchemaBanner } from '../components/schema-banner.tsx';
import { WhereBox, type WhereError } from './where-box.tsx';

interface Filter {
  readonly field: string;
  readonly op: string;
  readonly value: string;
}

interface Query {
  readonly paging: Paging;
  readonly size: number;
  readonly sort?: SortState | undefined;
  readonly filters: readonly Filter[];
  readonly where: string;
  /** Relationship paths to expand, field paths to keep, count mode: blank leaves the entity's default. */
  readonly expand: string;
  readonly fields: string;
  readonly count: string;
}

function queryString(query: Query): string {
  const params = new URLSearchParams({ size: String(query.size) });
  setPagingParams(query.paging, params);
  if (query.sort) params.set('sort', `${query.sort.field},${query.sort.direction}`);
  for (const f of query.filters) params.append(`filter[${f.field}.${f.op}]`, f.op === 'isNull' ? f.value || 'true' : f.value);
  if (query.where) params.set('where', query.where);
  if (query.expand) params.set('expand', query.expand);
  if (query.fields) params.set('fields', query.fields);
  if (query.count) params.set('count', query.count);
  return params.toString();
}

function FilterForm({ entity, onAdd }: { readonly entity: EntityInfo; readonly onAdd: (filter: Filter) => void }) {
  const [field, setField] = useState(entity.fields[0]?.name ?? '');
  const type = entity.fields.find((f) => f.name === field)?.type ?? 'text';
  const operators = operatorsFor(type);
  const [op, setOp] = useState('eq');
  const [value, setValue] = useState('');
  const chosenOp = operators.includes(op) ? op : 'eq';
  return (
    <form
      aria-label="Add a filter"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd({ field, op: chosenOp, value });
        setValue('');
      }}
    >
      <Field id="filter-field" label="Filter field">
        <select id="filter-field" value={field} onChange={(e) => setField(e.currentTarget.value)}>
          {entity.fields.map((f) => (
            <option key={f.name} value={f.name}>
              {f.name} ({f.type})
            </option>
          ))}
        </select>
      </Field>
      <Field id="filter-op" label="Operator">
        <select id="filter-op" value={chosenOp} onChange={(e) => setOp(e.currentTarget.value)}>
          {operators.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </Field>
      <Field id="filter-value" label="Value" hint={chosenOp === 'in' || chosenOp === 'nin' ? 'comma-separated' : undefined}>
        <input {...described('filter-value', undefined, chosenOp === 'in' || chosenOp === 'nin')} value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </Field>
      <button type="submit">Add filter</button>
    </form>
  );
}

/**
 * Expansion (the relationships the entity's whitelist allows; dotted paths reach further, up to its
 * maximum depth), the fields to keep, and the count mode. The service refuses what the options
 * forbid, and says so.
 */
function ShapeForm({ entity, query, onApply }: { readonly entity: EntityInfo; readonly query: Query; readonly onApply: (shape: Pick<Query, 'expand' | 'fields' | 'count'>) => void }) {
  const [expand, setExpand] = useState(query.expand);
  const [fields, setFields] = useState(query.fields);
  const [count, setCount] = useState(query.count);
  const whitelist = Array.isArray(entity.options.expandable) ? (entity.options.expandable as string[]) : null;
  const relationships = entity.relationships.map((r) => r.name).filter((name) => !whitelist || whitelist.includes(name));
  return (
    <form
      aria-label="Expansion, fields and count"
      onSubmit={(e) => {
        e.preventDefault();
        onApply({ expand, fields, count });
      }}
    >
      <Field id="shape-expand" label="expand (comma-separated)" hint={`relationships: ${relationships.join(', ') || 'none'}; depth up to ${String(entity.options.maxExpandDepth ?? 3)}`}>
        <input {...described('shape-expand', undefined, true)} list="shape-relationships" value={expand} onInput={(e) => setExpand(e.currentTarget.value)} />
      </Field>
      <datalist id="shape-relationships">
        {relationships.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <Field id="shape-fields" label="fields (comma-separated)">
        <input id="shape-fields" value={fields} onInput={(e) => setFields(e.currentTarget.value)} />
      </Field>
      <Field id="shape-count" label="count">
        <select id="shape-count" value={count} onChange={(e) => setCount(e.currentTarget.value)}>
          <option value="">(entity default)</option>
          <option value="exact">exact</option>
          <option value="estimated">estimated</option>
          <option value="none">none</option>
        </select>
      </Field>
      <button type="submit" class="secondary">
        Apply
      </button>
    </form>
  );
}

/** What the grid shows: rows (or "No rows.") only once they are loaded, never while loading or after a failure. */
type GridState = 'loading' | 'failed' | 'ready';
const gridState = (loading: boolean, failed: boolean): GridState => (loading ? 'loading' : failed ? 'failed' : 'ready');

function Grid({ org, ws, entity, onSynced }: { readonly org: string; readonly ws: string; readonly entity: EntityInfo; readonly onSynced: () => void }) {
  const base = `${recordsBase(org, ws)}/${encodeURIComponent(entity.name)}`;
  const [query, setQuery] = useState<Query>({ paging: firstPage('page'), size: 20, filters: [], where: '', expand: '', fields: '', count: '' });
  const [editing, setEditing] = useState<Row | 'new'>();
  const [confirming, setConfirming] = useState<unknown>();
  const [actionError, setActionError] = useState<string>();
  const order = useLoad(() => loadColumnOrder(org, ws, entity.name), [org, ws, entity.name]);
  const list = useLoad(async () => {
    try {
      const answer = await api<Row[]>('GET', `${base}?${queryString(query)}`);
      return { rows: answer.data, meta: answer.meta as ListMeta | undefined };
    } catch (error) {
      if (error instanceof ApiFailure && error.code === 'INVALID_FORMULA' && query.where) {
        return { rows: [] as Row[], meta: undefined, whereError: { message: error.message, position: error.position(), text: query.where } satisfies WhereError };
      }
      const outOfSync = outOfSyncOf(error);
      if (outOfSync) return { rows: [] as Row[], meta: undefined, outOfSync };
      throw error;
    }
  }, [base, queryString(query)]);
  const idField = entity.fields.find((f) => f.primaryKey)?.name ?? 'id';
  const outOfSync = list.value && 'outOfSync' in list.value ? list.value.outOfSync : undefined;
  const state = gridState(list.loading, list.error !== undefined || outOfSync !== undefined);
  const rows = state === 'ready' ? (list.value?.rows ?? []) : [];
  // With a fields list, the rows say which columns there are; otherwise the entity's fields come first.
  // Both in the view's column order (Columns screen), where the credential may read it.
  const names = inColumnOrder([...new Set([...(query.fields ? [] : entity.fields.map((f) => f.name)), ...rows.flatMap((r) => Object.keys(r))])], order.value ?? []);
  const fields = names.map((name) => ({ name, label: name }));
  const sortBy = (field: string) =>
    setQuery({ ...query, paging: firstPage(query.paging.mode), sort: { field, direction: query.sort?.field === field && query.sort.direction === 'asc' ? 'desc' : 'asc' } });

  async function remove(id: unknown) {
    try {
      await api('DELETE', `${base}/${encodeURIComponent(String(id))}`);
      setConfirming(undefined);
      list.reload();
    } catch (error) {
      setActionError(message(error));
    }
  }

  return (
    <>
      <WhereBox value={query.where} example={whereExample(entity.fields)} error={list.value && 'whereError' in list.value ? list.value.whereError : undefined} onApply={(where) => setQuery({ ...query, paging: firstPage(query.paging.mode), where })} />
      <ShapeForm entity={entity} query={query} onApply={(shape) => setQuery({ ...query, ...shape, paging: firstPage(query.paging.mode) })} />
      <FilterForm entity={entity} onAdd={(filter) => setQuery({ ...query, paging: firstPage(query.paging.mode), filters: [...query.filters, filter] })} />
      {query.filters.length > 0 && (
        <ul class="chips" aria-label="Filters">
          {query.filters.map((f, index) => (
            <li key={index}>
              {f.field} {f.op} {f.value}
              <button type="button" class="secondary" aria-label={`Remove filter ${f.field} ${f.op} ${f.value}`} onClick={() => setQuery({ ...query, paging: firstPage(query.paging.mode), filters: query.filters.filter((_, i) => i !== index) })}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <button type="button" onClick={() => setEditing('new')}>
          New {entity.name} record
        </button>
      </div>
      {editing && (
        <RecordForm
          key={editing === 'new' ? 'new' : String(editing[idField])}
          entity={entity}
          base={base}
          {...(editing === 'new' ? {} : { id: editing[idField] })}
          onCancel={() => setEditing(undefined)}
          onDone={() => {
            setEditing(undefined);
            list.reload();
          }}
        />
      )}
      {outOfSync && (
        <SchemaBanner
          org={org}
          ws={ws}
          problem={outOfSync}
          onSynced={() => {
            onSynced();
            list.reload();
          }}
        />
      )}
      <ErrorNote error={list.error ? `The rows could not be loaded: ${list.error}` : actionError} />
      {state === 'loading' && <p role="status">Loading rows…</p>}
      <DataTable
        caption={`${entity.name}: page ${pageNumber(query.paging)}`}
        fields={fields}
        rows={rows}
        sort={query.sort}
        onSort={sortBy}
        rowKey={idField}
        busy={state === 'loading'}
        empty={state === 'ready' ? 'No rows.' : ''}
        actions={(row) =>
          confirming === row[idField] ? (
            <>
              <button type="button" class="danger" onClick={() => remove(row[idField])}>
                Confirm delete {String(row[idField])}
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button type="button" class="secondary" aria-label={`Edit ${entity.name} ${String(row[idField])}`} onClick={() => setEditing(row)}>
                Edit
              </button>
              <button type="button" class="danger" aria-label={`Delete ${entity.name} ${String(row[idField])}`} onClick={() => setConfirming(row[idField])}>
                Delete
              </button>
            </>
          )
        }
      />
      <Pager paging={query.paging} meta={state === 'ready' ? list.value?.meta : undefined} disabled={state !== 'ready'} onChange={(paging) => setQuery({ ...query, paging })} />
    </>
  );
}

export function DataScreen({ org, ws, entity }: WorkspaceProps) {
  const schema = useLoad(() => loadSchema(org, ws), [org, ws]);
  const entities = schema.value ?? [];
  const current = entities.find((e) => e.name === entity) ?? entities[0];
  return (
    <>
      <h1>Data{current ? `: ${current.name}` : ''}</h1>
      <ErrorNote error={schema.error} />
      <EntityPicker org={org} ws={ws} screen="data" entities={entities} current={current?.name} />
      {current && <Grid key={current.name} org={org} ws={ws} entity={current} onSynced={schema.reload} />}
    </>
  );
}
