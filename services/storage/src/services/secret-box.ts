import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for pack secrets. The key is derived (HKDF-SHA256) from the configured secret, so
 * the same secret used elsewhere (the internal token key, when no key of its own is set) never
 * serves as this key directly. Each value is bound to its place (`context`: tenant, pack, name)
 * as authenticated data.
 *
 * @example
 *   const box = new SecretBox(config.secretsKey);
 *   const sealed = box.seal('s3cret', 'tenant/acme/tools/API_TOKEN');
 *   box.open(sealed, 'tenant/acme/tools/API_TOKEN'); // 's3cret'
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'svc', 'pack-secrets/v1', 32));
  }

  seal(value: string, context: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]);
  }

  /** Throws when the value was sealed with another key or for another place. */
  open(sealed: Buffer, context: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
