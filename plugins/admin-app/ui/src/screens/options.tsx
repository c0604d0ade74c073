/**
 * Screen 4 (DESIGN §15): entity options (default expansion, whitelist, maximum depth, default
 * fields, count mode) and the migration flag with its retry-after.
 */
import { useState } from 'preact/hooks';
import { adminBase, api, ApiFailure, message } from '../lib/api.ts';
import type { WorkspaceProps } from '../lib/route.ts';
import { loadSchema, type EntityInfo } from '../lib/schema.ts';
import { useLoad } from '../lib/use-load.ts';
import { EntityPicker } from '../components/entity-picker.tsx';
import { described, ErrorNote, Field, Notice } from '../components/field.tsx';

const list = (value: unknown): string => (Array.isArray(value) ? value.join(', ') : '');
/** A comma list; blank is null (the entity's default applies). */
const listOrNull = (text: string): string[] | null => {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  return items.length > 0 ? items : null;
};

/** Keeps what was typed after saving: the form then shows the options as stored. */
function OptionsForm({ org, ws, entity }: { readonly org: string; readonly ws: string; readonly entity: EntityInfo }) {
  const options = entity.options;
  const relationships = entity.relationships.map((r) => r.name);
  const [defaultExpand, setDefaultExpand] = useState(list(options.defaultExpand));
  const [whitelist, setWhitelist] = useState<string[] | null>(Array.isArray(options.expandable) ? (options.expandable as string[]) : null);
  const [maxDepth, setMaxDepth] = useState(String(options.maxExpandDepth ?? 3));
  const [defaultFields, setDefaultFields] = useState(list(options.defaultFields));
  const [countMode, setCountMode] = useState(String(options.countMode ?? ''));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();
  async function save(event: Event) {
    event.preventDefault();
    const body = {
      defaultExpand: listOrNull(defaultExpand),
      expandable: whitelist,
      maxExpandDepth: Number(maxDepth),
      defaultFields: listOrNull(defaultFields),
      countMode: countMode || null,
    };
    try {
      await api('PATCH', `${adminBase(org, ws)}/entities/${encodeURIComponent(entity.name)}`, { body });
      setProblems({});
      setError(undefined);
      setNote(`Options of ${entity.name} saved.`);
    } catch (failure) {
      const byField: Record<string, string> = {};
      if (failure instanceof ApiFailure) for (const p of failure.fieldProblems()) if (p.field) byField[p.field] = p.message;
      setProblems(byField);
      setError(message(failure));
    }
  }
  const toggle = (name: string, on: boolean) => {
    const current = whitelist ?? relationships;
    setWhitelist(on ? [...new Set([...current, name])] : current.filter((n) => n !== name));
  };
  return (
    <form class="panel" onSubmit={save} aria-label={`Options of ${entity.name}`}>
      <Field id="opt-default-expand" label="Default expansion (comma-separated paths)" error={problems.defaultExpand}>
        <input {...described('opt-default-expand', problems.defaultExpand)} value={defaultExpand} onInput={(e) => setDefaultExpand(e.currentTarget.value)} />
      </Field>
      <fieldset class="field">
        <legend>Expandable relationships</legend>
        <label>
          <input type="checkbox" checked={whitelist === null} onChange={(e) => setWhitelist(e.currentTarget.checked ? null : relationships)} /> All (no whitelist)
        </label>
        {relationships.map((name) => (
          <label key={name}>
            <input type="checkbox" disabled={whitelist === null} checked={whitelist === null || whitelist.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} /> {name}
          </label>
        ))}
        {problems.expandable && <span class="field-error">{problems.expandable}</span>}
      </fieldset>
      <Field id="opt-depth" label="Maximum expand depth (1–10)" error={problems.maxExpandDepth}>
        <input {...described('opt-depth', problems.maxExpandDepth)} type="number" min={1} max={10} value={maxDepth} onInput={(e) => setMaxDepth(e.currentTarget.value)} />
      </Field>
      <Field id="opt-fields" label="Default fields (comma-separated)" error={problems.defaultFields}>
        <input {...described('opt-fields', problems.defaultFields)} value={defaultFields} onInput={(e) => setDefaultFields(e.currentTarget.value)} />
      </Field>
      <Field id="opt-count" label="Count mode" error={problems.countMode}>
        <select {...described('opt-count', problems.countMode)} value={countMode} onChange={(e) => setCountMode(e.currentTarget.value)}>
          <option value="">(service default)</option>
          <option value="exact">exact</option>
          <option value="estimated">estimated</option>
          <option value="none">none</option>
        </select>
      </Field>
      <button type="submit">Save options</button>
      <ErrorNote error={error} />
      <Notice text={note} />
    </form>
  );
}

