/**
 * Screen 6 (DESIGN §15): the import wizard. Pick a file (.csv/.tsv/.txt, up to 100 MB), header and
 * delimiter, the auto-mapping shown and editable (only importable columns offered), saved mappings
 * (Private/Shared), INSERT/UPDATE and conflict options; live progress from the NDJSON stream; the
 * report and the rejections download; the workspace's interrupted jobs (any tab, any session), with Resume.
 */
import Papa from 'papaparse';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiFailure, call, message } from '../lib/api.ts';
import { InterruptedJobs } from './import-jobs.tsx';
import { applyEvent, ProgressView, readEvents, type Progress } from './import-progress.tsx';
import { autoMapping, importableColumns, mappingHeader, type Importable } from '../lib/import-mapping.ts';
import type { WorkspaceProps } from '../lib/route.ts';
import { loadSchema, loadViews, type EntityInfo, type ViewInfo } from '../lib/schema.ts';
import { useLoad } from '../lib/use-load.ts';
import { ErrorNote, Field, Notice } from '../components/field.tsx';

const LIMIT_BYTES = 100 * 1024 * 1024;
const DELIMITERS = [
  { value: '', label: 'detect' },
  { value: ',', label: 'comma ,' },
  { value: ';', label: 'semicolon ;' },
  { value: '|', label: 'pipe |' },
  { value: 'tab', label: 'tab' },
];

type Method = 'INSERT' | 'UPDATE';
type Mapping = Record<string, string | null>;

interface SavedMapping {
  readonly id: string;
  readonly name: string;
  readonly visibility: 'PRIVATE' | 'SHARED';
  readonly mapping: Mapping;
  readonly header: boolean;
  readonly method: Method;
}

interface FilePreview {
  readonly header: string[];
  readonly rows: string[][];
  readonly delimiter: string;
  readonly estimatedRows: number;
}

async function previewOf(file: File, header: boolean, delimiter: string): Promise<FilePreview> {
  const head = await file.slice(0, 64 * 1024).text();
  const parsed = Papa.parse<string[]>(head, { preview: 6, delimiter: delimiter === 'tab' ? '\t' : delimiter, skipEmptyLines: true });
  const lines = parsed.data;
  const width = Math.max(0, ...lines.map((l) => l.length));
  const names = header ? (lines[0] ?? []) : Array.from({ length: width }, (_, i) => String(i + 1));
  const sampleBytes = Math.max(1, head.length);
  const sampleLines = Math.max(1, head.split('\n').length - 1);
  return { header: names, rows: lines.slice(header ? 1 : 0), delimiter: parsed.meta.delimiter, estimatedRows: Math.round((file.size / sampleBytes) * sampleLines) - (header ? 1 : 0) };
}

