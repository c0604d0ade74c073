/**
 * Screen 3 (DESIGN §15): the columns of an entity's default view in order; a computed column typed
 * in the formula editor (errors at their position while typing, values of the first rows); a
 * physical column after a confirmation that it runs DDL; rename, reorder (Move up / Move down, from
 * the keyboard too: the focus stays on the moved column's button) and delete.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, message } from '../lib/api.ts';
import { loadSchema, loadViews, type ViewInfo } from '../lib/schema.ts';
import { useLoad } from '../lib/use-load.ts';
import type { WorkspaceProps } from '../lib/route.ts';
import { DataTable, type Row } from '../components/data-table.tsx';
import { EntityPicker } from '../components/entity-picker.tsx';
import { described, ErrorNote, Field, Notice } from '../components/field.tsx';
import { FormulaEditor, type CheckOutcome } from '../components/formula-editor.tsx';
import { COMPUTED_WIDGET_TYPES, widgetTypeOf } from '../lib/widget-type.ts';

interface Column {
  readonly uuid: string;
  readonly kind: string;
  readonly fieldName: string;
  readonly displayName: string;
  readonly widgetType: string;
  readonly position: number;
  readonly formula?: string;
  readonly broken?: string;
}

const PHYSICAL_TYPES = ['STRING', 'INTEGER', 'DECIMAL', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'UUID', 'JSON'];

function fieldProblems(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiFailure) for (const p of error.fieldProblems()) if (p.field) out[p.field] = p.message;
  return out;
}

function Preview({ outcome }: { readonly outcome: CheckOutcome }) {
  if (!outcome) return <p id="formula-status">Type a formula over the row, e.g. amount * quantity or customer.name.</p>;
  if (!outcome.ok)
    return (
      <p id="formula-status" class="field-error" role="status">
        {outcome.message}
      </p>
    );
  return (
    <div id="formula-status" role="status">
      <p class="notice">
        Valid ({outcome.check.type}): <code>{outcome.check.formula}</code>
      </p>
      <DataTable caption="Values on the first rows" fields={[{ name: 'id', label: 'id' }, { name: 'value', label: 'value' }]} rows={outcome.check.preview as unknown as Row[]} />
    </div>
  );
}

function ComputedForm({ view, onSaved }: { readonly view: ViewInfo; readonly onSaved: () => void }) {
  const [displayName, setDisplayName] = useState('');
  const [formula, setFormula] = useState('');
  const [outcome, setOutcome] = useState<CheckOutcome>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();
  // The checker's type, until the user picks one: then theirs stays.
  const [widgetType, setWidgetType] = useState('STRING');
  const [typeChosen, setTypeChosen] = useState(false);
  function checked(next: CheckOutcome): void {
    setOutcome(next);
    if (next?.ok && !typeChosen) setWidgetType(widgetTypeOf(next.check.type));
  }
  async function submit(event: Event) {
    event.preventDefault();
    try {
      await api('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName, formula, widgetType } });
      setProblems({});
      setGeneral(undefined);
      onSaved();
    } catch (error) {
      setProblems(fieldProblems(error));
      setGeneral(message(error));
    }
  }
  return (
    <form class="panel stack" onSubmit={submit} aria-label="New computed column">
      <h2>New computed column</h2>
      <Field id="computed-name" label="Display name" error={problems.displayName}>
        <input {...described('computed-name', problems.displayName)} required value={displayName} onInput={(e) => setDisplayName(e.currentTarget.value)} />
      </Field>
      <div class="field">
        <label id="formula-label" for="formula">
          Formula
        </label>
        <FormulaEditor key={view.uuid} id="formula" label="Formula" viewUuid={view.uuid} describedBy="formula-status" onChange={setFormula} onChecked={checked} />
      </div>
      <Preview outcome={outcome} />
      <Field id="computed-type" label="Column type">
        <select
          id="computed-type"
          value={widgetType}
          onChange={(e) => {
            setWidgetType(e.currentTarget.value);
            setTypeChosen(true);
          }}
        >
          {COMPUTED_WIDGET_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </Field>
      <div>
        <button type="submit" disabled={!outcome?.ok || formula.trim() === ''}>
          Save computed column
        </button>
      </div>
      <ErrorNote error={general} />
    </form>
  );
}

function PhysicalForm({ view, onSaved }: { readonly view: ViewInfo; readonly onSaved: () => void }) {
  const [displayName, setDisplayName] = useState('');
  const [widgetType, setWidgetType] = useState('STRING');
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string>();
  async function submit(event: Event) {
    event.preventDefault();
    try {
      await api('POST', '/api/columns', { body: { viewUuid: view.uuid, displayName, widgetType } });
      setConfirmed(false);
      setDisplayName('');
      setError(undefined);
      onSaved();
    } catch (failure) {
      setError(message(failure));
    }
  }
  return (
    <form class="panel" onSubmit={submit} aria-label="New physical column">
      <h2>New physical column</h2>
      <Field id="physical-name" label="Display name">
        <input id="physical-name" required value={displayName} onInput={(e) => setDisplayName(e.currentTarget.value)} />
      </Field>
      <Field id="physical-type" label="Type">
        <select id="physical-type" value={widgetType} onChange={(e) => setWidgetType(e.currentTarget.value)}>
          {PHYSICAL_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </Field>
      <div class="field">
        <label>
          <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.currentTarget.checked)} /> I understand this runs <code>ALTER TABLE … ADD COLUMN</code> on the
          database ({view.entity})
        </label>
      </div>
      <button type="submit" disabled={!confirmed}>
        Add physical column
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/** The id of a column's move button, so that the focus can follow the column after the list reloads. */
const moveButtonId = (column: Column, direction: 'up' | 'down'): string => `move-${direction}-${column.uuid}`;

