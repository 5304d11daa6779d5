import { createHmac } from 'node:crypto';
import { Sealer } from '@svc/auth';

export const SSH_KEY_BYTES = 32;

/** Decodes `SVC_SSH_ENCRYPTION_KEY` (base64 of 32 bytes); throws naming the problem, never the value. */
export function decodeKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== SSH_KEY_BYTES || key.toString('base64') !== base64.trim()) throw new Error(`must be the base64 of exactly ${SSH_KEY_BYTES} bytes`);
  return key;
}

/** The id credentials sealed before keys were derived carry: an HMAC of the configured key itself. */
function underivedKeyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('svc ssh key id').digest('hex').slice(0, 16);
}

/**
 * The sealer of SSH credentials (`@svc/auth`'s, purpose `ssh-credentials/v1`): sealed under a key
 * derived from `SVC_SSH_ENCRYPTION_KEY`, opened under it or one derived from a key in
 * `SVC_SSH_PREVIOUS_KEYS`. Credentials sealed under the configured keys themselves, as they were
 * before keys were derived, still open and are re-sealed at start-up like those of a rotation.
 *
 * @example
 *   const sealer = credentialSealer(env.SVC_SSH_ENCRYPTION_KEY, env.SVC_SSH_PREVIOUS_KEYS);
 *   const { keyId, sealed } = sealer.seal('hunter2', `${tenantId}/${targetId}/password`);
 */
export function credentialSealer(current: string, previous: string[] = []): Sealer {
  const keys = [current, ...previous].map(decodeKey);
  return new Sealer({
    purpose: 'ssh-credentials/v1',
    current: keys[0]!,
    previous: keys.slice(1),
    underived: keys.map((key) => ({ keyId: underivedKeyIdOf(key), key })),
  });
}
