/**
 * The control store: metadata shared by every instance of the service (DESIGN §2).
 * Always Postgres (embedded PGlite or CONTROL_DATABASE_URL), so its SQL is plain Postgres.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { isSealed, type SecretBox } from '../secret-box.ts';
import { ident, join, sql, type Sql } from '../sql.ts';
import type { Driver, Executor } from '../../dialects/dialect.ts';
import type { DatabaseSchema } from '../schema/introspection.ts';
import { CHANGE_CHANNEL } from './change-notice.ts';
import { controlRows, controlTable, isUniqueViolation, isUuid, jsonb, type ControlRow } from './control-sql.ts';
import { CONTROL_MIGRATIONS, CURSOR_SECRET_SETTING } from './migrations.ts';
import { type ApiKeyRecord, type ColumnRecord, type EntityRecord, type IdentityProviderConfig, type RlsRuleRecord, type MigrationFlag, type OrgRecord, type ViewRecord, type WorkspaceRecord } from './types.ts';
import { DEFAULT_ENTITY_OPTIONS, type EntityOptions } from '../schema/entity-options.ts';

type Row = ControlRow;
const t = controlTable;

/** What each sealed value is, authenticated with it (core/secret-box.ts). */
const DATABASE_URL_PURPOSE = 'workspace database URL';

/** Instance settings kept sealed: the cursor-signing key and the internal token signing key. */
export const SEALED_SETTINGS: readonly string[] = [CURSOR_SECRET_SETTING, 'oauthSigningKey'];

type DatabaseSettings = WorkspaceRecord['database'];

function toWorkspace(row: Row): WorkspaceRecord {
  return {
    id: String(row.id),
    orgId: String(row.org_id),
    orgSlug: String(row.org_slug),
    slug: String(row.slug),
    name: String(row.name),
    database: row.database as WorkspaceRecord['database'],
    introspection: (row.introspection as DatabaseSchema | null) ?? null,
    schemaHash: (row.schema_hash as string | null) ?? null,
    version: Number(row.version),
  };
}

function toEntity(row: Row): EntityRecord {
  return {
    workspaceId: String(row.workspace_id),
    name: String(row.name),
    table: String(row.table_name),
    options: { ...DEFAULT_ENTITY_OPTIONS, ...(row.options as Partial<EntityOptions>) },
    migration: (row.migration as MigrationFlag | null) ?? null,
  };
}

function toView(row: Row): ViewRecord {
  return {
    uuid: String(row.uuid),
    workspaceId: String(row.workspace_id),
    slug: String(row.slug),
    name: String(row.name),
    entity: String(row.entity),
    isDefault: row.is_default === true,
  };
}

function toColumn(row: Row): ColumnRecord {
  return {
    uuid: String(row.uuid),
    viewUuid: String(row.view_uuid),
    kind: row.kind as ColumnRecord['kind'],
    fieldName: String(row.field_name),
    displayName: String(row.display_name),
    formula: (row.formula as string | null) ?? null,
    widgetType: String(row.widget_type),
    members: (row.members as string[] | null) ?? null,
    position: Number(row.position),
    broken: (row.broken as string | null) ?? null,
  };
}

/**
 * Announces each row `changed` yields (a CTE over the written rows) on the change channel, built
 * from the row by `payload` (a jsonb expression). In the statement of the write, so inside its
 * transaction: PostgreSQL delivers it at commit and drops it on rollback (NOTIFY, "Notes").
 */
function announce(changed: Sql, payload: Sql): Sql {
  return sql`WITH changed AS (${changed}) SELECT pg_notify(${CHANGE_CHANNEL}, (${payload})::text) FROM changed`;
}

const API_KEY_NOTICE = sql`jsonb_build_object('kind', 'apiKey', 'id', changed.id, 'workspaceId', changed.workspace_id)`;

