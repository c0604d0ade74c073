import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Secrets are high-entropy random strings, so a plain SHA-256 is enough to store them. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function sameHash(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Equal strings, compared in a time that depends on their length only (no early exit at the first
 * difference), as timingSafeEqual compares buffers; without encoding both strings on every call.
 */
export function sameText(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < given.length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
