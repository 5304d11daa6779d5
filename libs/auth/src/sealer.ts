import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A key's public name: the first 8 bytes of its HMAC over a fixed label, in hex; tells keys apart without revealing them. */
function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('svc key id').digest('hex').slice(0, 16);
}

/**
 * The key of one purpose, derived (HKDF-SHA256) from what an operator configured: a secret that
 * serves elsewhere too (the internal token key, when pack secrets have no key of their own) is
 * never used as this key directly, and two purposes never share one.
 */
function derive(secret: string | Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'svc', purpose, KEY_BYTES));
}

export interface SealerOptions {
  /** What the keys serve, e.g. `pack-secrets/v1`: part of every key's derivation. */
  purpose: string;
  /** The configured secret values are sealed under. */
  current: string | Buffer;
  /** Secrets replaced by a rotation: values sealed under them still open, and need re-sealing. */
  previous?: Array<string | Buffer>;
  /**
   * Keys used as they were, under the ids their values carry, from before values were sealed
   * under derived keys (SSH credentials sealed before this class): they open those values, which
   * then need re-sealing. Never used to seal.
   */
  underived?: Array<{ keyId: string; key: Buffer }>;
}

export interface Sealed {
  /** Which key sealed it (`Sealer.currentKeyId` for a new value). */
  keyId: string;
  /** Nonce, tag and ciphertext. */
  sealed: Buffer;
}

/**
 * AES-256-GCM for the secrets the platform keeps for its users (pack secrets, SSH credentials):
 * each value sealed under the current key of its purpose and bound to its place (`context`,
 * e.g. tenant and target) as authenticated data, so that a sealed value moved to another row does
 * not open. The id of the key travels beside the value, so that values sealed under a previous
 * key still open until they are re-sealed.
 *
 * @example
 *   const sealer = new Sealer({ purpose: 'ssh-credentials/v1', current: key, previous: oldKeys });
 *   const { keyId, sealed } = sealer.seal('hunter2', `${tenantId}/${targetId}`);
 *   sealer.open(sealed, `${tenantId}/${targetId}`, keyId); // 'hunter2'
 *   if (sealer.needsReseal(keyId)) ...;
 */
export class Sealer {
  readonly currentKeyId: string;
  readonly #current: Buffer;
  readonly #keys: Map<string, Buffer>;

  constructor(options: SealerOptions) {
    this.#current = derive(options.current, options.purpose);
    this.currentKeyId = keyIdOf(this.#current);
    const derived = [...(options.previous ?? []).map((secret) => derive(secret, options.purpose)), this.#current];
    this.#keys = new Map([...(options.underived ?? []).map(({ keyId, key }) => [keyId, key] as const), ...derived.map((key) => [keyIdOf(key), key] as const)]);
  }

  seal(value: string, context: string): Sealed {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, nonce);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return { keyId: this.currentKeyId, sealed: Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]) };
  }

  /** Throws when no configured key has `keyId`, or the value was sealed for another place or altered. */
  open(sealed: Buffer, context: string, keyId = this.currentKeyId): string {
    const key = this.#keys.get(keyId);
    if (!key) throw new Error(`no configured key has id ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Whether a value sealed under `keyId` should be sealed again under the current key. */
  needsReseal(keyId: string): boolean {
    return keyId !== this.currentKeyId;
  }
}
