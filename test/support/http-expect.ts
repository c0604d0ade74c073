/**
 * Assertions shared by the black-box HTTP suites: the error envelope, and the rule that no
 * response ever carries SQL text, a stack trace or a driver message (DESIGN §5).
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiResponse, TestWorkspace } from './harness.ts';

/** Things that only a leaked SQL statement, stack trace or driver message would contain. */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /\bSELECT\b/,
  /\bINSERT\s+INTO\b/i,
  /\bDELETE\s+FROM\b/i,
  /\bUPDATE\s+"/,
  /\bLEFT JOIN\b/,
  /\brelation "/,
  /\bcolumn "/,
  /\bviolates\b/,
  /duplicate key/i,
  /syntax error/i,
  /SQLSTATE/i,
  /\bstack\b/i,
  /\n\s+at /,
  /\bat [\w.<>]+ \(/,
  /node_modules/,
  /\.ts:\d+/,
  /"t\d+"\./,
];

/**
 * Fails when the body shows internals. `echoed` are request inputs the service may quote back in
 * a message (an unknown field name, say); they are removed before looking.
 */
export function expectNoLeak(body: unknown, echoed: readonly string[] = []): void {
  let text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  for (const input of echoed) {
    if (input === '') continue;
    text = text.split(input).join(' ').split(JSON.stringify(input).slice(1, -1)).join(' ');
  }
  for (const pattern of LEAK_PATTERNS) expect(text, `response body leaks internals (${pattern})`).not.toMatch(pattern);
}

/** The spec's error envelope with the given status and code; `mentions` must occur in the message. */
export function expectError(res: ApiResponse, status: number, code: string, ...mentions: string[]): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  for (const text of mentions) expect(res.body.error.message).toContain(text);
  expectNoLeak(res.body);
}

/** `VALIDATION_FAILED` with a `{field, rule, message}` entry for `field` (and `rule` when given). */
export function expectValidation(res: ApiResponse, field: string, rule?: string): void {
  expectError(res, 400, 'VALIDATION_FAILED');
  const details = res.body.error.details as { field: unknown; rule: unknown; message: unknown }[];
  expect(Array.isArray(details)).toBe(true);
  for (const d of details) {
    expect(Object.keys(d).sort()).toEqual(['field', 'message', 'rule']);
    expect(typeof d.rule).toBe('string');
    expect(typeof d.message).toBe('string');
  }
  const entry = details.find((d) => d.field === field);
  expect(entry, `details name '${field}': ${JSON.stringify(details)}`).toBeDefined();
  if (rule) expect(entry?.rule).toBe(rule);
}

/** A list response: 200, `{data: [...], meta}`. Returns the data. */
export function expectList(res: ApiResponse): Record<string, unknown>[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
  expect(Array.isArray(res.body.data)).toBe(true);
  return res.body.data as Record<string, unknown>[];
}

/** Ids of a list response, in order. */
export function idsOf(res: ApiResponse): unknown[] {
  return expectList(res).map((r) => r.id);
}

/** Builds `?a=b&c=d` from pairs (repeated keys allowed); keys and values are URL-encoded. */
export function query(pairs: readonly (readonly [string, string | number])[]): string {
  if (pairs.length === 0) return '';
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}`;
}

/** Row count and a digest of a table's rows, read directly from the database (plain SQL, any vendor). */
export async function tableDigest(ws: TestWorkspace, table: string): Promise<{ count: number; digest: string }> {
  const rows = await ws.db.query(`SELECT * FROM ${ws.db.table(table)} ORDER BY id`);
  const text = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  return { count: rows.length, digest: createHash('sha256').update(text).digest('hex') };
}

export async function rowCount(ws: TestWorkspace, table: string): Promise<number> {
  return (await tableDigest(ws, table)).count;
}

/** Digests of every fixture table, to prove that a request changed nothing. */
export async function databaseDigest(ws: TestWorkspace): Promise<Record<string, { count: number; digest: string }>> {
  const out: Record<string, { count: number; digest: string }> = {};
  for (const table of ['regions', 'customers', 'products', 'orders']) out[table] = await tableDigest(ws, table);
  return out;
}

/** Resets every entity option that the suites change. */
export async function resetEntityOptions(ws: TestWorkspace, adminToken: string, entities: readonly string[]): Promise<void> {
  const body = { defaultExpand: null, expandable: null, maxExpandDepth: null, defaultFields: null, countMode: null };
  for (const entity of entities) {
    const res = await ws.call('PATCH', ws.admin(`/entities/${entity}`), { token: adminToken, body });
    if (res.status !== 200) throw new Error(`resetting options of ${entity} failed: ${JSON.stringify(res.body)}`);
  }
}
