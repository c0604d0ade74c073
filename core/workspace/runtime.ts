/**
 * A workspace as requests see it: its dialect and pool, entity model, options, views and
 * compiled computed columns. Cached per instance and reloaded when the control store's version
 * for the workspace moves, checked at most once a second (DESIGN §12: changes reach every
 * instance within one second, at once on the instance that made them).
 */
import type { DatabaseConfig, Dialect, Driver } from '../../dialects/dialect.ts';
import type { DialectRegistry } from '../../dialects/dialect.ts';
import { ApiError, notFound } from '../errors.ts';
import { buildModel } from '../schema/build-model.ts';
import type { Entity, SchemaModel } from '../schema/model.ts';
import { SingleFlight } from '../single-flight.ts';
import type { ControlStore } from './store.ts';
import {
  DEFAULT_ENTITY_OPTIONS,
  type ColumnRecord,
  type EntityRecord,
  type IdentityProviderConfig,
  type RlsRuleRecord,
  type ViewRecord,
  type WorkspaceRecord,
} from './types.ts';

const RECHECK_MS = 1000;

/** Everything loaded from the control store for one workspace. */
export interface WorkspaceState {
  readonly workspace: WorkspaceRecord;
  readonly dialect: Dialect;
  readonly driver: Driver;
  readonly model: SchemaModel;
  readonly entities: readonly EntityRecord[];
  readonly views: readonly ViewRecord[];
  readonly columns: readonly ColumnRecord[];
  readonly rules: readonly RlsRuleRecord[];
  readonly identityProvider: IdentityProviderConfig | null;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

export class WorkspaceRuntime {
  readonly workspace: WorkspaceRecord;
  readonly dialect: Dialect;
  readonly driver: Driver;
  readonly model: SchemaModel;
  readonly identityProvider: IdentityProviderConfig | null;
  readonly columnsByView: ReadonlyMap<string, readonly ColumnRecord[]>;
  readonly rulesByView: ReadonlyMap<string, readonly RlsRuleRecord[]>;
  private readonly entityRecords: Map<string, EntityRecord>;
  private readonly viewsByUuid: Map<string, ViewRecord>;
  private readonly defaultViews: Map<string, ViewRecord>;
  private readonly memos = new Map<string, unknown>();

  constructor(state: WorkspaceState) {
    this.workspace = state.workspace;
    this.dialect = state.dialect;
    this.driver = state.driver;
    this.model = state.model;
    this.identityProvider = state.identityProvider;
    this.columnsByView = groupBy(state.columns, (c) => c.viewUuid);
    this.rulesByView = groupBy(state.rules, (r) => r.viewUuid);
    this.entityRecords = new Map(state.entities.map((e) => [e.name, e]));
    this.viewsByUuid = new Map(state.views.map((v) => [v.uuid, v]));
    this.defaultViews = new Map(state.views.filter((v) => v.isDefault).map((v) => [v.entity, v]));
  }

  get config(): DatabaseConfig {
    return this.workspace.database;
  }

  get views(): ViewRecord[] {
    return [...this.viewsByUuid.values()];
  }

  entity(name: string): Entity {
    const entity = this.model.entities.get(name);
    if (!entity) throw notFound(`entity '${name}' does not exist in workspace '${this.workspace.slug}'`);
    return entity;
  }

  entityRecord(name: string): EntityRecord {
    return this.entityRecords.get(name) ?? { workspaceId: this.workspace.id, name, table: name, options: DEFAULT_ENTITY_OPTIONS, migration: null };
  }

  view(uuid: string): ViewRecord | undefined {
    return this.viewsByUuid.get(uuid);
  }

  defaultViewRecord(entityName: string): ViewRecord | undefined {
    return this.defaultViews.get(entityName);
  }

  /**
   * A value derived from this runtime (compiled view shapes, say), made once and dropped with the
   * runtime when the workspace's version moves. Floors above keep their derived state here, so the
   * runtime needs to know nothing of them.
   */
  memo<T>(key: string, make: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = make();
    this.memos.set(key, value);
    return value;
  }
}

interface CacheEntry {
  runtime: WorkspaceRuntime;
  checkedAt: number;
}

/** Per-instance cache of workspace runtimes, and the owner of their connection pools. */
export class WorkspaceCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly drivers = new Map<string, { key: string; driver: Driver }>();
  private readonly slugs = new Map<string, { id: string; at: number }>();
  /** View uuid → its workspace's id: a view never moves to another workspace. */
  private readonly viewHomes = new Map<string, string>();
  private readonly generations = new Map<string, number>();
  private readonly refreshes = new SingleFlight<string, WorkspaceRuntime>();
  private readonly slugLookups = new SingleFlight<string, string>();

  constructor(
    private readonly store: ControlStore,
    private readonly dialects: DialectRegistry,
  ) {}

