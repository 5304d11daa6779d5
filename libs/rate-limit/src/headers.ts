import type { LimitResult } from './limiter.js';

/** Seconds until a limit frees up again: at least 1, for `Retry-After` and `retry_after`. */
export function retryAfterSeconds(result: LimitResult): number {
  return Math.max(1, Math.ceil(result.state.msBeforeNext / 1000));
}

/**
 * The `X-RateLimit-*` headers that describe one limit (Part 1 "Limits"): its size, what is
 * left of it and when its window resets (Unix seconds). The gateway writes them for the
 * governing limit; the MCP endpoint for the command-run budget that refused a tool call.
 *
 * @example
 *   for (const [name, value] of Object.entries(rateLimitHeaders(result))) res.setHeader(name, value);
 */
export function rateLimitHeaders({ limit, state }: LimitResult): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)),
  };
}