interface MoveProps {
  readonly column: Column;
  readonly last: number;
  readonly onMoved: (note: string, focus: string) => void;
  readonly onError: (error: string) => void;
}

/** Move up / Move down: one PATCH of `position`; the service shifts the other columns. */
function MoveButtons({ column, last, onMoved, onError }: MoveProps) {
  async function move(direction: 'up' | 'down') {
    const position = column.position + (direction === 'up' ? -1 : 1);
    try {
      await api('PATCH', `/api/columns/item/${encodeURIComponent(column.uuid)}`, { body: { position } });
      // At the top or bottom the button pressed disappears: the focus goes to the other one.
      const stays = direction === 'up' ? position > 0 : position < last;
      onMoved(`${column.fieldName} moved to position ${position}`, moveButtonId(column, stays ? direction : direction === 'up' ? 'down' : 'up'));
    } catch (failure) {
      onError(message(failure));
    }
  }
  return (
    <>
      {column.position > 0 && (
        <button type="button" class="secondary" id={moveButtonId(column, 'up')} aria-label={`Move ${column.fieldName} up`} onClick={() => void move('up')}>
          Move up
        </button>
      )}
      {column.position < last && (
        <button type="button" class="secondary" id={moveButtonId(column, 'down')} aria-label={`Move ${column.fieldName} down`} onClick={() => void move('down')}>
          Move down
        </button>
      )}
    </>
  );
}

