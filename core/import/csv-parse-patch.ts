/**
 * PATCH OF LIBRARY INTERNALS (speed): csv-parse's cast step, cut short. Written against csv-parse
 * 7.0.3 only (PATCHED_VERSION); any other installed version, or a parser whose internals do not have
 * the shape read below, keeps the documented cast path (`markEmptyQuoted` in csv-fields.ts), which
 * gives the same records more slowly. test/import/csv-parse-patch.test.ts fails when the pinned
 * library changes, so whoever upgrades it re-checks this file. Why it exists:
 * docs/writes-and-import.md, "Import throughput".
 */
import { isUtf8 } from 'node:buffer';
import type { Parser } from 'csv-parse';
import { installedVersion } from '../library-version.ts';
import { EMPTY_QUOTED, NotUtf8, REPLACEMENT, type RawField } from './csv-fields.ts';

export const PATCHED_VERSION = '7.0.3';

const applies = installedVersion('csv-parse') === PATCHED_VERSION;

/** The part of csv-parse 7's internal parser state that `leanCast` reads and replaces. */
interface ParserInternals {
  api?: {
    __cast?: unknown;
    options?: { encoding?: unknown };
    state?: { wasQuoting?: unknown; field?: { buf?: unknown; length?: unknown } };
  };
}

/** The field's bytes in csv-parse's field buffer, before it is reset for the next field. */
interface FieldBuffer {
  readonly buf: Buffer;
  readonly length: number;
}

/**
 * csv-parse hands `cast` a context built from three object spreads per field (`__infoField`):
 * about 40% of an import's CPU and much of its garbage (profile in docs/writes-and-import.md), where
 * `markEmptyQuoted` needs one flag. Where the parser has the internals of the pinned version,
 * its cast step reads that flag directly (true); otherwise the documented, slower path stays. Errors
 * keep their full context either way: csv-parse builds it in its own error paths.
 *
 * The lean step also has csv-parse decode each field itself (`encoding` utf8, one string per
 * field instead of a copied byte array, a view of it and then the string): the bytes are still
 * whole in its field buffer when the step runs, and they are checked there when the text shows
 * U+FFFD, which is what any byte sequence that is not UTF-8 decodes to.
 */
export function leanCast(parser: Parser): boolean {
  if (!applies) return false;
  const api = (parser as unknown as ParserInternals).api;
  const state = api?.state;
  const field = state?.field;
  if (typeof api?.__cast !== 'function' || api.options === undefined || !('encoding' in api.options) || typeof state?.wasQuoting !== 'boolean'
    || !Buffer.isBuffer(field?.buf) || typeof field.length !== 'number') return false;
  const internal = state as { wasQuoting: boolean; field: FieldBuffer };
  api.options.encoding = 'utf8';
  // csv-parse destructures the answer at once (`const [err, f] = this.__cast(field)`): one tuple serves every field.
  const answer: [undefined, RawField] = [undefined, ''];
  api.__cast = (text: string): [undefined, RawField] => {
    answer[1] = text.length === 0 ? (internal.wasQuoting ? EMPTY_QUOTED : text)
      : !text.includes(REPLACEMENT) || isUtf8(internal.field.buf.subarray(0, internal.field.length)) ? text : new NotUtf8(text);
    return answer;
  };
  return true;
}

