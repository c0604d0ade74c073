/**
 * The instance's own ES256 key, created once and kept in the control store so every instance shares
 * it; sealed there like every secret of the store (core/secret-box.ts).
 */
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';
import type { ControlStore } from '../../../core/workspace/store.ts';

/** jose's key object (a WebCrypto CryptoKey), named without the DOM lib. */
export type PrivateKey = Exclude<Awaited<ReturnType<typeof importJWK>>, Uint8Array>;

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: PrivateKey;
  readonly publicJwk: JWK;
}

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

const SETTING = 'oauthSigningKey';

async function createKey(store: ControlStore): Promise<StoredKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const stored: StoredKey = {
    kid,
    privateJwk: await exportJWK(privateKey),
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
  };
  await store.setSecretSetting(SETTING, stored);
  // Two instances may race at first start: whoever wrote last wins, and both read that one back.
  return (await store.getSecretSetting<StoredKey>(SETTING)) ?? stored;
}

export async function loadSigningKey(store: ControlStore): Promise<SigningKey> {
  const stored = (await store.getSecretSetting<StoredKey>(SETTING)) ?? (await createKey(store));
  const privateKey = (await importJWK(stored.privateJwk, 'ES256')) as PrivateKey;
  return { kid: stored.kid, privateKey, publicJwk: stored.publicJwk };
}
