import jwt from 'jsonwebtoken';
import { secretKey } from './secret-key.js';

export const ACCESS_TOKEN_ISSUER = 'svc';
export const ACCESS_TOKEN_AUDIENCE = 'svc-api';

/** Claims of an access token: who (`sub`) and which refresh-session family (`sid`). */
export interface AccessClaims {
  sub: string;
  sid: string;
}

/**
 * Access tokens carry only the user and its session; role, tier and tenant are looked up
 * per request so that a change takes effect at once.
 */
export function signAccessToken(claims: AccessClaims, secret: string, ttlSeconds: number): { token: string; expiresAt: number } {
  const token = jwt.sign({ sid: claims.sid }, secretKey(secret), {
    algorithm: 'HS256',
    subject: claims.sub,
    issuer: ACCESS_TOKEN_ISSUER,
    audience: ACCESS_TOKEN_AUDIENCE,
    expiresIn: ttlSeconds,
  });
  return { token, expiresAt: Date.now() + ttlSeconds * 1000 };
}
