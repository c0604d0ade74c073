/**
 * Calls to the service with the session's bearer. Every refusal becomes an ApiFailure carrying
 * the error envelope (`{error: {code, message, details}}`), so screens can show a field's
 * problem at the field and a formula's at its position.
 */
import type { FormulaPosition } from './formula-marks.ts';
import { loadSession } from './session.ts';

export interface FieldProblem {
  readonly field?: string;
  readonly message: string;
}

export type { FormulaPosition };

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }

  /** Field problems of a VALIDATION_FAILED answer (details is a list of `{field, message}`). */
  fieldProblems(): FieldProblem[] {
    return Array.isArray(this.details) ? this.details.filter((d): d is FieldProblem => typeof d?.message === 'string') : [];
  }

  /** The position of an INVALID_FORMULA refusal. */
  position(): FormulaPosition | undefined {
    const position = (this.details as { position?: FormulaPosition } | undefined)?.position;
    return typeof position?.offset === 'number' ? position : undefined;
  }
}

export interface Answer<T> {
  readonly data: T;
  readonly meta?: Record<string, unknown>;
}

export interface CallOptions {
  readonly body?: unknown;
  /** A raw body (a CSV file) with its content type. */
  readonly raw?: { readonly body: BodyInit; readonly type: string };
  readonly token?: string;
  readonly headers?: Record<string, string>;
}

function requestInit(method: string, options: CallOptions): RequestInit {
  const token = options.token ?? loadSession()?.token;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.raw) {
    body = options.raw.body;
    headers['Content-Type'] = options.raw.type;
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  return { method, headers, ...(body !== undefined ? { body } : {}) };
}

async function failureOf(response: Response): Promise<ApiFailure> {
  const text = await response.text();
  try {
    const error = (JSON.parse(text) as { error?: { code?: string; message?: string; details?: unknown } }).error;
    if (error?.message) return new ApiFailure(response.status, error.code ?? 'ERROR', error.message, error.details);
  } catch {
    // not an envelope: said below with the status
  }
  return new ApiFailure(response.status, 'HTTP_ERROR', `the service answered ${response.status} ${response.statusText}`.trim(), undefined);
}

/** The raw response of a successful call (for streams and downloads); refusals throw. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const response = await fetch(path, requestInit(method, options));
  if (!response.ok) throw await failureOf(response);
  return response;
}

/** A JSON call; 204 answers `{data: undefined}`. */
export async function api<T>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const response = await call(method, path, options);
  if (response.status === 204) return { data: undefined as T };
  return (await response.json()) as Answer<T>;
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const adminBase = (org: string, ws: string): string => `/api/admin/v1/orgs/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`;
export const recordsBase = (org: string, ws: string): string => `/api/v1/${encodeURIComponent(org)}/${encodeURIComponent(ws)}`;