const WORKSPACE_SELECT = sql`SELECT w.*, o.slug AS org_slug FROM ${t('workspaces')} w JOIN ${t('orgs')} o ON o.id = w.org_id`;

/** A workspace without its stored introspection (which can be large), for the admin API. */
export type WorkspaceSummary = Omit<WorkspaceRecord, 'introspection'> & { syncedAt: string | null };

const SUMMARY_SELECT = sql`SELECT w.id, w.org_id, o.slug AS org_slug, w.slug, w.name, w.database, w.schema_hash, w.version, w.synced_at
  FROM ${t('workspaces')} w JOIN ${t('orgs')} o ON o.id = w.org_id`;

function toSummary(workspace: WorkspaceRecord, row: Row): WorkspaceSummary {
  const { introspection: _i, ...record } = workspace;
  return { ...record, syncedAt: row.synced_at ? new Date(row.synced_at as string).toISOString() : null };
}

function toOrg(row: Row): OrgRecord {
  return { id: String(row.id), slug: String(row.slug), name: String(row.name) };
}

export type NewColumn = Omit<ColumnRecord, 'uuid' | 'position' | 'broken'> & { position?: number };

export class ControlStore {
  /** `driver` is absent on a store bound to one transaction. */
  constructor(
    private readonly db: Executor,
    private readonly secrets: SecretBox,
    private readonly driver?: Driver,
  ) {}

  /** `secrets` seals and opens the secrets the store keeps (docs/security.md, "Secrets at rest"). */
  static open(driver: Driver, secrets: SecretBox): ControlStore {
    return new ControlStore(driver, secrets, driver);
  }

  /** The control database, for stores of other modules that keep their own tables here (import jobs). */
  get executor(): Executor {
    return this.db;
  }

  /** The workspace of a row, its database URL opened. */
  private workspaceOf(row: Row): WorkspaceRecord {
    const workspace = toWorkspace(row);
    const { url } = workspace.database;
    return url === undefined ? workspace : { ...workspace, database: { ...workspace.database, url: this.secrets.open(url, DATABASE_URL_PURPOSE) } };
  }

  private summaryOf(row: Row): WorkspaceSummary {
    return toSummary(this.workspaceOf(row), row);
  }

  /** The settings as stored: the URL (which carries the password) sealed. */
  private sealedDatabase(database: DatabaseSettings): DatabaseSettings {
    return database.url === undefined ? database : { ...database, url: this.secrets.seal(database.url, DATABASE_URL_PURPOSE) };
  }

  private rows(fragment: Sql): Promise<Row[]> {
    return controlRows(this.db, fragment);
  }

  private async one(fragment: Sql): Promise<Row | undefined> {
    return (await this.rows(fragment))[0];
  }

  async migrate(): Promise<void> {
    for (const statement of CONTROL_MIGRATIONS) await this.db.query({ text: statement, params: [] });
  }

  /** Runs `work` on a store bound to one transaction of the control database. */
  transaction<T>(work: (store: ControlStore) => Promise<T>): Promise<T> {
    if (!this.driver) return work(this);
    return this.driver.transaction((tx) => work(new ControlStore(tx, this.secrets)));
  }

  async ping(): Promise<void> {
    await this.db.query({ text: 'SELECT 1', params: [] });
  }

  // ── instance settings ────────────────────────────────────────────────────────
  async getSetting<T>(key: string): Promise<T | undefined> {
    const row = await this.one(sql`SELECT value FROM ${t('instance')} WHERE key = ${key}`);
    return row ? (row.value as T) : undefined;
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    await this.rows(sql`INSERT INTO ${t('instance')} (key, value) VALUES (${key}, ${jsonb(value)})
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`);
  }

  /** A setting of SEALED_SETTINGS, opened (a clear value from before encryption is read as is). */
  async getSecretSetting<T>(key: string): Promise<T | undefined> {
    const value = await this.getSetting<unknown>(key);
    if (typeof value === 'string' && isSealed(value)) return JSON.parse(this.secrets.open(value, key)) as T;
    return value as T | undefined;
  }

