import { createHmac } from 'node:crypto';
import type { PresentedCode } from '../repositories/access-code.repository.js';

/**
 * The keyed digest an access code is found by. Keyed (SVC_INTERNAL_SECRET), because a code has
 * about 40 bits: a plain hash of one read from a database copy is undone by trying them all.
 */
export function codeDigest(key: string, literal: string): string {
  return createHmac('sha256', key).update(literal).digest('hex');
}

export function presented(key: string, literal: string): PresentedCode {
  return { literal, digest: codeDigest(key, literal) };
}
