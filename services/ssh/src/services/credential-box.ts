import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SSH_KEY_BYTES = 32;

/** A key's public name: the first 8 bytes of its HMAC over a fixed label, in hex; tells keys apart without revealing them. */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('svc ssh key id').digest('hex').slice(0, 16);
}

/** Decodes `SVC_SSH_ENCRYPTION_KEY` (base64 of 32 bytes); throws naming the problem, never the value. */
export function decodeKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== SSH_KEY_BYTES || key.toString('base64') !== base64.trim()) throw new Error(`must be the base64 of exactly ${SSH_KEY_BYTES} bytes`);
  return key;
}

export interface Sealed {
  keyId: string;
  sealed: Buffer;
}

/**
 * AES-256-GCM for SSH credentials under a current key and any number of previous ones. Each
 * value is sealed under the current key and bound to its place (`context`: tenant and target)
 * as authenticated data; the id of the key travels beside it, so that values sealed under a
 * previous key still open while they are re-sealed (`needsReseal`).
 *
 * @example
 *   const box = new CredentialBox(decodeKey(env.SVC_SSH_ENCRYPTION_KEY));
 *   const { keyId, sealed } = box.seal('hunter2', `${tenantId}/${targetId}`);
 *   box.open(keyId, sealed, `${tenantId}/${targetId}`); // 'hunter2'
 */
export class CredentialBox {
  readonly #current: Buffer;
  readonly #keys: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.#current = current;
    this.currentKeyId = keyIdOf(current);
    this.#keys = new Map([...previous, current].map((key) => [keyIdOf(key), key]));
  }

  seal(value: string, context: string): Sealed {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, nonce);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return { keyId: this.currentKeyId, sealed: Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]) };
  }

  /** Throws when the key is not configured, or the value was sealed for another place. */
  open(keyId: string, sealed: Buffer, context: string): string {
    const key = this.#keys.get(keyId);
    if (!key) throw new Error(`no configured SSH encryption key has id ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  needsReseal(keyId: string): boolean {
    return keyId !== this.currentKeyId;
  }
}
