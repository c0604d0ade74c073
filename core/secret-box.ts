/**
 * Secrets at rest in the control store (workspace database URLs, the cursor-signing key, the
 * internal token signing key): AES-256-GCM with a key from the environment (SECRETS_KEY), so a
 * copy of the store (a backup, a replica, a leaked dump) does not hand out database passwords or
 * the keys that sign credentials.
 *
 * A stored value is `enc:v1:<key id>:<base64url of iv | tag | ciphertext>`. The key id names the
 * key that sealed it, so a start can tell a value of the previous key (SECRETS_KEY_PREVIOUS, during
 * a rotation: opened, then sealed again with the current key) from one of a key it does not have
 * (a clear error). A value without the prefix is a clear one from before encryption: read as is
 * and sealed at the next start. The purpose (which field it is) is authenticated with the value,
 * so a sealed password cannot be moved into the signing key's place.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A key problem the operator must fix: one line, never the key itself. */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

/** 32 bytes given as 64 hex characters or as base64 / base64url; undefined when it is neither. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** A short, stable name of a key that reveals nothing about it. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('wdapi secrets key id\n').update(key).digest('hex').slice(0, 8);
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** The id of the key a sealed value names; undefined for a clear value. */
export function sealedKeyId(value: string): string | undefined {
  if (!isSealed(value)) return undefined;
  return value.slice(PREFIX.length).split(':')[0];
}

export class SecretBox {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous?: Buffer) {
    if (current.length !== KEY_BYTES || (previous && previous.length !== KEY_BYTES)) throw new SecretsKeyError('SECRETS_KEY: must be 32 bytes');
    this.keyId = keyIdOf(current);
    this.keys.set(this.keyId, current);
    if (previous) this.keys.set(keyIdOf(previous), previous);
  }

  /** A box with a random key: for a store that lives only in memory (tests), never written anywhere. */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES));
  }

  seal(plain: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.keyId), iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.keyId}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The clear text of a stored value (a clear legacy value is returned as it is). */
  open(stored: string, purpose: string): string {
    if (!isSealed(stored)) return stored;
    const [keyId = '', data = ''] = stored.slice(PREFIX.length).split(':');
    const raw = Buffer.from(data, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key(keyId), raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (error) {
      if (error instanceof SecretsKeyError) throw error;
      throw new SecretsKeyError(`SECRETS_KEY: a stored ${purpose} (key ${keyId}) cannot be decrypted: the value is damaged or the key is not the one that sealed it`);
    }
  }

  /** True when the value is clear or sealed with another key than the current one. */
  needsSealing(stored: string): boolean {
    return sealedKeyId(stored) !== this.keyId;
  }

  private key(keyId: string): Buffer {
    const key = this.keys.get(keyId);
    if (key) return key;
    const known = [...this.keys.keys()].join(', ');
    throw new SecretsKeyError(`SECRETS_KEY: the control store's secrets were sealed with key ${keyId}, but the keys given are ${known} (set SECRETS_KEY, or SECRETS_KEY_PREVIOUS while rotating, to the key that sealed them)`);
  }
}
