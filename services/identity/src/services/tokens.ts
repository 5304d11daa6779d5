import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: the refresh token handed to the client. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so a database leak does not leak live sessions. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
