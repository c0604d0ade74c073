/**
 * Screen 1 (DESIGN §15): organizations and their workspaces. Create (vendor, URL, schema) with the
 * service's connection errors shown at the field, sync with the drift report, edit, delete.
 */
import { useState } from 'preact/hooks';
import { adminBase, api, ApiFailure, message } from '../lib/api.ts';
import { href } from '../lib/route.ts';
import { useLoad } from '../lib/use-load.ts';
import { described, ErrorNote, Field, Notice } from '../components/field.tsx';
import { DriftReport, type SyncResult } from '../components/drift-report.tsx';

interface Org {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
}

interface Workspace {
  readonly org: string;
  readonly slug: string;
  readonly name: string;
  readonly database: { readonly vendor: string; readonly url?: string; readonly schema?: string; readonly poolSize?: number };
  readonly syncedAt?: string;
}

const VENDORS = [
  { value: 'postgres', label: 'PostgreSQL' },
  { value: 'mysql', label: 'MySQL / MariaDB' },
  { value: 'mssql', label: 'SQL Server' },
  { value: 'embedded', label: 'Embedded (PGlite of this service)' },
];

/** Problems by field (`database.url`), and the message when none names a field. */
function problemsOf(error: unknown): { byField: Record<string, string>; general?: string } {
  if (!(error instanceof ApiFailure)) return { byField: {}, general: message(error) };
  const byField: Record<string, string> = {};
  for (const problem of error.fieldProblems()) if (problem.field) byField[problem.field] = problem.message;
  return Object.keys(byField).length > 0 ? { byField } : { byField, general: error.message };
}

function CreateOrg({ onCreated }: { readonly onCreated: () => void }) {
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [problems, setProblems] = useState<ReturnType<typeof problemsOf>>({ byField: {} });
  async function submit(event: Event) {
    event.preventDefault();
    try {
      await api('POST', '/api/admin/v1/orgs', { body: { slug, ...(name ? { name } : {}) } });
      setSlug('');
      setName('');
      setProblems({ byField: {} });
      onCreated();
    } catch (error) {
      setProblems(problemsOf(error));
    }
  }
  return (
    <form onSubmit={submit} aria-label="New organization">
      <Field id="org-slug" label="Organization slug" error={problems.byField.slug}>
        <input {...described('org-slug', problems.byField.slug)} required value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
      </Field>
      <Field id="org-name" label="Organization name">
        <input id="org-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <button type="submit">Create organization</button>
      <ErrorNote error={problems.general} />
    </form>
  );
}

interface DatabaseForm {
  slug: string;
  name: string;
  vendor: string;
  url: string;
  schema: string;
}