  async setSecretSetting(key: string, value: unknown): Promise<void> {
    await this.setSetting(key, this.secrets.seal(JSON.stringify(value), key));
  }

  /** The deployment's cursor-signing key, created by the migrations (read once at start). */
  async cursorSecret(): Promise<string> {
    const secret = await this.getSecretSetting<string>(CURSOR_SECRET_SETTING);
    if (typeof secret !== 'string' || secret.length < 32) throw new Error('the control store holds no cursor secret: run the migrations');
    return secret;
  }

  // ── organizations and workspaces ─────────────────────────────────────────────
  async createOrg(slug: string, name: string): Promise<OrgRecord> {
    const id = randomUUID();
    try {
      await this.rows(sql`INSERT INTO ${t('orgs')} (id, slug, name) VALUES (${id}, ${slug}, ${name})`);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('CONFLICT', `organization '${slug}' already exists`);
      throw error;
    }
    return { id, slug, name };
  }

  async findOrg(slug: string): Promise<OrgRecord | undefined> {
    const row = await this.one(sql`SELECT id, slug, name FROM ${t('orgs')} WHERE slug = ${slug}`);
    return row ? toOrg(row) : undefined;
  }

  async listOrgs(): Promise<OrgRecord[]> {
    return (await this.rows(sql`SELECT id, slug, name FROM ${t('orgs')} ORDER BY slug`)).map(toOrg);
  }

  async listWorkspaces(orgId: string): Promise<WorkspaceSummary[]> {
    return (await this.rows(sql`${SUMMARY_SELECT} WHERE w.org_id = ${orgId} ORDER BY w.slug`)).map((row) => this.summaryOf(row));
  }

  async findWorkspaceSummary(orgSlug: string, slug: string): Promise<WorkspaceSummary | undefined> {
    const row = await this.one(sql`${SUMMARY_SELECT} WHERE o.slug = ${orgSlug} AND w.slug = ${slug}`);
    return row ? this.summaryOf(row) : undefined;
  }

  /** Changes name and database settings (through WorkspaceCache.change, so every instance reloads it and reopens its pool). */
  async updateWorkspace(id: string, name: string, database: WorkspaceRecord['database']): Promise<void> {
    await this.rows(sql`UPDATE ${t('workspaces')} SET name = ${name}, database = ${jsonb(this.sealedDatabase(database))} WHERE id = ${id}`);
  }

  async createWorkspace(org: OrgRecord, slug: string, name: string, database: WorkspaceRecord['database']): Promise<WorkspaceRecord> {
    const id = randomUUID();
    try {
      await this.rows(sql`INSERT INTO ${t('workspaces')} (id, org_id, slug, name, database)
        VALUES (${id}, ${org.id}, ${slug}, ${name}, ${jsonb(this.sealedDatabase(database))})`);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('CONFLICT', `workspace '${slug}' already exists in '${org.slug}'`);
      throw error;
    }
    return { id, orgId: org.id, orgSlug: org.slug, slug, name, database, introspection: null, schemaHash: null, version: 1 };
  }

  /**
   * Deletes the workspace and, through ON DELETE CASCADE, everything the store holds for it:
   * entities, views with their columns, rules and mappings, API keys, identity provider, import jobs.
   */
  async deleteWorkspace(id: string): Promise<void> {
    await this.rows(announce(sql`DELETE FROM ${t('workspaces')} WHERE id = ${id} RETURNING id`,
      sql`jsonb_build_object('kind', 'workspace', 'workspaceId', changed.id)`));
  }

  async findWorkspace(orgSlug: string, slug: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.one(sql`${WORKSPACE_SELECT} WHERE o.slug = ${orgSlug} AND w.slug = ${slug}`);
    return row ? this.workspaceOf(row) : undefined;
  }

