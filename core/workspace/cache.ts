/**
 * Per-instance cache of workspace runtimes, reloaded when the control store's version for the
 * workspace moves. Every change is announced (change-notice.ts) and, on a PostgreSQL control store,
 * heard by each instance's change listener, which drops what it touched at once (DESIGN §16); the
 * stored version is then checked only every LISTENING_RECHECK_MS as a safety net. While no listener
 * hears changes (embedded store, or its connection is down) the version is checked at most once a
 * second (DESIGN §12: changes reach every instance within one second, at once on the instance that
 * made them).
 */
import type { Dialect, DialectRegistry, Driver, PoolStats } from '../../dialects/dialect.ts';
import { ApiError, notFound } from '../errors.ts';
import { buildModel } from '../schema/build-model.ts';
import { SingleFlight } from '../single-flight.ts';
import { WorkspacePools, type StatementLimits } from './pools.ts';
import { WorkspaceRuntime } from './runtime.ts';
import type { ControlStore } from './store.ts';
import type { ViewRecord, WorkspaceRecord } from './types.ts';

const RECHECK_MS = 1000;
/**
 * While listening, a notice drops an entry at once; the version check stays, rarely, in case a
 * notice went astray on a connection that looked healthy (the listener's heartbeat bounds that).
 */
const LISTENING_RECHECK_MS = 30_000;

interface CacheEntry {
  runtime: WorkspaceRuntime;
  checkedAt: number;
}

/**
 * Told whether each runtime lookup was answered from the cache (metrics); core knows no metrics
 * library, the server plugs one in.
 */
export interface CacheObserver {
  hit(): void;
  /** The lookup went to the control store (a version check or a load). */
  miss(): void;
}

/** Per-instance cache of workspace runtimes; their pools belong to WorkspacePools. */
export class WorkspaceCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly pools: WorkspacePools;
  private readonly slugs = new Map<string, { id: string; at: number }>();
  /** View uuid → its workspace's id: a view never moves to another workspace. */
  private readonly viewHomes = new Map<string, string>();
  private readonly generations = new Map<string, number>();
  /** Moves when everything is dropped at once (the listener came back: changes may have been missed). */
  private epoch = 0;
  private listening = false;
  private readonly refreshes = new SingleFlight<string, WorkspaceRuntime>();
  private readonly slugLookups = new SingleFlight<string, string>();

  constructor(
    /** For reads; writes go through change(). */
    readonly store: ControlStore,
    dialects: DialectRegistry,
    private readonly observer?: CacheObserver,
    limits?: StatementLimits,
  ) {
    this.pools = new WorkspacePools(dialects, limits);
  }

  /**
   * The runtime of `orgSlug/wsSlug` when the cache may answer without asking the store, as it does
   * for almost every request (no promise, no turn of the microtask queue); undefined otherwise.
   */
  knownBySlug(orgSlug: string, wsSlug: string): WorkspaceRuntime | undefined {
    const cached = this.slugs.get(`${orgSlug}/${wsSlug}`);
    return cached && Date.now() - cached.at < this.recheckMs ? this.freshRuntime(cached.id) : undefined;
  }

  async bySlug(orgSlug: string, wsSlug: string): Promise<WorkspaceRuntime> {
    const known = this.knownBySlug(orgSlug, wsSlug);
    if (known) return known;
    const slugKey = `${orgSlug}/${wsSlug}`;
    const cached = this.slugs.get(slugKey);
    if (cached && Date.now() - cached.at < this.recheckMs) return this.byId(cached.id);
    const id = await this.slugLookups.run(slugKey, async () => {
      const workspace = await this.store.findWorkspace(orgSlug, wsSlug);
      if (!workspace) throw notFound(`workspace '${orgSlug}/${wsSlug}' does not exist`);
      this.slugs.set(slugKey, { id: workspace.id, at: Date.now() });
      return workspace.id;
    });
    return this.byId(id);
  }

  /**
   * A view as its workspace's runtime knows it (as fresh as the runtime), so that
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

  /** The cached runtime of `id` while it need not be checked against the store (a cache hit). */
  private freshRuntime(id: string): WorkspaceRuntime | undefined {
    const entry = this.entries.get(id);
    if (!entry || Date.now() - entry.checkedAt >= this.recheckMs) return undefined;
    this.observer?.hit();
    return entry.runtime;
  }

  async byId(id: string): Promise<WorkspaceRuntime> {
    const fresh = this.freshRuntime(id);
    if (fresh) return fresh;
    this.observer?.miss();
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

  /** Moves whenever the cached runtime of `id` is dropped, so a load that raced the drop is not kept. */
  private generation(id: string): string {
    return `${this.epoch}:${this.generations.get(id) ?? 0}`;
  }

  private get recheckMs(): number {
    return this.listening ? LISTENING_RECHECK_MS : RECHECK_MS;
  }

  /**
   * Told by the change listener whether it hears every change. Going up drops everything: what is
   * cached may have missed changes made while nobody listened. Going down only shortens the checks.
   */
  setListening(listening: boolean): void {
    this.listening = listening;
    if (listening) this.invalidateAll();
  }

  /** Forgets every cached runtime and slug (pools stay: their settings are checked on reload). */
  invalidateAll(): void {
    this.epoch += 1;
    this.entries.clear();
    this.slugs.clear();
  }

  /**
   * The one way a workspace's metadata changes (DESIGN §12): `work` runs in one control-store
   * transaction that also bumps the workspace's version once and announces it (delivered at
   * commit), and this instance forgets its runtime at once; other instances forget it when they
   * hear the notice, or reload at their next version check.
   */
  async change<T>(workspaceId: string, work: (store: ControlStore) => Promise<T>): Promise<T> {
    const result = await this.store.transaction(async (tx) => {
      const value = await work(tx);
      await tx.bumpVersion(workspaceId);
      return value;
    });
    this.invalidate(workspaceId);
    return result;
  }

  /** Forgets the cached runtime so the next request reloads it (a change, or a workspace that moved or went). */
  invalidate(id: string): void {
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    this.entries.delete(id);
    for (const [key, value] of this.slugs) if (value.id === id) this.slugs.delete(key);
  }

  /** The workspace's pool (see WorkspacePools). */
  driverFor(workspace: WorkspaceRecord): Promise<{ dialect: Dialect; driver: Driver }> {
    return this.pools.driverFor(workspace);
  }

  /** Forgets the workspace and closes its pool (deleted, or failed to be created). */
  async forget(id: string): Promise<void> {
    this.invalidate(id);
    await this.pools.close(id);
  }

  /** The workspaces' pools that report their state (see WorkspacePools.stats). */
  poolStats(): { workspace: string; stats: PoolStats }[] {
    return this.pools.stats();
  }

  async close(): Promise<void> {
    await this.pools.closeAll();
    this.entries.clear();
  }

  private async load(id: string): Promise<WorkspaceRuntime> {
    const workspace = await this.store.findWorkspaceById(id);
    if (!workspace) throw notFound('workspace does not exist');
    if (!workspace.introspection) throw new ApiError('SERVICE_UNAVAILABLE', `workspace '${workspace.slug}' has not been synced yet`);
    const { dialect, driver } = await this.pools.driverFor(workspace);
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
