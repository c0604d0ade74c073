/**
 * A workspace as requests see it: its dialect and pool, entity model, options, views, columns and
 * rules, as loaded from the control store (core/workspace/cache.ts keeps it fresh). Floors above
 * keep what they derive from it (compiled view shapes) in its memo.
 */
import type { BoundDialect, Database, Dialect, Driver } from '../../dialects/dialect.ts';
import { notFound } from '../errors.ts';
import type { Entity, SchemaModel } from '../schema/model.ts';
import { type ColumnRecord, type EntityRecord, type IdentityProviderConfig, type RlsRuleRecord, type ViewRecord, type WorkspaceRecord } from './types.ts';
import { DEFAULT_ENTITY_OPTIONS } from '../schema/entity-options.ts';

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
  /** The vendor's dialect bound to this workspace's schema. */
  readonly dialect: BoundDialect;
  readonly driver: Driver;
  /** What query and write code is given: the bound dialect and the pool, not the whole runtime. */
  readonly database: Database;
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
    this.dialect = state.dialect.bind(state.workspace.database);
    this.driver = state.driver;
    this.database = { dialect: this.dialect, driver: this.driver };
    this.model = state.model;
    this.identityProvider = state.identityProvider;
    this.columnsByView = groupBy(state.columns, (c) => c.viewUuid);
    this.rulesByView = groupBy(state.rules, (r) => r.viewUuid);
    this.entityRecords = new Map(state.entities.map((e) => [e.name, e]));
    this.viewsByUuid = new Map(state.views.map((v) => [v.uuid, v]));
    this.defaultViews = new Map(state.views.filter((v) => v.isDefault).map((v) => [v.entity, v]));
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
