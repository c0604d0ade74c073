/**
 * SQL of the control store, shared by every module that keeps tables in it (core/workspace/store.ts,
 * core/import/job-store.ts). The control store is always PostgreSQL (PGlite or a server), so these
 * spellings are fixed here instead of coming from a workspace dialect.
 */
import type { Executor } from '../../dialects/dialect.ts';
import { ident, render, sql, type Sql } from '../sql.ts';
import { CONTROL_SCHEMA } from './migrations.ts';

export type ControlRow = Record<string, unknown>;

const renderer = {
  quoteIdent: (name: string) => `"${name.replace(/"/g, '""')}"`,
  placeholder: (index: number) => `$${index}`,
};

/** A table of the control schema. */
export const controlTable = (table: string): Sql => ident(CONTROL_SCHEMA, table);

/** A value stored in a jsonb column. */
export const jsonb = (value: unknown): Sql => sql`${JSON.stringify(value)}::jsonb`;

export async function controlRows(db: Executor, fragment: Sql): Promise<ControlRow[]> {
  return (await db.query(render(fragment, renderer))).rows;
}

/** Ids the store hands out are UUIDs: anything else names nothing (and never reaches a uuid column). */
export function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
