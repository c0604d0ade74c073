/** The answer of a sync (`POST …/sync`): what changed in the database since the last one. */
import { display } from './data-table.tsx';

export interface SyncResult {
  readonly hash?: string;
  readonly drift?: { readonly addedTables?: unknown[]; readonly removedTables?: unknown[]; readonly changedTables?: unknown[] };
  readonly skippedTables?: unknown[];
  readonly brokenColumns?: unknown[];
  readonly [key: string]: unknown;
}

function Items({ label, items }: { readonly label: string; readonly items: readonly unknown[] | undefined }) {
  if (!items || items.length === 0) return null;
  return (
    <>
      <dt>{label}</dt>
      {items.map((item, index) => (
        <dd key={index}>
          <code>{display(item)}</code>
        </dd>
      ))}
    </>
  );
}

export function DriftReport({ title, result }: { readonly title: string; readonly result: SyncResult }) {
  const drift = result.drift ?? {};
  const lists = [drift.addedTables, drift.removedTables, drift.changedTables, result.skippedTables, result.brokenColumns];
  const nothing = lists.every((list) => !list || list.length === 0);
  return (
    <section class="drift" aria-label={title} role="status">
      <h4>{title}</h4>
      {nothing ? (
        <p>No drift: the database matches the model.</p>
      ) : (
        <dl>
          <Items label="Added tables" items={drift.addedTables} />
          <Items label="Removed tables" items={drift.removedTables} />
          <Items label="Changed tables" items={drift.changedTables} />
          <Items label="Skipped tables" items={result.skippedTables} />
          <Items label="Broken computed columns" items={result.brokenColumns} />
        </dl>
      )}
    </section>
  );
}
