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

/** "10 requests a minute", "5 command runs an hour", "30 requests per 45 s". */
function sizeOf({ limit, windowSeconds, label }: LimitResult): string {
  const what = label?.kind === 'command_runs_per_hour' ? 'command runs' : 'requests';
  const per = windowSeconds === 60 ? 'a minute' : windowSeconds === 3600 ? 'an hour' : `per ${windowSeconds} s`;
  return `${limit} ${what} ${per}`;
}

/**
 * The message and details of a RATE_LIMITED answer, naming the limit that refused: which one,
 * its size, the caller's tier, and when it resets; a client tells the person exactly that.
 *
 * @example
 *   const { message, details } = refusalOf(result); // "Rate limit reached: the free tier allows 10 requests a minute; retry in 49 s"
 *   throw new RateLimitError(message, details);
 */
export function refusalOf(result: LimitResult): { message: string; details: Record<string, unknown> } {
  const retryAfter = retryAfterSeconds(result);
  const { label } = result;
  const whose = label?.tier && (label.kind === 'requests_per_minute' || label.kind === 'command_runs_per_hour') ? `the ${label.tier} tier allows ${sizeOf(result)}` : undefined;
  const which = label?.kind === 'endpoint_group' ? `${sizeOf(result)} to the ${label.name} endpoints` : label?.kind === 'client_ip' ? `${sizeOf(result)} from one address to ${label.name}` : sizeOf(result);
  const reached = label?.kind === 'command_runs_per_hour' ? 'Command run limit reached' : 'Rate limit reached';
  return {
    message: `${reached}: ${whose ?? which}; retry in ${retryAfter} s`,
    details: {
      retry_after: retryAfter,
      limit: result.limit,
      window_seconds: result.windowSeconds,
      ...(label ? { limit_kind: label.kind } : {}),
      ...(label?.tier ? { tier: label.tier } : {}),
      ...(label?.name ? { limit_name: label.name } : {}),
      resets_at: new Date(Date.now() + result.state.msBeforeNext).toISOString(),
    },
  };
}
