/**
 * The owner of the workspaces' connection pools: one per workspace, opened on first use, reused
 * across runtime reloads while the workspace's database settings are unchanged, and closed when
 * they change or the workspace goes.
 */
import type { Dialect, DialectRegistry, Driver, PoolStats } from '../../dialects/dialect.ts';
import type { WorkspaceRecord } from './types.ts';

/** The statement time limits every pool's sessions run under (DESIGN §11), from the service's settings. */
export interface StatementLimits {
  readonly statementTimeoutMs: number;
  /** Exports' (and imports') own, longer limit. */
  readonly exportStatementTimeoutMs: number;
}

export class WorkspacePools {
  private readonly drivers = new Map<string, { key: string; driver: Driver; label: string }>();

  constructor(
    private readonly dialects: DialectRegistry,
    private readonly limits?: StatementLimits,
  ) {}

  /** The workspace's pool, opened once and reused across reloads while its config is unchanged. */
  async driverFor(workspace: WorkspaceRecord): Promise<{ dialect: Dialect; driver: Driver }> {
    const dialect = this.dialects.get(workspace.database.vendor);
    const key = JSON.stringify(workspace.database);
    const existing = this.drivers.get(workspace.id);
    if (existing && existing.key === key) return { dialect, driver: existing.driver };
    if (existing) await existing.driver.close().catch(() => undefined);
    const driver = await dialect.connect(this.limits ? { ...workspace.database, ...this.limits } : workspace.database);
    this.drivers.set(workspace.id, { key, driver, label: `${workspace.orgSlug}/${workspace.slug}` });
    return { dialect, driver };
  }

  async close(workspaceId: string): Promise<void> {
    const existing = this.drivers.get(workspaceId);
    this.drivers.delete(workspaceId);
    if (existing) await existing.driver.close().catch(() => undefined);
  }

  /** Each open pool that reports its state, named `org/workspace`. */
  stats(): { workspace: string; stats: PoolStats }[] {
    const reported: { workspace: string; stats: PoolStats }[] = [];
    for (const { driver, label } of this.drivers.values()) {
      const stats = driver.poolStats?.();
      if (stats) reported.push({ workspace: label, stats });
    }
    return reported;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.drivers.values()].map((d) => d.driver.close().catch(() => undefined)));
    this.drivers.clear();
  }
}
