/**
 * Create or edit one record; the service's validation problems are shown at their field. An edit
 * loads the whole record by id (the grid may show only some of its fields) and sends only the
 * fields the user changed: the update is partial, so what the user did not touch is not re-sent.
 */
import { useRef, useState } from 'preact/hooks';
import { api, ApiFailure, message } from '../lib/api.ts';
import { bodyOf, isNumeric, textOf, textProblems } from '../lib/record-values.ts';
import { writable, type EntityInfo, type FieldInfo } from '../lib/schema.ts';
import { useLoad } from '../lib/use-load.ts';
import { described, ErrorNote, Field } from '../components/field.tsx';
import type { Row } from '../components/data-table.tsx';

function Control({ id, field, value, error, onChange }: { id: string; field: FieldInfo; value: string; error: string | undefined; onChange: (text: string) => void }) {
  if (field.type === 'boolean') {
    return (
      <select {...described(id, error)} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">(null)</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  }
  if (field.type === 'json') return <textarea {...described(id, error)} rows={4} spellcheck={false} value={value} onInput={(e) => onChange(e.currentTarget.value)} />;
  if (field.type === 'date') return <input {...described(id, error)} type="date" value={value} onInput={(e) => onChange(e.currentTarget.value)} />;
  return <input {...described(id, error)} type="text" inputMode={isNumeric(field) ? 'decimal' : 'text'} value={value} onInput={(e) => onChange(e.currentTarget.value)} />;
}

function labelOf(field: FieldInfo): string {
  return `${field.name}${field.type === 'json' ? ' (JSON)' : ''}${field.nullable || field.hasDefault ? '' : ' (required)'}`;
}

interface RecordFormProps {
  readonly entity: EntityInfo;
  readonly base: string;
  /** The id of the record being edited; absent: a new one. */
  readonly id?: unknown;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}

/** The texts of a loaded record's writable fields (every field: the `fields` of the request name them all). */
async function loadTexts(entity: EntityInfo, base: string, id: unknown, fields: readonly FieldInfo[]): Promise<Record<string, string>> {
  const names = entity.fields.map((f) => f.name).join(',');
  const record = (await api<Row>('GET', `${base}/${encodeURIComponent(String(id))}?fields=${encodeURIComponent(names)}`)).data;
  return Object.fromEntries(fields.map((f) => [f.name, textOf(f, record[f.name])]));
}

export function RecordForm({ entity, base, id, onDone, onCancel }: RecordFormProps) {
  const fields = entity.fields.filter((f) => writable(f, id === undefined ? 'create' : 'update'));
  const loaded = useLoad(async () => (id === undefined ? undefined : loadTexts(entity, base, id, fields)), [base, id]);
  const title = id === undefined ? `New ${entity.name} record` : `Edit ${entity.name} ${String(id)}`;
  if (id !== undefined && loaded.loading) return <p role="status">Loading {title.toLowerCase()}…</p>;
  if (loaded.error) {
    return (
      <div class="panel">
        <ErrorNote error={`The record could not be loaded: ${loaded.error}`} />
        <button type="button" class="secondary" onClick={onCancel}>
          Close
        </button>
      </div>
    );
  }
  return <RecordEditor {...{ entity, base, id, fields, title, onDone, onCancel }} loaded={loaded.value} />;
}

interface EditorProps {
  readonly entity: EntityInfo;
  readonly base: string;
  readonly id: unknown;
  readonly fields: readonly FieldInfo[];
  readonly title: string;
  /** The texts the record was loaded with (an edit); absent: a create. */
  readonly loaded: Readonly<Record<string, string>> | undefined;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}

function RecordEditor({ base, id, fields, title, loaded, onDone, onCancel }: EditorProps) {
  const [texts, setTexts] = useState<Record<string, string>>(() => ({ ...(loaded ?? Object.fromEntries(fields.map((f) => [f.name, '']))) }));
  // What was typed, as of the last keystroke: a submit right after typing may come before the re-render.
  const typed = useRef(texts);
  const change = (name: string, text: string) => {
    typed.current = { ...typed.current, [name]: text };
    setTexts(typed.current);
  };
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();
  const invalid = textProblems(fields, texts);

  async function submit(event: Event) {
    event.preventDefault();
    if (Object.keys(textProblems(fields, typed.current)).length > 0) return;
    const body = bodyOf(fields, typed.current, loaded);
    try {
      if (loaded && Object.keys(body).length > 0) await api('PUT', `${base}/${encodeURIComponent(String(id))}`, { body });
      else if (!loaded) await api('POST', base, { body });
      onDone();
    } catch (error) {
      const byField: Record<string, string> = {};
      if (error instanceof ApiFailure) for (const p of error.fieldProblems()) if (p.field) byField[p.field] = p.message;
      setProblems(byField);
      setGeneral(Object.keys(byField).length > 0 ? 'Some fields need a change.' : message(error));
    }
  }
  return (
    <form class="panel" onSubmit={submit} aria-label={title}>
      <h3>{title}</h3>
      {fields.map((field) => {
        const boxId = `record-${field.name}`;
        const error = invalid[field.name] ?? problems[field.name];
        return (
          <Field key={field.name} id={boxId} label={labelOf(field)} error={error}>
            <Control id={boxId} field={field} value={texts[field.name] ?? ''} error={error} onChange={(text) => change(field.name, text)} />
          </Field>
        );
      })}
      <button type="submit" disabled={Object.keys(invalid).length > 0}>
        {loaded ? 'Save' : 'Create'}
      </button>
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
      <ErrorNote error={general} />
    </form>
  );
}
