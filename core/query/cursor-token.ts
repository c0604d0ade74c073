/**
 * The opaque cursor of keyset paging (DESIGN §13): the last row's sort-key values, signed together
 * with the query they belong to. `<payload>.<signature>`, both base64url: the payload is the JSON
 * array of values, the signature an HMAC-SHA256 over the query identity and the payload text. A
 * cursor altered in any character, or presented with another query, fails the signature check.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest, type ApiError } from '../errors.ts';

/** The one answer to every bad cursor: which part was wrong is nobody's business (DESIGN §13–14). */
export const CURSOR_MISMATCH = 'cursor does not match this query';

export function cursorMismatch(): ApiError {
  return badRequest(CURSOR_MISMATCH);
}

function signature(secret: string, identity: string, payload: string): string {
  return createHmac('sha256', secret).update(identity).update('\n').update(payload).digest('base64url');
}

/** `values` must be JSON values (the wire forms of core/schema/values.ts). */
export function signCursor(secret: string, identity: string, values: readonly unknown[]): string {
  const payload = Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
  return `${payload}.${signature(secret, identity, payload)}`;
}

/**
 * The values of a cursor signed for `identity`, or a 400. The signature is compared as text, not
 * as decoded bytes: base64url decoding forgives stray characters and a last character's spare
 * bits, and a cursor that differs in any character must be refused.
 */
export function openCursor(secret: string, identity: string, cursor: string, length: number): unknown[] {
  const [payload, given, ...rest] = cursor.split('.');
  if (payload === undefined || given === undefined || rest.length > 0) throw cursorMismatch();
  const expected = Buffer.from(signature(secret, identity, payload), 'utf8');
  const received = Buffer.from(given, 'utf8');
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) throw cursorMismatch();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw cursorMismatch();
  }
  if (!Array.isArray(values) || values.length !== length) throw cursorMismatch();
  return values;
}
