import { signInternalIdentity, INTERNAL_TOKEN_TTL_SECONDS, type Identity } from '@svc/auth';

const MAX_ENTRIES = 10_000;
/** Reuse a signed token for half its life, so a forwarded request always has time left. */
const REUSE_MS = (INTERNAL_TOKEN_TTL_SECONDS * 1000) / 2;

/**
 * Signs the internal identity token for a forwarded request, reusing a recent signature for
 * the same identity: signing on every request is measurable on the hot path.
 */
export function createIdentitySigner(secret: string): (identity: Identity) => string {
  const recent = new Map<string, { token: string; until: number }>();
  return (identity) => {
    const key = JSON.stringify(identity);
    const now = Date.now();
    const hit = recent.get(key);
    if (hit && hit.until > now) return hit.token;
    if (recent.size >= MAX_ENTRIES) recent.clear();
    const token = signInternalIdentity(identity, secret);
    recent.set(key, { token, until: now + REUSE_MS });
    return token;
  };
}