  async findWorkspaceById(id: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.one(sql`${WORKSPACE_SELECT} WHERE w.id = ${id}`);
    return row ? this.workspaceOf(row) : undefined;
  }

  async workspaceVersion(id: string): Promise<number | undefined> {
    const row = await this.one(sql`SELECT version FROM ${t('workspaces')} WHERE id = ${id}`);
    return row ? Number(row.version) : undefined;
  }

  /**
   * Marks the workspace's metadata as changed and announces it, so every instance drops it (or
   * reloads at its next version check); only WorkspaceCache.change calls it.
   */
  async bumpVersion(workspaceId: string): Promise<void> {
    await this.rows(announce(sql`UPDATE ${t('workspaces')} SET version = version + 1 WHERE id = ${workspaceId} RETURNING id, version`,
      sql`jsonb_build_object('kind', 'workspace', 'workspaceId', changed.id, 'version', changed.version)`));
  }

  async saveIntrospection(workspaceId: string, schema: DatabaseSchema, hash: string): Promise<void> {
    await this.rows(sql`UPDATE ${t('workspaces')} SET introspection = ${jsonb(schema)},
      schema_hash = ${hash}, synced_at = now() WHERE id = ${workspaceId}`);
  }

  // ── entities ─────────────────────────────────────────────────────────────────
  async listEntities(workspaceId: string): Promise<EntityRecord[]> {
    const rows = await this.rows(sql`SELECT * FROM ${t('entities')} WHERE workspace_id = ${workspaceId} ORDER BY name`);
    return rows.map(toEntity);
  }

  async addEntity(workspaceId: string, name: string, table: string): Promise<void> {
    await this.rows(sql`INSERT INTO ${t('entities')} (workspace_id, name, table_name) VALUES (${workspaceId}, ${name}, ${table})
      ON CONFLICT (workspace_id, name) DO UPDATE SET table_name = EXCLUDED.table_name`);
  }

  async removeEntity(workspaceId: string, name: string): Promise<void> {
    await this.rows(sql`DELETE FROM ${t('entities')} WHERE workspace_id = ${workspaceId} AND name = ${name}`);
  }

  async saveEntityOptions(workspaceId: string, name: string, options: EntityOptions): Promise<void> {
    await this.rows(sql`UPDATE ${t('entities')} SET options = ${jsonb(options)}
      WHERE workspace_id = ${workspaceId} AND name = ${name}`);
  }

  async saveMigration(workspaceId: string, name: string, flag: MigrationFlag | null): Promise<void> {
    await this.rows(sql`UPDATE ${t('entities')} SET migration = ${flag ? JSON.stringify(flag) : null}::jsonb
      WHERE workspace_id = ${workspaceId} AND name = ${name}`);
  }

  // ── views and columns ────────────────────────────────────────────────────────
  async listViews(workspaceId: string): Promise<ViewRecord[]> {
    const rows = await this.rows(sql`SELECT * FROM ${t('views')} WHERE workspace_id = ${workspaceId} ORDER BY entity, is_default DESC, name`);
    return rows.map(toView);
  }

  async findView(uuid: string): Promise<ViewRecord | undefined> {
    if (!isUuid(uuid)) return undefined;
    const row = await this.one(sql`SELECT * FROM ${t('views')} WHERE uuid = ${uuid}`);
    return row ? toView(row) : undefined;
  }

  /** Row lock on a view for the rest of the transaction: column moves of one view run one after another. */
  async lockView(uuid: string): Promise<void> {
    await this.rows(sql`SELECT uuid FROM ${t('views')} WHERE uuid = ${uuid} FOR UPDATE`);
  }

  async findViewBySlug(slug: string): Promise<ViewRecord | undefined> {
    const row = await this.one(sql`SELECT * FROM ${t('views')} WHERE slug = ${slug}`);
    return row ? toView(row) : undefined;
  }

