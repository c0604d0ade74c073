/** The RLS rules of a view (`/api/views/{viewUuid}/rls-rules`), part of the access screen. */
import { useState } from 'preact/hooks';
import { api, ApiFailure, message } from '../lib/api.ts';
import type { EntityInfo, ViewInfo } from '../lib/schema.ts';
import { useLoad } from '../lib/use-load.ts';
import { DataTable } from '../components/data-table.tsx';
import { described, ErrorNote, Field } from '../components/field.tsx';

interface Rule {
  readonly id: string;
  readonly column: string;
  readonly claim: string;
  readonly enabled: boolean;
}

/** A rule names a database column (the API's `column`); the screens speak of fields, so it is shown by its field name. */
const fieldOf = (entity: EntityInfo | undefined, column: string): string => entity?.fields.find((f) => f.column === column)?.name ?? column;

export function RlsRules({ entities, views }: { readonly entities: readonly EntityInfo[]; readonly views: readonly ViewInfo[] }) {
  const [viewUuid, setViewUuid] = useState(views.find((v) => v.isDefault)?.uuid ?? '');
  const view = views.find((v) => v.uuid === viewUuid);
  const entity = entities.find((e) => e.name === view?.entity);
  const path = `/api/views/${encodeURIComponent(viewUuid)}/rls-rules`;
  const rules = useLoad(async () => (viewUuid ? (await api<Rule[]>('GET', path)).data : []), [path]);
  const [column, setColumn] = useState('');
  const [claim, setClaim] = useState('sub');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  async function add(event: Event) {
    event.preventDefault();
    try {
      await api('POST', path, { body: { column: column || entity?.fields[0]?.column, claim } });
      setProblems({});
      setError(undefined);
      rules.reload();
    } catch (failure) {
      const byField: Record<string, string> = {};
      if (failure instanceof ApiFailure) for (const p of failure.fieldProblems()) if (p.field) byField[p.field] = p.message;
      setProblems(byField);
      setError(message(failure));
    }
  }
  async function remove(id: string) {
    try {
      await api('DELETE', `${path}/${encodeURIComponent(id)}`);
      rules.reload();
    } catch (failure) {
      setError(message(failure));
    }
  }
  return (
    <section aria-labelledby="rls-title">
      <h2 id="rls-title">Row-level security rules</h2>
      <p>External users see the rows whose column equals the named claim of their token. Rules on a default view protect the entity everywhere.</p>
      <Field id="rls-view" label="View">
        <select id="rls-view" value={viewUuid} onChange={(e) => setViewUuid(e.currentTarget.value)}>
          {views.map((v) => (
            <option key={v.uuid} value={v.uuid}>
              {v.name} ({v.entity}
              {v.isDefault ? ', default' : ''})
            </option>
          ))}
        </select>
      </Field>
      <form onSubmit={add} aria-label="New RLS rule">
        <Field id="rls-column" label="Field" error={problems.column}>
          <select {...described('rls-column', problems.column)} value={column || entity?.fields[0]?.column} onChange={(e) => setColumn(e.currentTarget.value)}>
            {(entity?.fields ?? []).map((f) => (
              <option key={f.column} value={f.column}>
                {f.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rls-claim" label="Claim" error={problems.claim}>
          <input {...described('rls-claim', problems.claim)} value={claim} onInput={(e) => setClaim(e.currentTarget.value)} />
        </Field>
        <button type="submit">Add rule</button>
      </form>
      <ErrorNote error={rules.error ?? error} />
      <DataTable
        caption={`Rules of ${view?.name ?? 'the view'}`}
        fields={['field', 'claim', 'enabled'].map((name) => ({ name, label: name }))}
        rows={(rules.value ?? []).map((rule) => ({ ...rule, field: fieldOf(entity, rule.column) }))}
        actions={(row) => (
          <button type="button" class="danger" aria-label={`Delete rule ${String(row.field)} = ${String(row.claim)}`} onClick={() => remove(String(row.id))}>
            Delete
          </button>
        )}
      />
    </section>
  );
}

