import { createHmac } from 'node:crypto';
import { secretsEqual } from './secret-equal.js';

const VERSION = 'v1';
/** The principal entries' own key, derived from the internal secret so it signs nothing else. */
const PURPOSE = 'svc principal cache entry';

const derived = new Map<string, Buffer>();

function entryKey(secret: string): Buffer {
  let key = derived.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update(PURPOSE).digest();
    derived.set(secret, key);
  }
  return key;
}

function mac(secret: string, cacheKey: string, json: string): Buffer {
  return createHmac('sha256', entryKey(secret)).update(cacheKey).update('\n').update(json).digest();
}

/**
 * A principal as identity writes it to the shared cache: `v1.<HMAC>.<JSON>`, the HMAC-SHA256
 * (under a key derived from `SVC_INTERNAL_SECRET`) of the cache key and the JSON. Whoever can
 * write to Redis without the secret cannot make an entry the gateway accepts, nor move a real
 * one to another session's or key's name.
 *
 * @example
 *   await cache.set(key, signPrincipalEntry(secret, key, JSON.stringify(identity)), ttl);
 */
export function signPrincipalEntry(secret: string, cacheKey: string, json: string): string {
  return `${VERSION}.${mac(secret, cacheKey, json).toString('base64url')}.${json}`;
}

/**
 * The JSON of an entry read from the cache under `cacheKey`, or undefined when it is not one
 * that `signPrincipalEntry` made for that key with this secret (forged, moved, unsigned).
 *
 * @example
 *   const json = verifyPrincipalEntry(secret, key, text); // undefined: ask identity instead
 */
export function verifyPrincipalEntry(secret: string, cacheKey: string, text: string): string | undefined {
  const first = text.indexOf('.');
  const second = text.indexOf('.', first + 1);
  if (first === -1 || second === -1 || text.slice(0, first) !== VERSION) return undefined;
  const json = text.slice(second + 1);
  const given = Buffer.from(text.slice(first + 1, second), 'base64url');
  const expected = mac(secret, cacheKey, json);
  return secretsEqual(given, expected) ? json : undefined;
}
