import { createHmac, randomBytes } from 'node:crypto';

/** A new endpoint's signing secret: `whsec_` and 32 random bytes in hex. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/**
 * The `Svc-Signature` header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
 * The time is inside what is signed, so a receiver that rejects old timestamps is safe from
 * replays of a captured delivery.
 *
 * @example
 *   signatureHeader(secret, '{"id":"…"}', 1795345987); // 't=1795345987,v1=5f1c…'
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