interface FlagState {
  readonly blocksReads: boolean;
  readonly blocksWrites: boolean;
  readonly retryAfterSeconds: number;
}

/**
 * The flag as the service applies it now, null when the entity is not marked. Read from the schema,
 * which carries it: GET …/migration answers 404 for an entity not marked, and an expected 404 on every
 * visit would hide a real one.
 */
async function loadFlag(org: string, ws: string, entity: string): Promise<FlagState | null> {
  const model = (await loadSchema(org, ws)).find((e) => e.name === entity);
  if (!model) throw new Error(`${entity} is no longer in the workspace's schema: sync the workspace.`);
  return (model.migration as FlagState | null | undefined) ?? null;
}

function flagText(flag: FlagState | null): string {
  if (!flag) return 'Current state: not migrating; reads and writes are served.';
  const blocks = [flag.blocksReads ? 'reads' : '', flag.blocksWrites ? 'writes' : ''].filter(Boolean).join(' and ') || 'nothing';
  return `Current state: migrating, blocks ${blocks}; clients are told Retry-After ${flag.retryAfterSeconds} s.`;
}

function MigrationFlag({ org, ws, entity }: { readonly org: string; readonly ws: string; readonly entity: EntityInfo }) {
  const path = `${adminBase(org, ws)}/entities/${encodeURIComponent(entity.name)}/migration`;
  const [blocksReads, setBlocksReads] = useState(false);
  const [blocksWrites, setBlocksWrites] = useState(true);
  const [retryAfter, setRetryAfter] = useState('30');
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();
  const current = useLoad(async () => {
    const flag = await loadFlag(org, ws, entity.name);
    // The form starts from the flag as set, so that a change keeps what is not changed.
    if (flag) {
      setBlocksReads(flag.blocksReads);
      setBlocksWrites(flag.blocksWrites);
      setRetryAfter(String(flag.retryAfterSeconds));
    }
    return flag;
  }, [path]);
  async function run(work: () => Promise<unknown>, done: string) {
    try {
      await work();
      setError(undefined);
      setNote(done);
      current.reload();
    } catch (failure) {
      setError(message(failure));
    }
  }
  return (
    <form
      class="panel"
      aria-label={`Migration flag of ${entity.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => api('PUT', path, { body: { blocksReads, blocksWrites, retryAfterSeconds: Number(retryAfter) } }), `${entity.name} is marked as migrating: clients get 503 with Retry-After ${retryAfter}.`);
      }}
    >
      <h2>Migration flag</h2>
      <p>While a schema migration runs, the entity answers 503 SCHEMA_MIGRATION_IN_PROGRESS with a Retry-After.</p>
      <p id="migration-current" role="status" aria-live="polite">
        {current.value !== undefined ? flagText(current.value) : current.loading ? 'Reading the current state…' : ''}
      </p>
      <ErrorNote error={current.error} />
      <div class="field">
        <label>
          <input type="checkbox" checked={blocksReads} onChange={(e) => setBlocksReads(e.currentTarget.checked)} /> Blocks reads
        </label>
        <label>
          <input type="checkbox" checked={blocksWrites} onChange={(e) => setBlocksWrites(e.currentTarget.checked)} /> Blocks writes
        </label>
      </div>
      <Field id="migration-retry" label="Retry-After (seconds)">
        <input id="migration-retry" type="number" min={1} max={86400} value={retryAfter} onInput={(e) => setRetryAfter(e.currentTarget.value)} />
      </Field>
      <button type="submit">Mark as migrating</button>
      <button type="button" class="secondary" onClick={() => void run(() => api('DELETE', path), `${entity.name} is no longer marked as migrating.`)}>
        Clear the flag
      </button>
      <ErrorNote error={error} />
      <Notice text={note} />
    </form>
  );
}

export function OptionsScreen({ org, ws, entity }: WorkspaceProps) {
  const schema = useLoad(() => loadSchema(org, ws), [org, ws]);
  const entities = schema.value ?? [];
  const current = entities.find((e) => e.name === entity) ?? entities[0];
  return (
    <>
      <h1>Entity options{current ? `: ${current.name}` : ''}</h1>
      <ErrorNote error={schema.error} />
      <EntityPicker org={org} ws={ws} screen="options" entities={entities} current={current?.name} />
      {current && (
        <>
          <OptionsForm key={current.name} org={org} ws={ws} entity={current} />
          <MigrationFlag key={current.name} org={org} ws={ws} entity={current} />
        </>
      )}
    </>
  );
}
