import { useEffect, useState, useSyncExternalStore } from 'react';
import type { RetryInfo } from '@svc/client';

/** A request the platform refused for a rate limit, which the client sends again at `until`. */
export interface RateLimitWait {
  /** Which limit, in the platform's words: "The free tier allows 10 requests a minute". */
  limit: string;
  /** When the request goes again (ms since the epoch). */
  until: number;
}

let current: RateLimitWait | undefined;
const listeners = new Set<() => void>();

/**
 * The limit a `RATE_LIMITED` message names (gateway README, "Rate limits": the tier and its
 * size, or the per-address or endpoint-group limit), without the words around it ("Rate limit
 * reached: …; retry in 49 s"), whose countdown the page keeps itself.
 */
function limitOf(message: string): string {
  const limit = message.replace(/^[^:]*: /, '').replace(/; retry in \d+ s$/, '');
  return limit.charAt(0).toUpperCase() + limit.slice(1);
}

/**
 * The client's `onRetry`: a 429 it waits out (up to a minute, as `Retry-After` says) becomes the
 * notice every page shows, so that a held request never looks like a page that hangs.
 */
export function onRetry(info: RetryInfo): void {
  if (info.status !== 429 || !info.error) return;
  current = { limit: limitOf(info.error.message), until: Date.now() + info.waitMs };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The rate-limit wait going on, and the seconds left of it (counted down each second); nothing once it is over. */
export function useRateLimitWait(): { wait: RateLimitWait; seconds: number } | undefined {
  const wait = useSyncExternalStore(subscribe, () => current);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!wait) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [wait]);
  if (!wait || now >= wait.until) return undefined;
  return { wait, seconds: Math.ceil((wait.until - now) / 1000) };
}
