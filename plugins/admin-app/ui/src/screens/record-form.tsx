/** Create or edit one record; the service's validation problems are shown at their field. */
import { useRef, useState } from 'preact/hooks';
import { api, ApiFailure, message } from '../lib/api.ts';
import { writable, type EntityInfo, type FieldInfo } from '../lib/schema.ts';
import { described, ErrorNote, Field } from '../components/field.tsx';
import type { Row } from '../components/data-table.tsx';

const NUMERIC = new Set(['integer', 'number', 'decimal', 'bigint', 'float']);

function initialText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The typed value of a text box; an empty box is null (or left out when creating). */
function valueOf(field: FieldInfo, text: string): unknown {
  if (text === '') return null;
  if (NUMERIC.has(field.type) && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  return text;
}

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
  if (field.type === 'date') return <input {...described(id, error)} type="date" value={value} onInput={(e) => onChange(e.currentTarget.value)} />;
  return <input {...described(id, error)} type="text" inputMode={NUMERIC.has(field.type) ? 'decimal' : 'text'} value={value} onInput={(e) => onChange(e.currentTarget.value)} />;
}

interface RecordFormProps {
  readonly entity: EntityInfo;
  readonly base: string;
  /** The record being edited; absent: a new one. */
  readonly record?: Row;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}

export function RecordForm({ entity, base, record, onDone, onCancel }: RecordFormProps) {
  const mode = record ? 'update' : 'create';
  const fields = entity.fields.filter((f) => writable(f, mode));
  const idField = entity.fields.find((f) => f.primaryKey)?.name ?? 'id';
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, initialText(record?.[f.name])])));
  // What was typed, as of the last keystroke: a submit right after typing may come before the re-render.
  const typed = useRef(texts);
  const change = (name: string, text: string) => {
    typed.current = { ...typed.current, [name]: text };
    setTexts(typed.current);
  };
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();

  async function submit(event: Event) {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    for (const field of fields) {
      const text = typed.current[field.name] ?? '';
      if (field.type === 'boolean') body[field.name] = text === '' ? null : text === 'true';
      else if (text !== '' || record) body[field.name] = valueOf(field, text);
    }
    if (!record) for (const key of Object.keys(body)) if (body[key] === null) delete body[key];
    try {
      if (record) await api('PUT', `${base}/${encodeURIComponent(String(record[idField]))}`, { body });
      else await api('POST', base, { body });
      onDone();
    } catch (error) {
      const byField: Record<string, string> = {};
      if (error instanceof ApiFailure) for (const p of error.fieldProblems()) if (p.field) byField[p.field] = p.message;
      setProblems(byField);
      setGeneral(Object.keys(byField).length > 0 ? 'Some fields need a change.' : message(error));
    }
  }
  const title = record ? `Edit ${entity.name} ${String(record[idField])}` : `New ${entity.name} record`;
  return (
    <form class="panel" onSubmit={submit} aria-label={title}>
      <h3>{title}</h3>
      {fields.map((field) => {
        const id = `record-${field.name}`;
        return (
          <Field key={field.name} id={id} label={`${field.name}${field.nullable || field.hasDefault ? '' : ' (required)'}`} error={problems[field.name]}>
            <Control id={id} field={field} value={texts[field.name] ?? ''} error={problems[field.name]} onChange={(text) => change(field.name, text)} />
          </Field>
        );
      })}
      <button type="submit">{record ? 'Save' : 'Create'}</button>
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
      <ErrorNote error={general} />
    </form>
  );
}
