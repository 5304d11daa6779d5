import { createSecretKey, hkdfSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** The one scope an MCP client may ask for: running commands, as an API key's. */
export const OAUTH_SCOPE = 'commands:execute';

/** Claims of an OAuth access token beyond `iss`, `aud` (the resource) and `exp`. */
export interface OAuthAccessClaims {
  /** The user who approved. */
  sub: string;
  /** The authorization (grant) the token was issued under: revoking it ends the token at once. */
  gid: string;
  /** The tenant the user chose on the consent page. */
  tid: string;
  client_id: string;
  /** Space-separated, RFC 6749 style. */
  scope: string;
}

export interface OAuthTokenSettings {
  /** SVC_JWT_SECRET; the token key is derived from it for this purpose only. */
  secret: string;
  /** The authorization server's issuer (the platform's public URL). */
  issuer: string;
  /** The resource the token is for (RFC 8707), e.g. `https://svc.example.com/mcp`. */
  audience: string;
}

const keys = new Map<string, KeyObject>();

/**
 * The key of OAuth access tokens: a key of its own (HKDF of SVC_JWT_SECRET), so that an OAuth
 * access token is never taken for a platform access token or the other way round, whatever
 * their claims say. The gateway's passport strategy verifies with it.
 */
export function oauthTokenKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'svc', 'oauth-access-token/v1', 32)));
    keys.set(secret, key);
  }
  return key;
}

/**
 * Signs an OAuth access token for one resource (its audience). The gateway verifies it with
 * `verifyOAuthAccessToken` and resolves its grant to the caller, so a revoked authorization
 * stops its tokens before they expire.
 *
 * @example
 *   const { token } = signOAuthAccessToken({ sub, gid, tid, client_id, scope: OAUTH_SCOPE }, { secret, issuer, audience }, 900);
 */
export function signOAuthAccessToken(claims: OAuthAccessClaims, settings: OAuthTokenSettings, ttlSeconds: number): { token: string; expiresIn: number } {
  const { sub, ...rest } = claims;
  // A `jti` of its own: two tokens issued in the same second are still two tokens.
  const token = jwt.sign(rest, oauthTokenKey(settings.secret), { algorithm: 'HS256', subject: sub, issuer: settings.issuer, audience: settings.audience, expiresIn: ttlSeconds, jwtid: randomUUID() });
  return { token, expiresIn: ttlSeconds };
}

/**
 * The claims of a token `signOAuthAccessToken` made for this issuer and audience. Throws
 * jsonwebtoken's errors (`TokenExpiredError`, `JsonWebTokenError` for a bad signature, issuer
 * or audience) or a plain Error for missing claims.
 */
export function verifyOAuthAccessToken(token: string, settings: OAuthTokenSettings, options: { ignoreExpiration?: boolean } = {}): OAuthAccessClaims & { exp: number } {
  const payload = jwt.verify(token, oauthTokenKey(settings.secret), {
    algorithms: ['HS256'],
    issuer: settings.issuer,
    audience: settings.audience,
    ignoreExpiration: options.ignoreExpiration ?? false,
  }) as Record<string, unknown>;
  const { sub, gid, tid, client_id, scope, exp } = payload;
  if (typeof sub !== 'string' || typeof gid !== 'string' || typeof tid !== 'string' || typeof client_id !== 'string' || typeof scope !== 'string') throw new Error('Invalid access token claims');
  // jsonwebtoken checks `exp` only when a token has one: a token without it would never expire.
  if (typeof exp !== 'number') throw new Error('Access token without an expiry');
  return { sub, gid, tid, client_id, scope, exp };
}

/** Where clients reach the platform when SVC_PUBLIC_URL is not set: `npm start`'s gateway. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

/** Where the MCP endpoint is, for a platform reached at `publicUrl`: the resource OAuth tokens are for. */
export function mcpResourceOf(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/mcp`;
}

/** The issuer of the platform's authorization server: its public URL without a trailing slash. */
export function oauthIssuerOf(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}