  async bySlug(orgSlug: string, wsSlug: string): Promise<WorkspaceRuntime> {
    const slugKey = `${orgSlug}/${wsSlug}`;
    const cached = this.slugs.get(slugKey);
    if (cached && Date.now() - cached.at < RECHECK_MS) return this.byId(cached.id);
    const id = await this.slugLookups.run(slugKey, async () => {
      const workspace = await this.store.findWorkspace(orgSlug, wsSlug);
      if (!workspace) throw notFound(`workspace '${orgSlug}/${wsSlug}' does not exist`);
      this.slugs.set(slugKey, { id: workspace.id, at: Date.now() });
      return workspace.id;
    });
    return this.byId(id);
  }

  /**
   * A view as its workspace's runtime knows it (as fresh as the runtime: RECHECK_MS), so that
   * data routes addressed by view uuid (bulk, import) need no control-store query per request.
   * A view the runtime does not hold is looked up in the store: new, or gone.
   */
  async findView(uuid: string): Promise<ViewRecord | undefined> {
    const home = this.viewHomes.get(uuid);
    // A workspace that fails to load falls through to the store; the route's own byId then reports why.
    const known = home === undefined ? undefined : (await this.byId(home).catch(() => undefined))?.view(uuid);
    if (known) return known;
    const stored = await this.store.findView(uuid);
    if (stored) this.viewHomes.set(uuid, stored.workspaceId);
    else this.viewHomes.delete(uuid);
    return stored;
  }

  async byId(id: string): Promise<WorkspaceRuntime> {
    const entry = this.entries.get(id);
    if (entry && Date.now() - entry.checkedAt < RECHECK_MS) return entry.runtime;
    return this.refreshes.run(id, () => this.refresh(id));
  }

  /** Reloads when the stored version moved; a load raced by invalidate() is not cached. */
  private async refresh(id: string): Promise<WorkspaceRuntime> {
    const generation = this.generation(id);
    const version = await this.store.workspaceVersion(id);
    if (version === undefined) {
      // Deleted, maybe through another instance: close its pool here too.
      await this.forget(id);
      throw notFound('workspace does not exist');
    }
    const entry = this.entries.get(id);
    if (entry && entry.runtime.workspace.version === version) {
      entry.checkedAt = Date.now();
      return entry.runtime;
    }
    const runtime = await this.load(id);
    if (this.generation(id) === generation) this.entries.set(id, { runtime, checkedAt: Date.now() });
    return runtime;
  }

  private generation(id: string): number {
    return this.generations.get(id) ?? 0;
  }

  /** Forgets the cached runtime so the next request reloads it (called after local changes). */
  invalidate(id: string): void {
    this.generations.set(id, this.generation(id) + 1);
    this.entries.delete(id);
    for (const [key, value] of this.slugs) if (value.id === id) this.slugs.delete(key);
  }

  /** The workspace's pool, opened once and reused across reloads while its config is unchanged. */
  async driverFor(workspace: WorkspaceRecord): Promise<{ dialect: Dialect; driver: Driver }> {
    const dialect = this.dialects.get(workspace.database.vendor);
    const key = JSON.stringify(workspace.database);
    const existing = this.drivers.get(workspace.id);
    if (existing && existing.key === key) return { dialect, driver: existing.driver };
    if (existing) await existing.driver.close().catch(() => undefined);
    const driver = await dialect.connect(workspace.database);
    this.drivers.set(workspace.id, { key, driver });
    return { dialect, driver };
  }

  async forget(id: string): Promise<void> {
    this.invalidate(id);
    const existing = this.drivers.get(id);
    this.drivers.delete(id);
    if (existing) await existing.driver.close().catch(() => undefined);
  }

  async pingAll(): Promise<void> {
    await Promise.all([...this.drivers.values()].map((d) => d.driver.ping()));
  }

  async close(): Promise<void> {
    await Promise.all([...this.drivers.values()].map((d) => d.driver.close().catch(() => undefined)));
    this.drivers.clear();
    this.entries.clear();
  }

  private async load(id: string): Promise<WorkspaceRuntime> {
    const workspace = await this.store.findWorkspaceById(id);
    if (!workspace) throw notFound('workspace does not exist');
    if (!workspace.introspection) throw new ApiError('SERVICE_UNAVAILABLE', `workspace '${workspace.slug}' has not been synced yet`);
    const { dialect, driver } = await this.driverFor(workspace);
    const [entities, views, columns, rules, identityProvider] = await Promise.all([
      this.store.listEntities(id),
      this.store.listViews(id),
      this.store.listWorkspaceColumns(id),
      this.store.listWorkspaceRules(id),
      this.store.getIdentityProvider(id),
    ]);
    const model = buildModel(workspace.introspection);
    return new WorkspaceRuntime({ workspace, dialect, driver, model, entities, views, columns, rules, identityProvider: identityProvider ?? null });
  }
}