function ColumnActions({ column, onChanged }: { readonly column: Column; readonly onChanged: (note: string) => void }) {
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [name, setName] = useState(column.displayName);
  const [error, setError] = useState<string>();
  const path = `/api/columns/item/${encodeURIComponent(column.uuid)}`;
  async function run(work: () => Promise<unknown>, note: string) {
    try {
      await work();
      setMode('idle');
      onChanged(note);
    } catch (failure) {
      setError(message(failure));
    }
  }
  if (mode === 'rename')
    return (
      <form
        aria-label={`Rename ${column.fieldName}`}
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => api('PATCH', path, { body: { displayName: name } }), `${column.fieldName} renamed`);
        }}
      >
        <label for={`rename-${column.uuid}`} class="visually-hidden">
          New display name of {column.fieldName}
        </label>
        <input id={`rename-${column.uuid}`} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">Save</button>
        <button type="button" class="secondary" onClick={() => setMode('idle')}>
          Cancel
        </button>
        <ErrorNote error={error} />
      </form>
    );
  return (
    <>
      <button type="button" class="secondary" aria-label={`Rename ${column.fieldName}`} onClick={() => setMode('rename')}>
        Rename
      </button>
      {column.kind !== 'FIELD' && column.kind !== 'RELATIONSHIP' && (
        <button
          type="button"
          class="danger"
          aria-label={mode === 'delete' ? `Confirm delete ${column.fieldName}` : `Delete ${column.fieldName}`}
          onClick={() => (mode === 'delete' ? void run(() => api('DELETE', path), `${column.fieldName} deleted`) : setMode('delete'))}
        >
          {mode === 'delete' ? 'Confirm delete' : 'Delete'}
        </button>
      )}
      <ErrorNote error={error} />
    </>
  );
}

function ViewColumns({ view }: { readonly view: ViewInfo }) {
  const columns = useLoad(async () => (await api<Column[]>('GET', `/api/views/${encodeURIComponent(view.uuid)}/columns`)).data, [view.uuid]);
  const [note, setNote] = useState<string>();
  const [moveError, setMoveError] = useState<string>();
  // The button to focus once the list has reloaded (a value other than the one the move started from).
  const [focus, setFocus] = useState<{ readonly id: string; readonly before: Column[] | undefined }>();
  const changed = (text: string) => {
    setNote(text);
    setMoveError(undefined);
    columns.reload();
  };
  useEffect(() => {
    if (!focus || columns.loading || columns.value === focus.before) return;
    document.getElementById(focus.id)?.focus();
    setFocus(undefined);
  }, [focus, columns.loading, columns.value]);
  const last = (columns.value ?? []).length - 1;
  const byField = new Map((columns.value ?? []).map((c) => [c.fieldName, c]));
  const rows = (columns.value ?? []).map((c) => ({ ...c, formula: c.formula ?? '', broken: c.broken ?? '' }));
  return (
    <>
      <ErrorNote error={columns.error ?? moveError} />
      <Notice text={note} />
      <DataTable
        caption={`Columns of the view ${view.name}`}
        fields={['position', 'fieldName', 'displayName', 'kind', 'widgetType', 'formula', 'broken'].map((name) => ({ name, label: name }))}
        rows={rows}
        rowKey="uuid"
        actions={(row) => {
          const column = byField.get(String(row.fieldName))!;
          return (
            <>
              <MoveButtons
                column={column}
                last={last}
                onMoved={(text, button) => {
                  setFocus({ id: button, before: columns.value });
                  changed(text);
                }}
                onError={setMoveError}
              />
              <ColumnActions key={String(row.uuid)} column={column} onChanged={changed} />
            </>
          );
        }}
      />
      <ComputedForm view={view} onSaved={() => changed('computed column saved')} />
      <PhysicalForm view={view} onSaved={() => changed('physical column added')} />
    </>
  );
}

export function ColumnsScreen({ org, ws, entity }: WorkspaceProps) {
  const loaded = useLoad(async () => ({ entities: await loadSchema(org, ws), views: await loadViews(org, ws) }), [org, ws]);
  const entities = loaded.value?.entities ?? [];
  const current = entities.find((e) => e.name === entity) ?? entities[0];
  const view = loaded.value?.views.find((v) => v.entity === current?.name && v.isDefault);
  return (
    <>
      <h1>Columns{current ? `: ${current.name}` : ''}</h1>
      <ErrorNote error={loaded.error} />
      <EntityPicker org={org} ws={ws} screen="columns" entities={entities} current={current?.name} />
      {view && <ViewColumns key={view.uuid} view={view} />}
    </>
  );
}
