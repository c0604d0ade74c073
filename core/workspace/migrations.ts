/**
 * The control store's own schema. Statements are idempotent so every start may run them;
 * new statements are appended, never edited, once released.
 */
export const CONTROL_SCHEMA = 'wdapi_control';

/** The `instance` setting holding the cursor-signing key. */
export const CURSOR_SECRET_SETTING = 'cursorSecret';

export const CONTROL_MIGRATIONS: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS ${CONTROL_SCHEMA}`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.instance (
     key text PRIMARY KEY,
     value jsonb NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.orgs (
     id uuid PRIMARY KEY,
     slug text NOT NULL UNIQUE,
     name text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.workspaces (
     id uuid PRIMARY KEY,
     org_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.orgs(id) ON DELETE CASCADE,
     slug text NOT NULL,
     name text NOT NULL,
     database jsonb NOT NULL,
     introspection jsonb,
     schema_hash text,
     version bigint NOT NULL DEFAULT 1,
     synced_at timestamptz,
     UNIQUE (org_id, slug))`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.entities (
     workspace_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.workspaces(id) ON DELETE CASCADE,
     name text NOT NULL,
     table_name text NOT NULL,
     options jsonb NOT NULL DEFAULT '{}'::jsonb,
     migration jsonb,
     PRIMARY KEY (workspace_id, name))`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.views (
     uuid uuid PRIMARY KEY,
     workspace_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.workspaces(id) ON DELETE CASCADE,
     slug text NOT NULL UNIQUE,
     name text NOT NULL,
     entity text NOT NULL,
     is_default boolean NOT NULL DEFAULT false)`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.columns (
     uuid uuid PRIMARY KEY,
     view_uuid uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.views(uuid) ON DELETE CASCADE,
     kind text NOT NULL,
     field_name text NOT NULL,
     display_name text NOT NULL,
     formula text,
     widget_type text NOT NULL DEFAULT 'STRING',
     members jsonb,
     position integer NOT NULL,
     broken text)`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.api_keys (
     id text PRIMARY KEY,
     workspace_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.workspaces(id) ON DELETE CASCADE,
     name text,
     secret_hash text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.identity_providers (
     workspace_id uuid PRIMARY KEY REFERENCES ${CONTROL_SCHEMA}.workspaces(id) ON DELETE CASCADE,
     config jsonb NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.rls_rules (
     id uuid PRIMARY KEY,
     view_uuid uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.views(uuid) ON DELETE CASCADE,
     column_name text NOT NULL,
     claim text NOT NULL,
     enabled boolean NOT NULL DEFAULT true)`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.import_jobs (
     id uuid PRIMARY KEY,
     workspace_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.workspaces(id) ON DELETE CASCADE,
     view_uuid uuid NOT NULL,
     created_by text NOT NULL,
     state text NOT NULL,
     options jsonb NOT NULL,
     header jsonb,
     total_count integer NOT NULL DEFAULT 0,
     success_count integer NOT NULL DEFAULT 0,
     failure_count integer NOT NULL DEFAULT 0,
     skipped_count integer NOT NULL DEFAULT 0,
     batches_done integer NOT NULL DEFAULT 0,
     error jsonb,
     created_at timestamptz NOT NULL DEFAULT now(),
     heartbeat_at timestamptz NOT NULL DEFAULT now(),
     finished_at timestamptz)`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.import_batches (
     job_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.import_jobs(id) ON DELETE CASCADE,
     batch integer NOT NULL,
     from_row integer NOT NULL,
     to_row integer NOT NULL,
     committed boolean NOT NULL,
     code text,
     message text,
     fingerprint text NOT NULL,
     PRIMARY KEY (job_id, batch))`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.import_rejections (
     job_id uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.import_jobs(id) ON DELETE CASCADE,
     row_number integer NOT NULL,
     line integer NOT NULL,
     batch integer NOT NULL,
     raw jsonb NOT NULL,
     problems jsonb NOT NULL,
     PRIMARY KEY (job_id, row_number))`,
  `CREATE TABLE IF NOT EXISTS ${CONTROL_SCHEMA}.import_mappings (
     id uuid PRIMARY KEY,
     view_uuid uuid NOT NULL REFERENCES ${CONTROL_SCHEMA}.views(uuid) ON DELETE CASCADE,
     name text NOT NULL,
     visibility text NOT NULL,
     mapping jsonb NOT NULL,
     header boolean NOT NULL DEFAULT true,
     method text NOT NULL DEFAULT 'INSERT',
     created_by text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now())`,
  // Import jobs: the instance id of the process running the job (core/import/owner-lease.ts).
  `ALTER TABLE ${CONTROL_SCHEMA}.import_jobs ADD COLUMN IF NOT EXISTS owner_instance text`,
  // The key that signs paging cursors (core/query/cursor-token.ts): one per deployment, so a
  // cursor from one instance works on the next and after a restart. Created once, by whichever
  // instance migrates first (ON CONFLICT keeps it); gen_random_uuid() draws from the server's
  // strong random source (PostgreSQL 13+), two of them give 244 random bits.
  `INSERT INTO ${CONTROL_SCHEMA}.instance (key, value)
     VALUES ('${CURSOR_SECRET_SETTING}', to_jsonb(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')))
     ON CONFLICT (key) DO NOTHING`,
];