  async createView(view: Omit<ViewRecord, 'uuid'>): Promise<ViewRecord> {
    const uuid = randomUUID();
    try {
      await this.rows(sql`INSERT INTO ${t('views')} (uuid, workspace_id, slug, name, entity, is_default)
        VALUES (${uuid}, ${view.workspaceId}, ${view.slug}, ${view.name}, ${view.entity}, ${view.isDefault})`);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('CONFLICT', `view slug '${view.slug}' is taken`);
      throw error;
    }
    return { uuid, ...view };
  }

  async deleteViewsOfEntity(workspaceId: string, entity: string): Promise<void> {
    await this.rows(sql`DELETE FROM ${t('views')} WHERE workspace_id = ${workspaceId} AND entity = ${entity}`);
  }

  async listColumns(viewUuid: string): Promise<ColumnRecord[]> {
    const rows = await this.rows(sql`SELECT * FROM ${t('columns')} WHERE view_uuid = ${viewUuid} ORDER BY position, field_name`);
    return rows.map(toColumn);
  }

  async listWorkspaceColumns(workspaceId: string): Promise<ColumnRecord[]> {
    const rows = await this.rows(sql`SELECT c.* FROM ${t('columns')} c JOIN ${t('views')} v ON v.uuid = c.view_uuid
      WHERE v.workspace_id = ${workspaceId} ORDER BY c.view_uuid, c.position, c.field_name`);
    return rows.map(toColumn);
  }

  async findColumn(uuid: string): Promise<ColumnRecord | undefined> {
    if (!isUuid(uuid)) return undefined;
    const row = await this.one(sql`SELECT * FROM ${t('columns')} WHERE uuid = ${uuid}`);
    return row ? toColumn(row) : undefined;
  }

  async insertColumn(column: NewColumn): Promise<ColumnRecord> {
    const uuid = randomUUID();
    const position =
      column.position ??
      Number((await this.one(sql`SELECT COALESCE(MAX(position), -1) + 1 AS next FROM ${t('columns')} WHERE view_uuid = ${column.viewUuid}`))?.next ?? 0);
    await this.rows(sql`INSERT INTO ${t('columns')} (uuid, view_uuid, kind, field_name, display_name, formula, widget_type, members, position)
      VALUES (${uuid}, ${column.viewUuid}, ${column.kind}, ${column.fieldName}, ${column.displayName}, ${column.formula},
              ${column.widgetType}, ${column.members ? JSON.stringify(column.members) : null}::jsonb, ${position})`);
    return { ...column, uuid, position, broken: null };
  }

  async updateColumn(uuid: string, changes: Partial<Pick<ColumnRecord, 'displayName' | 'formula' | 'widgetType' | 'fieldName' | 'members' | 'broken' | 'position'>>): Promise<void> {
    const columnNames: Record<string, string> = {
      displayName: 'display_name', formula: 'formula', widgetType: 'widget_type', fieldName: 'field_name',
      members: 'members', broken: 'broken', position: 'position',
    };
    const sets = Object.entries(changes).map(([key, value]) =>
      key === 'members' ? sql`${ident(columnNames[key] ?? key)} = ${value === null ? null : JSON.stringify(value)}::jsonb`
        : sql`${ident(columnNames[key] ?? key)} = ${value}`);
    if (sets.length === 0) return;
    await this.rows(sql`UPDATE ${t('columns')} SET ${join(sets)} WHERE uuid = ${uuid}`);
  }

  async deleteColumn(uuid: string): Promise<void> {
    await this.rows(sql`DELETE FROM ${t('columns')} WHERE uuid = ${uuid}`);
  }

  // ── API keys ─────────────────────────────────────────────────────────────────
  async insertApiKey(key: ApiKeyRecord): Promise<void> {
    await this.rows(announce(sql`INSERT INTO ${t('api_keys')} (id, workspace_id, name, secret_hash)
      VALUES (${key.id}, ${key.workspaceId}, ${key.name}, ${key.secretHash}) RETURNING id, workspace_id`, API_KEY_NOTICE));
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.one(sql`SELECT * FROM ${t('api_keys')} WHERE id = ${id}`);
    if (!row) return undefined;
    return { id: String(row.id), workspaceId: String(row.workspace_id), name: (row.name as string | null) ?? null, secretHash: String(row.secret_hash) };
  }

