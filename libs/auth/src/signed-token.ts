import { createHmac } from 'node:crypto';
import { secretsEqual } from './secret-equal.js';

export interface SignedTokenOptions {
  /** The shared secret a key is derived from (`SVC_INTERNAL_SECRET`). */
  secret: string;
  /** What the derived key signs, so that a token of one kind is never taken for another. */
  purpose: string;
  /** The token's visible kind, e.g. `dsh_`. */
  prefix: string;
}

export interface SignedTokens {
  /** `<prefix><base64url of body>.<base64url of HMAC-SHA256>`: URL-safe, no padding. */
  sign(body: string): string;
  /** The body of a token `sign` made with this key, or undefined when it is forged, altered or malformed. */
  verify(token: string): string | undefined;
}

/**
 * Tokens that carry a short body and their own HMAC-SHA256, under a key derived from a shared
 * secret for one purpose: share links and dashboard view tokens. The signature makes a token
 * unforgeable and its body (an id, an expiry) untouchable; whatever else makes one valid (a row
 * that still exists, a live session) is the caller's to check.
 *
 * @example
 *   const tokens = signedTokens({ secret, purpose: 'svc dashboard share link', prefix: 'dsh_' });
 *   tokens.verify(tokens.sign('id.0')); // 'id.0'
 */
export function signedTokens({ secret, purpose, prefix }: SignedTokenOptions): SignedTokens {
  const key = createHmac('sha256', secret).update(purpose).digest();
  const mac = (encoded: string) => createHmac('sha256', key).update(encoded).digest();
  return {
    sign(body) {
      const encoded = Buffer.from(body).toString('base64url');
      return `${prefix}${encoded}.${mac(encoded).toString('base64url')}`;
    },
    verify(token) {
      if (!token.startsWith(prefix)) return undefined;
      const [encoded, signature, ...rest] = token.slice(prefix.length).split('.');
      if (!encoded || !signature || rest.length > 0) return undefined;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(encoded);
      if (!secretsEqual(given, expected)) return undefined;
      return Buffer.from(encoded, 'base64url').toString();
    },
  };
}