function Wizard({ org, ws, view, entity }: { readonly org: string; readonly ws: string; readonly view: ViewInfo; readonly entity: EntityInfo }) {
  const columns = useLoad(async () => (await api<{ kind: string; fieldName: string; displayName: string }[]>('GET', `/api/views/${view.uuid}/columns`)).data, [view.uuid]);
  const savedPath = `/api/views/${view.uuid}/import-mappings`;
  const saved = useLoad(async () => (await api<SavedMapping[]>('GET', savedPath)).data, [savedPath]);
  const [file, setFile] = useState<File>();
  const [header, setHeader] = useState(true);
  const [delimiter, setDelimiter] = useState('');
  const [method, setMethod] = useState<Method>('INSERT');
  const [onConflict, setOnConflict] = useState('');
  const [conflictColumns, setConflictColumns] = useState('');
  const [preview, setPreview] = useState<FilePreview>();
  const [mapping, setMapping] = useState<Mapping>({});
  const [progress, setProgress] = useState<Progress>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [saveName, setSaveName] = useState('');
  const [visibility, setVisibility] = useState<'PRIVATE' | 'SHARED'>('PRIVATE');
  const importable: Importable[] = importableColumns(columns.value ?? [], entity.fields, method);

  useEffect(() => {
    if (!file) return;
    void previewOf(file, header, delimiter).then((p) => {
      setPreview(p);
      setMapping(autoMapping(p.header, importableColumns(columns.value ?? [], entity.fields, method)));
    });
  }, [file, header, delimiter, method, columns.value]);

  function pick(chosen: File | undefined) {
    setError(undefined);
    setProgress(undefined);
    setPreview(undefined);
    if (chosen && chosen.size > LIMIT_BYTES) {
      setFile(undefined);
      setError(`${chosen.name} is ${(chosen.size / 1024 / 1024).toFixed(1)} MB; the import takes files up to 100 MB.`);
      return;
    }
    setFile(chosen);
  }

  async function run(path: string, body: File, withOptions: boolean) {
    setError(undefined);
    setProgress({ batchesDone: 0, rowsRead: 0, successCount: 0, errorCount: 0 });
    const type = body.name.endsWith('.tsv') ? 'text/tab-separated-values' : body.name.endsWith('.txt') ? 'text/plain' : 'text/csv';
    const params = new URLSearchParams({ method, header: String(header) });
    if (delimiter) params.set('delimiter', delimiter);
    if (method === 'INSERT' && onConflict) params.set('onConflict', onConflict);
    if (method === 'INSERT' && onConflict && conflictColumns) params.set('conflictColumns', conflictColumns);
    try {
      const response = await call('POST', withOptions ? `${path}?${params}` : path, { raw: { body, type }, ...(withOptions ? { headers: { 'X-Import-Mapping': mappingHeader(mapping) } } : {}) });
      let current: Progress = { batchesDone: 0, rowsRead: 0, successCount: 0, errorCount: 0 };
      await readEvents(response, (event) => {
        current = applyEvent(current, event);
        setProgress(current);
      });
    } catch (failure) {
      setProgress(undefined);
      setError(message(failure));
    }
  }

  async function saveMapping() {
    try {
      await api('POST', savedPath, { body: { name: saveName, visibility, mapping, header, method } });
      setNote(`Mapping "${saveName}" saved (${visibility.toLowerCase()}).`);
      saved.reload();
    } catch (failure) {
      setError(failure instanceof ApiFailure ? failure.message : message(failure));
    }
  }

  function applySaved(id: string) {
    const chosen = saved.value?.find((m) => m.id === id);
    if (!chosen) return;
    setHeader(chosen.header);
    setMethod(chosen.method);
    setMapping({ ...mapping, ...chosen.mapping });
  }

  return (
    <>
      <InterruptedJobs
        org={org}
        ws={ws}
        refresh={progress?.done || progress?.error ? `${progress.jobId ?? ''}:${progress.done ? 'done' : 'error'}` : ''}
        onResume={(jobId, resumeFile) => void run(`/api/imports/${jobId}/resume`, resumeFile, false)}
      />
      <form class="panel" aria-label="Import file" onSubmit={(e) => e.preventDefault()}>
        <Field id="import-file" label="CSV file (.csv, .tsv, .txt; up to 100 MB)">
          <input id="import-file" type="file" accept=".csv,.tsv,.txt" onChange={(e) => pick(e.currentTarget.files?.[0])} />
        </Field>
        <div class="field">
          <label>
            <input type="checkbox" checked={header} onChange={(e) => setHeader(e.currentTarget.checked)} /> First line is a header
          </label>
        </div>
        <Field id="import-delimiter" label="Delimiter">
          <select id="import-delimiter" value={delimiter} onChange={(e) => setDelimiter(e.currentTarget.value)}>
            {DELIMITERS.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="import-method" label="Method">
          <select id="import-method" value={method} onChange={(e) => setMethod(e.currentTarget.value as Method)}>
            <option value="INSERT">INSERT</option>
            <option value="UPDATE">UPDATE (matches on the primary key)</option>
          </select>
        </Field>
        {method === 'INSERT' && (
          <>
            <Field id="import-conflict" label="On conflict">
              <select id="import-conflict" value={onConflict} onChange={(e) => setOnConflict(e.currentTarget.value)}>
                <option value="">reject the row</option>
                <option value="IGNORE">IGNORE (keep the existing row)</option>
                <option value="UPDATE">UPDATE the existing row</option>
              </select>
            </Field>
            {onConflict && (
              <Field id="import-conflict-columns" label="Conflict columns (comma-separated)">
                <input id="import-conflict-columns" value={conflictColumns} onInput={(e) => setConflictColumns(e.currentTarget.value)} />
              </Field>
            )}
          </>
        )}
        {(saved.value ?? []).length > 0 && (
          <Field id="import-saved" label="Saved mapping">
            <select id="import-saved" value="" onChange={(e) => applySaved(e.currentTarget.value)}>
              <option value="">(choose one to apply)</option>
              {(saved.value ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name} ({m.visibility.toLowerCase()})
                </option>
              ))}
            </select>
          </Field>
        )}
      </form>
      <ErrorNote error={error ?? columns.error} />
      <Notice text={note} />
      {preview && (
        <section class="panel" aria-labelledby="mapping-title">
          <h2 id="mapping-title">Mapping</h2>
          <p>
            Delimiter {JSON.stringify(preview.delimiter)}; about {Math.max(preview.estimatedRows, 0)} rows.
          </p>
          <table class="grid">
            <caption>CSV column → view column (only importable columns are offered)</caption>
            <thead>
              <tr>
                <th scope="col">CSV column</th>
                <th scope="col">First value</th>
                <th scope="col">Goes to</th>
              </tr>
            </thead>
            <tbody>
              {preview.header.map((csvColumn, index) => (
                <tr key={csvColumn}>
                  <td>{csvColumn}</td>
                  <td>{preview.rows[0]?.[index] ?? ''}</td>
                  <td>
                    <label class="visually-hidden" for={`map-${index}`}>
                      Target of CSV column {csvColumn}
                    </label>
                    <select id={`map-${index}`} value={mapping[csvColumn] ?? ''} onChange={(e) => setMapping({ ...mapping, [csvColumn]: e.currentTarget.value || null })}>
                      <option value="">(skip)</option>
                      {importable.map((c) => (
                        <option key={c.fieldName} value={c.fieldName}>
                          {c.displayName} ({c.fieldName})
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form
            aria-label="Save this mapping"
            onSubmit={(e) => {
              e.preventDefault();
              void saveMapping();
            }}
          >
            <Field id="mapping-name" label="Mapping name">
              <input id="mapping-name" required value={saveName} onInput={(e) => setSaveName(e.currentTarget.value)} />
            </Field>
            <Field id="mapping-visibility" label="Visibility">
              <select id="mapping-visibility" value={visibility} onChange={(e) => setVisibility(e.currentTarget.value as 'PRIVATE' | 'SHARED')}>
                <option value="PRIVATE">Private</option>
                <option value="SHARED">Shared</option>
              </select>
            </Field>
            <button type="submit" class="secondary">
              Save mapping
            </button>
          </form>
          <button type="button" disabled={!file || (progress !== undefined && !progress.done && !progress.error)} onClick={() => file && void run(`/api/data/import/${view.uuid}`, file, true)}>
            Start import
          </button>
        </section>
      )}
      {progress && <ProgressView progress={progress} estimatedRows={preview?.estimatedRows ?? 0} />}
    </>
  );
}

export function ImportScreen({ org, ws, entity }: WorkspaceProps) {
  const model = useLoad(async () => ({ entities: await loadSchema(org, ws), views: await loadViews(org, ws) }), [org, ws]);
  const [viewUuid, setViewUuid] = useState('');
  const views = model.value?.views ?? [];
  const view = views.find((v) => v.uuid === viewUuid) ?? views.find((v) => v.entity === entity && v.isDefault) ?? views[0];
  const target = model.value?.entities.find((e) => e.name === view?.entity);
  return (
    <>
      <h1>Import</h1>
      <ErrorNote error={model.error} />
      <Field id="import-view" label="Into the view">
        <select id="import-view" value={view?.uuid ?? ''} onChange={(e) => setViewUuid(e.currentTarget.value)}>
          {views.map((v) => (
            <option key={v.uuid} value={v.uuid}>
              {v.name} ({v.entity})
            </option>
          ))}
        </select>
      </Field>
      {view && target && <Wizard key={view.uuid} org={org} ws={ws} view={view} entity={target} />}
    </>
  );
}