  /** Revokes a key of the workspace; false when it has no such key. */
  async deleteApiKey(workspaceId: string, id: string): Promise<boolean> {
    const deleted = await this.rows(announce(sql`DELETE FROM ${t('api_keys')} WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id, workspace_id`, API_KEY_NOTICE));
    return deleted.length > 0;
  }

  async listApiKeys(workspaceId: string): Promise<{ id: string; name: string | null; createdAt: string }[]> {
    const rows = await this.rows(sql`SELECT id, name, created_at FROM ${t('api_keys')} WHERE workspace_id = ${workspaceId} ORDER BY created_at`);
    return rows.map((row) => ({ id: String(row.id), name: (row.name as string | null) ?? null, createdAt: new Date(row.created_at as string).toISOString() }));
  }

  // ── identity provider and row-level security ─────────────────────────────────
  async getIdentityProvider(workspaceId: string): Promise<IdentityProviderConfig | undefined> {
    const row = await this.one(sql`SELECT config FROM ${t('identity_providers')} WHERE workspace_id = ${workspaceId}`);
    return row ? (row.config as IdentityProviderConfig) : undefined;
  }

  async saveIdentityProvider(workspaceId: string, config: IdentityProviderConfig): Promise<void> {
    await this.rows(sql`INSERT INTO ${t('identity_providers')} (workspace_id, config) VALUES (${workspaceId}, ${jsonb(config)})
      ON CONFLICT (workspace_id) DO UPDATE SET config = EXCLUDED.config`);
  }

  async listRules(viewUuid: string): Promise<RlsRuleRecord[]> {
    const rows = await this.rows(sql`SELECT * FROM ${t('rls_rules')} WHERE view_uuid = ${viewUuid} ORDER BY column_name, claim, id`);
    return rows.map(toRule);
  }

  async listWorkspaceRules(workspaceId: string): Promise<RlsRuleRecord[]> {
    const rows = await this.rows(sql`SELECT r.* FROM ${t('rls_rules')} r JOIN ${t('views')} v ON v.uuid = r.view_uuid
      WHERE v.workspace_id = ${workspaceId} ORDER BY r.view_uuid, r.column_name, r.claim, r.id`);
    return rows.map(toRule);
  }

  async findRule(id: string): Promise<RlsRuleRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.one(sql`SELECT * FROM ${t('rls_rules')} WHERE id = ${id}`);
    return row ? toRule(row) : undefined;
  }

  async insertRule(rule: Omit<RlsRuleRecord, 'id'>): Promise<RlsRuleRecord> {
    const id = randomUUID();
    await this.rows(sql`INSERT INTO ${t('rls_rules')} (id, view_uuid, column_name, claim, enabled)
      VALUES (${id}, ${rule.viewUuid}, ${rule.column}, ${rule.claim}, ${rule.enabled})`);
    return { id, ...rule };
  }

  async updateRule(rule: RlsRuleRecord): Promise<void> {
    await this.rows(sql`UPDATE ${t('rls_rules')} SET column_name = ${rule.column}, claim = ${rule.claim}, enabled = ${rule.enabled}
      WHERE id = ${rule.id}`);
  }

  async deleteRule(id: string): Promise<void> {
    await this.rows(sql`DELETE FROM ${t('rls_rules')} WHERE id = ${id}`);
  }
}

function toRule(row: Row): RlsRuleRecord {
  return {
    id: String(row.id),
    viewUuid: String(row.view_uuid),
    column: String(row.column_name),
    claim: String(row.claim),
    enabled: row.enabled === true,
  };
}
