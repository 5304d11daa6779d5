import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lock } from 'proper-lockfile';

/**
 * The signed-in session as the CLI keeps it: an access token (15 minutes on a default platform)
 * and the refresh token that renews it. The platform rotates refresh tokens: each renewal answers
 * a new one and spends the old, and presenting a spent one again ends the whole session, as a
 * stolen copy would. So two `svc` processes must never renew with the same refresh token: the
 * renewal runs under a lock on the config file, and a process that finds the file already renewed
 * by another adopts that instead of renewing again.
 */

/** The key prefix of platform API keys. */
export const API_KEY_PREFIX = 'sk-svc-';

/** Whether a token is a refreshable access token (a JWT), as opposed to an API key. */
export function isJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

/** Renew this long before the access token's end, so that a request never leaves with one about to lapse. */
export const RENEW_BEFORE_MS = 30_000;

/** A refresh token as identity makes them: 32 random bytes, base64url. */
export function isRefreshToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * When an access token (a JWT) expires, from its own `exp`, in ms since the epoch; undefined when
 * it says nothing readable. Not verified: only used to decide when to renew and to tell the person.
 */
export function accessTokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an access token has ended or is about to. */
export function isExpiring(token: string, now = Date.now()): boolean {
  const expiry = accessTokenExpiry(token);
  return expiry !== undefined && expiry - RENEW_BEFORE_MS <= now;
}

/**
 * Runs `work` holding the lock of the config file at `path` (a `<path>.lock` folder, taken
 * atomically; one left behind by a killed process is stale after 15 s).
 */
export async function withConfigLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const release = await lock(path, { realpath: false, stale: 15_000, retries: { retries: 40, minTimeout: 25, maxTimeout: 250 } });
  try {
    return await work();
  } finally {
    await release();
  }
}

/** "in 15 minutes", "in 29 days": how far ahead `at` is, for a person. */
export function fromNow(at: number, now = Date.now()): string {
  const seconds = Math.round((at - now) / 1000);
  if (seconds <= 0) return 'already past';
  const [value, unit] = seconds < 120 ? [seconds, 'second'] : seconds < 7200 ? [Math.round(seconds / 60), 'minute'] : seconds < 172_800 ? [Math.round(seconds / 3600), 'hour'] : [Math.round(seconds / 86_400), 'day'];
  return `in ${value} ${unit}${value === 1 ? '' : 's'}`;
}

/** `2026-11-27 09:15 UTC`: a moment as a person reads it, in one zone whatever the machine's. */
export function clockTime(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
