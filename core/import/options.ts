/** Import options from the query string, the X-Import-Mapping header and a saved mapping (DESIGN §9, §12). */
import { badRequest } from '../errors.ts';
import { QueryReader, type QueryParams, type QuerySpec } from '../query/query-params.ts';
import { DELIMITERS } from './csv-source.ts';
import type { SavedMapping } from './job-store.ts';
import { readMappingInput, type ImportMethod, type MappingInput } from './mapping.ts';

export interface ImportOptions {
  readonly method: ImportMethod;
  readonly header: boolean;
  /** Undefined: detected from the first line. */
  readonly delimiter?: string;
  /** Undefined: auto-mapping by header, or by position without one. */
  readonly mapping?: MappingInput;
  readonly onConflict?: string;
  readonly conflictColumns?: string[];
}

export type ImportQuery = QueryParams;

const IMPORT_QUERY: QuerySpec = { single: ['method', 'header', 'delimiter', 'mapping', 'onConflict', 'conflictColumns'] };

/** An option's value; an empty one counts as absent. */
function single(query: QueryReader, name: string): string | undefined {
  const value = query.single(name);
  return value === '' ? undefined : value;
}

function readMethod(text: string | undefined): ImportMethod | undefined {
  if (text === undefined) return undefined;
  const method = text.toUpperCase();
  if (method !== 'INSERT' && method !== 'UPDATE') throw badRequest("'method' must be INSERT or UPDATE");
  return method;
}

function readBoolean(name: string, text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  throw badRequest(`'${name}' must be true or false`);
}

function readDelimiter(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const delimiter = text === 'tab' || text === '\\t' ? '\t' : text;
  if (!(DELIMITERS as readonly string[]).includes(delimiter)) throw badRequest("'delimiter' must be one of , ; | or tab (\\t)");
  return delimiter;
}

/**
 * An HTTP header carries Latin-1 at most (browsers refuse anything else; Node reads the bytes as
 * Latin-1), so a column named "名前" travels percent-encoded: a value starting with `%` is UTF-8 JSON
 * after `decodeURIComponent` (`%7B…` for `{…}`). JSON starts with `{`, so plain values read as before.
 */
function decodeMappingHeader(text: string): string {
  if (!text.trimStart().startsWith('%')) return text;
  try {
    return decodeURIComponent(text.trim());
  } catch {
    throw badRequest('X-Import-Mapping starts with % but is not valid percent-encoded UTF-8 (send encodeURIComponent(JSON.stringify(mapping)))');
  }
}

function readHeaderMapping(text: string | undefined): MappingInput | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeMappingHeader(text));
  } catch (error) {
    if (error instanceof SyntaxError) throw badRequest('X-Import-Mapping must be JSON {csvColumn: fieldName}, plain or percent-encoded');
    throw error;
  }
  return readMappingInput(parsed, 'X-Import-Mapping');
}

/** Query options win over a saved mapping's `header` and `method`; a mapping header and a saved mapping exclude each other. */
export function readImportOptions(params: ImportQuery, mappingHeader: string | undefined, saved: SavedMapping | undefined): ImportOptions {
  const query = new QueryReader(params, IMPORT_QUERY);
  const explicit = readHeaderMapping(mappingHeader);
  if (explicit && saved) throw badRequest('give either mapping=<savedMappingId> or an X-Import-Mapping header, not both');
  const method = readMethod(single(query, 'method')) ?? saved?.method ?? 'INSERT';
  const onConflict = single(query, 'onConflict')?.toUpperCase();
  const conflictText = single(query, 'conflictColumns');
  if (method === 'UPDATE' && (onConflict !== undefined || conflictText !== undefined)) {
    throw badRequest('onConflict and conflictColumns apply to method INSERT; UPDATE always matches on the primary key');
  }
  const delimiter = readDelimiter(single(query, 'delimiter'));
  const mapping = explicit ?? saved?.mapping;
  return {
    method,
    header: readBoolean('header', single(query, 'header')) ?? saved?.header ?? true,
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(mapping !== undefined ? { mapping } : {}),
    ...(onConflict !== undefined ? { onConflict } : {}),
    ...(conflictText !== undefined ? { conflictColumns: conflictText.split(',').map((c) => c.trim()).filter((c) => c !== '') } : {}),
  };
}
