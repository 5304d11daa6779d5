import type { RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Cache } from '@svc/cache';
import { errorBody, RateLimitError, correlationOf } from '@svc/core';

export interface LimitSpec {
  name: string;
  points: number;
  durationSeconds: number;
}

/**
 * A limiter shared by every gateway replica through Redis, with an in-memory limiter of the
 * same size taking over while Redis is away.
 */
export function createLimiter(spec: LimitSpec, cache: Cache, storage: 'redis' | 'memory'): RateLimiterAbstract {
  const options = { keyPrefix: `rl:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
  const memory = new RateLimiterMemory(options);
  if (storage === 'memory' || !cache.redis) return memory;
  return new RateLimiterRedis({ ...options, storeClient: cache.redis, insuranceLimiter: memory, rejectIfRedisNotReady: true });
}

function setHeaders(res: Response, limit: number, state: RateLimiterRes): void {
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)));
}

/** Consumes one point per request for the key `keyOf(req)`; 429 with Retry-After when spent. */
export function rateLimit(limiter: RateLimiterAbstract, keyOf: (req: Parameters<RequestHandler>[0]) => string): RequestHandler {
  return async (req, res, next) => {
    try {
      setHeaders(res, limiter.points, await limiter.consume(keyOf(req)));
      next();
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return next(rejection);
      setHeaders(res, limiter.points, rejection);
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      const body = errorBody(new RateLimitError(`Rate limit exceeded; retry in ${retryAfter} s`, { retry_after: retryAfter }), correlationOf(req));
      res.status(429).json({ ...body, error: { ...body.error, retry_after: retryAfter } });
    }
  };
}
