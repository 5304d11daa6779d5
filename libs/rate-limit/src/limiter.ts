import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Tier } from '@svc/auth';
import type { Cache } from '@svc/cache';

export interface LimitSpec {
  /** Names the counters: `rl:<name>:<key>` in Redis, under the cache prefix. */
  name: string;
  points: number;
  durationSeconds: number;
}

export type LimitStorage = 'redis' | 'memory';

/**
 * In-process counters, one set per cache: limiters made in one process for the same cache
 * share them, as the gateway and the execution service do in the standalone fleet.
 */
const memoryLimiters = new WeakMap<Cache, Map<string, RateLimiterMemory>>();

function memoryLimiter(spec: LimitSpec, cache: Cache): RateLimiterMemory {
  let byName = memoryLimiters.get(cache);
  if (!byName) memoryLimiters.set(cache, (byName = new Map()));
  const id = `${spec.name}/${spec.points}/${spec.durationSeconds}`;
  let limiter = byName.get(id);
  if (!limiter) byName.set(id, (limiter = new RateLimiterMemory({ keyPrefix: `rl:${spec.name}`, points: spec.points, duration: spec.durationSeconds })));
  return limiter;
}

/**
 * A fixed-window limiter shared by every process through Redis (`cache.redis`), with an
 * in-memory limiter of the same size taking over while Redis is away. Without Redis, or with
 * `storage` 'memory', it counts in this process only.
 *
 * @example
 *   const perMinute = createLimiter({ name: 'tier-free', points: 10, durationSeconds: 60 }, cache, 'redis');
 *   const [result] = await consumeAll([{ limiter: perMinute, key: identity.userId }]);
 */
export function createLimiter(spec: LimitSpec, cache: Cache, storage: LimitStorage): RateLimiterAbstract {
  const memory = memoryLimiter(spec, cache);
  if (storage === 'memory' || !cache.redis) return memory;
  return new RateLimiterRedis({
    keyPrefix: `rl:${spec.name}`,
    points: spec.points,
    duration: spec.durationSeconds,
    storeClient: cache.redis,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

/**
 * What a limit is, told to the person it refuses: the tier's requests a minute or command runs
 * an hour, an endpoint group's budget, or a client address's on a public endpoint (`name` says
 * which group or endpoint).
 */
export interface LimitLabel {
  kind: 'requests_per_minute' | 'command_runs_per_hour' | 'endpoint_group' | 'client_ip';
  tier?: Tier;
  name?: string;
}

/** One point to take from `limiter` for `key` (a user id, a client IP). */
export interface LimitCheck {
  limiter: RateLimiterAbstract;
  key: string;
  label?: LimitLabel;
}

/** Where one limiter stands after a request: its size and window, its state, and whether it refused. */
export interface LimitResult {
  /** The limiter's name (`rl:<name>`), for logs and metrics. */
  name: string;
  limit: number;
  windowSeconds: number;
  state: RateLimiterRes;
  rejected: boolean;
  label?: LimitLabel;
}

/** Takes one point from every check at once; a refusal is a result, anything else throws. */
export function consumeAll(checks: LimitCheck[]): Promise<LimitResult[]> {
  return Promise.all(
    checks.map(async ({ limiter, key, label }) => {
      const size = { limit: limiter.points, windowSeconds: limiter.duration, label };
      try {
        return { name: limiter.keyPrefix, ...size, state: await limiter.consume(key), rejected: false };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { name: limiter.keyPrefix, ...size, state: rejection, rejected: true };
      }
    }),
  );
}
