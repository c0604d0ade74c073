/** Views beyond the default one: a new view starts with the entity's field columns. */
import { kebabCase } from '../schema/names.ts';
import { PayloadReader, SLUG } from '../payload.ts';
import type { WorkspaceRuntime } from '../workspace/runtime.ts';
import type { ControlStore } from '../workspace/store.ts';
import type { ViewRecord } from '../workspace/types.ts';

/** `/api/data/import/{viewUuid}` and `/api/data/bulk/{viewUuid}/insert` would read as this view's paths. */
const RESERVED_SLUGS: ReadonlySet<string> = new Set(['import', 'bulk']);

export async function createView(store: ControlStore, runtime: WorkspaceRuntime, body: unknown): Promise<ViewRecord> {
  const reader = new PayloadReader(body, ['entity', 'name', 'slug']);
  const entityName = reader.string('entity', { required: true });
  const name = reader.string('name', { required: true });
  const slug = reader.string('slug', { pattern: SLUG, patternText: 'lower-case letters, digits and dashes' });
  if (slug !== undefined && RESERVED_SLUGS.has(slug)) reader.fail('slug', 'reserved', `'${slug}' is taken by the /api/data/${slug}/… routes; choose another slug`);
  reader.done();
  const entity = runtime.entity(entityName ?? '');
  const workspace = runtime.workspace;
  const view = await store.createView({
    workspaceId: workspace.id,
    slug: slug ?? kebabCase(workspace.orgSlug, workspace.slug, entity.name, name ?? ''),
    name: name ?? '',
    entity: entity.name,
    isDefault: false,
  });
  const template = runtime.defaultViewRecord(entity.name);
  const columns = template ? (runtime.columnsByView.get(template.uuid) ?? []) : [];
  for (const column of columns.filter((c) => c.kind === 'FIELD' || c.kind === 'RELATIONSHIP')) {
    await store.insertColumn({ ...column, viewUuid: view.uuid });
  }
  return view;
}
