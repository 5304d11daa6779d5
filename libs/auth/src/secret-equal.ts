import { createHash, timingSafeEqual } from 'node:crypto';

const digestOf = (value: string | Buffer) => createHash('sha256').update(value).digest();

/**
 * Compares two secrets (tokens, signatures, MACs, codes, checksums) in time that depends on
 * neither's content nor length: both are hashed to 32 bytes first, so `timingSafeEqual` always
 * has equal lengths and an early length check cannot tell a caller how long the secret is.
 *
 * @example
 *   if (!secretsEqual(given, expected)) throw new AuthenticationError('Invalid signature');
 */
export function secretsEqual(given: string | Buffer, expected: string | Buffer): boolean {
  return timingSafeEqual(digestOf(given), digestOf(expected));
}
