import { useEffect, useState, useSyncExternalStore } from 'react';
import type { RetryInfo } from '@svc/client';

/** A request the platform refused for a rate limit, which the client sends again at `until`. */
export interface RateLimitWait {
  /** The limit in words a person can act on: which one and, for a tier's own, the tier. */
  limit: string;
  tier: string | undefined;
  /** When the request goes again (ms since the epoch). */
  until: number;
}

let current: RateLimitWait | undefined;
const listeners = new Set<() => void>();

/** The limit of a `RATE_LIMITED` answer's `details` (gateway README, "Rate limits"), else its message up to the retry hint. */
function limitOf(details: Record<string, unknown>, message: string): string {
  const size = `${String(details.limit)}`;
  if (details.limit_kind === 'requests_per_minute') return `${size} requests a minute`;
  if (details.limit_kind === 'command_runs_per_hour') return `${size} command runs an hour`;
  return message.replace(/; retry in \d+ s$/, '');
}

/**
 * The client's `onRetry`: a 429 it waits out (up to a minute, as `Retry-After` says) becomes the
 * notice every page shows, so that a held request never looks like a page that hangs.
 */
export function onRetry(info: RetryInfo): void {
  if (info.status !== 429 || !info.error) return;
  const details = info.error.details;
  current = { limit: limitOf(details, info.error.message), tier: typeof details.tier === 'string' ? details.tier : undefined, until: Date.now() + info.waitMs };
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
