import { createSecretKey, type KeyObject } from 'node:crypto';

const keys = new Map<string, KeyObject>();

/**
 * The HMAC key of a shared secret, made once per secret. Given a string, jsonwebtoken tries
 * (and fails) to parse it as a PEM public or private key on every sign and verify, which costs
 * about fifty times the HMAC itself; given a KeyObject it goes straight to the HMAC.
 *
 * @example
 *   jwt.verify(token, secretKey(env.SVC_INTERNAL_SECRET), { algorithms: ['HS256'] });
 */
export function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}
