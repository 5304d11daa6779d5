import { createHmac } from 'node:crypto';

/**
 * A keyed digest (HMAC-SHA-256) of a secret or personal value — an access code, an e-mail, a
 * payment-customer id — so that audit rows and logs can say "the same one" without holding it.
 */
export function keyedDigest(key: string, value: string): string {
  return `hmac:${createHmac('sha256', key).update(value).digest('hex').slice(0, 32)}`;
}

/** An e-mail as audit rows and logs may show it: the last 4 characters of its local part. */
export function redactEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at >= 0 ? email.slice(0, at) : email;
  return `…${local.slice(-4)}@…`;
}
