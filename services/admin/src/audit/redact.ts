import { createHmac } from 'node:crypto';

/**
 * A keyed digest (HMAC-SHA-256) of a secret or personal value — an access code, an e-mail, a
 * payment-customer id — so that audit rows and logs can say "the same one" without holding it.
 */
export function keyedDigest(key: string, value: string): string {
  return `hmac:${createHmac('sha256', key).update(value).digest('hex').slice(0, 32)}`;
}