function WorkspaceForm({ org, current, onDone, onCancel }: { readonly org: string; readonly current?: Workspace; readonly onDone: (sync?: SyncResult) => void; readonly onCancel?: () => void }) {
  const prefix = current ? `edit-${org}-${current.slug}` : `new-ws-${org}`;
  const [form, setForm] = useState<DatabaseForm>({
    slug: current?.slug ?? '',
    name: current?.name ?? '',
    vendor: current?.database.vendor ?? 'postgres',
    url: current?.database.url ?? '',
    schema: current?.database.schema ?? '',
  });
  const [problems, setProblems] = useState<ReturnType<typeof problemsOf>>({ byField: {} });
  const [busy, setBusy] = useState(false);
  const set = (key: keyof DatabaseForm) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [key]: e.currentTarget.value });
  const database = { vendor: form.vendor, ...(form.vendor !== 'embedded' && form.url ? { url: form.url } : {}), ...(form.schema ? { schema: form.schema } : {}) };

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = current
        ? await api<SyncResult>('PATCH', adminBase(org, current.slug), { body: { name: form.name, database } })
        : await api<SyncResult>('POST', `/api/admin/v1/orgs/${encodeURIComponent(org)}/workspaces`, { body: { slug: form.slug, name: form.name || form.slug, database } });
      setProblems({ byField: {} });
      onDone(answer.data);
    } catch (error) {
      setProblems(problemsOf(error));
    } finally {
      setBusy(false);
    }
  }
  const p = problems.byField;
  return (
    <form onSubmit={submit} aria-label={current ? `Edit workspace ${current.slug}` : `New workspace in ${org}`} class="panel">
      {!current && (
        <Field id={`${prefix}-slug`} label="Workspace slug" error={p.slug}>
          <input {...described(`${prefix}-slug`, p.slug)} required value={form.slug} onInput={set('slug')} />
        </Field>
      )}
      <Field id={`${prefix}-name`} label="Name" error={p.name}>
        <input {...described(`${prefix}-name`, p.name)} value={form.name} onInput={set('name')} />
      </Field>
      <Field id={`${prefix}-vendor`} label="Vendor" error={p['database.vendor']}>
        <select {...described(`${prefix}-vendor`, p['database.vendor'])} value={form.vendor} onChange={set('vendor')}>
          {VENDORS.map((v) => (
            <option key={v.value} value={v.value}>
              {v.label}
            </option>
          ))}
        </select>
      </Field>
      {form.vendor !== 'embedded' && (
        <Field id={`${prefix}-url`} label="Database URL" error={p['database.url']}>
          <input {...described(`${prefix}-url`, p['database.url'])} size={48} placeholder="postgres://user:pass@host:5432/db" value={form.url} onInput={set('url')} />
        </Field>
      )}
      <Field id={`${prefix}-schema`} label="Schema" error={p['database.schema']}>
        <input {...described(`${prefix}-schema`, p['database.schema'])} placeholder="public / dbo" value={form.schema} onInput={set('schema')} />
      </Field>
      <button type="submit" disabled={busy}>
        {current ? 'Save workspace' : 'Create workspace'}
      </button>
      {onCancel && (
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
      <ErrorNote error={problems.general} />
    </form>
  );
}

function WorkspaceRow({ org, workspace, onChanged }: { readonly org: string; readonly workspace: Workspace; readonly onChanged: () => void }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const [sync, setSync] = useState<SyncResult>();
  const [error, setError] = useState<string>();
  const base = adminBase(org, workspace.slug);
  async function runSync() {
    setError(undefined);
    try {
      setSync((await api<SyncResult>('POST', `${base}/sync`)).data);
    } catch (failure) {
      setError(message(failure));
    }
  }
  async function remove() {
    try {
      await api('DELETE', base);
      onChanged();
    } catch (failure) {
      setError(message(failure));
    }
  }
  const label = `${org}/${workspace.slug}`;
  return (
    <li class="panel">
      <h3>
        <a href={href({ screen: 'data', org, ws: workspace.slug })}>{workspace.name}</a> <code>{label}</code>
      </h3>
      <p>
        {workspace.database.vendor}
        {workspace.database.url ? ` · ${workspace.database.url}` : ''}
        {workspace.database.schema ? ` · schema ${workspace.database.schema}` : ''}
      </p>
      <div class="toolbar">
        <button type="button" onClick={runSync} aria-label={`Sync ${label}`}>
          Sync
        </button>
        <button type="button" class="secondary" onClick={() => setMode('edit')} aria-label={`Edit ${label}`}>
          Edit
        </button>
        {mode === 'confirm-delete' ? (
          <>
            <span role="alert">Delete {label} with its views, columns, rules and keys?</span>
            <button type="button" class="danger" onClick={remove}>
              Yes, delete {label}
            </button>
            <button type="button" class="secondary" onClick={() => setMode('view')}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" class="danger" onClick={() => setMode('confirm-delete')} aria-label={`Delete ${label}`}>
            Delete
          </button>
        )}
      </div>
      <ErrorNote error={error} />
      {mode === 'edit' && (
        <WorkspaceForm
          org={org}
          current={workspace}
          onCancel={() => setMode('view')}
          onDone={(result) => {
            setMode('view');
            setSync(result);
            onChanged();
          }}
        />
      )}
      {sync && <DriftReport title={`Sync of ${label}`} result={sync} />}
    </li>
  );
}

function OrgSection({ org }: { readonly org: Org }) {
  const workspaces = useLoad(async () => (await api<Workspace[]>('GET', `/api/admin/v1/orgs/${encodeURIComponent(org.slug)}/workspaces`)).data, [org.slug]);
  const [created, setCreated] = useState<SyncResult & { slug?: string }>();
  const [adding, setAdding] = useState(false);
  return (
    <section aria-labelledby={`org-${org.slug}`}>
      <h2 id={`org-${org.slug}`}>
        {org.name} <code>{org.slug}</code>
      </h2>
      <ErrorNote error={workspaces.error} />
      <ul class="plain">
        {(workspaces.value ?? []).map((w) => (
          <WorkspaceRow key={w.slug} org={org.slug} workspace={w} onChanged={workspaces.reload} />
        ))}
      </ul>
      {adding ? (
        <WorkspaceForm
          org={org.slug}
          onCancel={() => setAdding(false)}
          onDone={(result) => {
            setAdding(false);
            setCreated(result);
            workspaces.reload();
          }}
        />
      ) : (
        <button type="button" class="secondary" onClick={() => setAdding(true)}>
          New workspace in {org.slug}
        </button>
      )}
      {created && <Notice text={`Workspace ${String(created.slug ?? '')} created.`} />}
    </section>
  );
}

export function Orgs() {
  const orgs = useLoad(async () => (await api<Org[]>('GET', '/api/admin/v1/orgs')).data, []);
  return (
    <>
      <h1>Organizations and workspaces</h1>
      <ErrorNote error={orgs.error} />
      {orgs.loading && !orgs.value && <p role="status">Loading…</p>}
      {(orgs.value ?? []).map((org) => (
        <OrgSection key={org.slug} org={org} />
      ))}
      <h2>New organization</h2>
      <CreateOrg onCreated={orgs.reload} />
    </>
  );
}
