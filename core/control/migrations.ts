/**
 * The control store's own schema. Statements are idempotent so every start may run them;
 * new statements are appended, never edited, once released.
 */
export const CONTROL_SCHEMA = 'wdapi_control';

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
];
