/**
 * Captures the exact statements (text and parameters) the service sends to the workspace
 * database for one request: the workspace driver's `query` is wrapped for the duration of
 * the call. The floors replay these statements, so they run the SQL the service runs.
 */
import type { CompiledSql } from '../../core/sql.ts';
import type { BenchService } from './service.ts';
import { ORG, WS } from './service.ts';

export interface CapturedStatement {
  readonly text: string;
  readonly params: readonly unknown[];
  /** True when it started before the previous statement had finished (run concurrently). */
  readonly concurrent: boolean;
  readonly returned: Record<string, unknown>[];
}

export interface Captured {
  readonly status: number;
  readonly body: unknown;
  readonly statements: CapturedStatement[];
}

export interface BenchRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

export async function send(service: BenchService, request: BenchRequest): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.url}${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${service.apiKey}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: request.body } : {}),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

export async function captureStatements(service: BenchService, request: BenchRequest): Promise<Captured> {
  const runtime = await service.service.services.workspaces.bySlug(ORG, WS);
  const driver = runtime.driver as { query: (statement: CompiledSql) => Promise<{ rows: Record<string, unknown>[]; affectedRows: number }> };
  const original = driver.query;
  const statements: CapturedStatement[] = [];
  let inFlight = 0;
  driver.query = async (statement) => {
    // Recorded in the order the statements start, whatever order they finish in.
    const entry = { text: statement.text, params: [...statement.params], concurrent: inFlight > 0, returned: [] as Record<string, unknown>[] };
    statements.push(entry);
    inFlight += 1;
    try {
      const result = await original(statement);
      entry.returned = result.rows;
      return result;
    } finally {
      inFlight -= 1;
    }
  };
  try {
    const answer = await send(service, request);
    return { ...answer, statements };
  } finally {
    driver.query = original;
  }
}
