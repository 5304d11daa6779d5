import type { Request, RequestHandler, Response } from 'express';
import { errorBody, RateLimitError, correlationOf } from '@svc/core';
import { rateLimitRefusals } from '@svc/metrics';
import { consumeAll, rateLimitHeaders, refusalOf, type LimitCheck, type LimitResult } from '@svc/rate-limit';

const remaining = (r: LimitResult) => Math.max(0, r.state.remainingPoints);

/**
 * The limiter that speaks for the answer. After a refusal: of the refusing limiters, the one
 * that frees up last (the client must wait for all of them). Otherwise the most constrained:
 * fewest requests left, then the later reset.
 */
export function governing(results: LimitResult[]): LimitResult | undefined {
  const refused = results.filter((r) => r.rejected);
  if (refused.length > 0) return refused.reduce((a, b) => (b.state.msBeforeNext > a.state.msBeforeNext ? b : a));
  return results.reduce<LimitResult | undefined>((a, b) => {
    if (!a) return b;
    if (remaining(b) !== remaining(a)) return remaining(b) < remaining(a) ? b : a;
    return b.state.msBeforeNext > a.state.msBeforeNext ? b : a;
  }, undefined);
}

/**
 * Writes the governing limiter's X-RateLimit-* headers; after a refusal also answers 429 with
 * Retry-After and the RATE_LIMITED body (`error.retry_after` in seconds; `details` name the
 * limit, its size and window, the tier and when it resets). True when the
 * request may go on.
 */
export function answerLimits(req: Request, res: Response, results: LimitResult[]): boolean {
  const decisive = governing(results);
  if (!decisive) return true;
  res.set(rateLimitHeaders(decisive));
  if (!decisive.rejected) return true;
  rateLimitRefusals.inc({ limit: decisive.name.replace(/^rl:/, '') });
  const { message, details } = refusalOf(decisive);
  res.setHeader('Retry-After', String(details.retry_after));
  res.status(429).json(errorBody(new RateLimitError(message, details), correlationOf(req)));
  return false;
}

/** Takes a point from each of `checksOf(req)`; 429 when any of them is spent. */
export function rateLimit(checksOf: (req: Request) => LimitCheck[]): RequestHandler {
  return async (req, res, next) => {
    if (answerLimits(req, res, await consumeAll(checksOf(req)))) next();
  };
}
