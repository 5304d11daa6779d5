import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { TIERS } from '@svc/auth';
import type { Cache } from '@svc/cache';
import { CommandRunQuota, consumeAll, createLimiter, TIER_LIMITS, type LimitCheck, type LimitSpec, type LimitStorage } from '@svc/rate-limit';
import { endpointGroupOf, groupLimits, IP_LIMITS, isCommandRun, UNKNOWN_CALLER_LIMIT, type CommandGroupLimit, type EndpointGroup, type IpLimitName } from './limits.js';
import { answerLimits, rateLimit } from './rate-limit.js';

export interface RequestLimitsOptions {
  /** False (`RATE_LIMIT_ENABLED=false`): every limit lets everything through, without headers. */
  enabled: boolean;
  cache: Cache;
  storage: LimitStorage;
  commandGroup: CommandGroupLimit;
}

export interface RequestLimits {
  /** Before authentication: the per-client-IP limit of the route (`res.locals.route.ipLimit`), if any. */
  perClientIp: RequestHandler;
  /** After authentication: the caller's tier and endpoint-group limits, and the command-run budget for a command run. */
  perUser: RequestHandler;
  /**
   * Error middleware for answers given before any limit spoke (an unknown route, missing or
   * refused credentials, 413): a point of the client IP's unknown-caller budget and its
   * headers, so that every answer carries X-RateLimit-*; 429 instead when that budget is spent.
   */
  beforeCaller: ErrorRequestHandler;
  /** The command-run budget this gateway draws on for REST command runs. */
  commandRuns: CommandRunQuota;
}

/** One limiter per name, e.g. one per tier. */
function limiters<K extends string>(names: readonly K[], spec: (name: K) => LimitSpec, cache: Cache, storage: LimitStorage): Record<K, RateLimiterAbstract> {
  return Object.fromEntries(names.map((name) => [name, createLimiter(spec(name), cache, storage)])) as Record<K, RateLimiterAbstract>;
}

const pass: RequestHandler = (_req, _res, next) => next();
const passError: ErrorRequestHandler = (err, _req, _res, next) => next(err);

/**
 * Every rate limit of the gateway (numbers in `limits.ts`). A request is refused when any limit
 * that applies to it is spent (the stricter wins), and the answer's X-RateLimit-* headers
 * report the most constrained of them.
 */
export function createRequestLimits({ enabled, cache, storage, commandGroup }: RequestLimitsOptions): RequestLimits {
  const commandRuns = new CommandRunQuota(cache, storage, enabled);
  if (!enabled) return { perClientIp: pass, perUser: pass, beforeCaller: passError, commandRuns };

  const ipNames = Object.keys(IP_LIMITS) as IpLimitName[];
  const ip = limiters(ipNames, (name) => ({ name: `ip-${name}`, ...IP_LIMITS[name] }), cache, storage);
  const byIp = Object.fromEntries(ipNames.map((name) => [name, rateLimit((req) => [{ limiter: ip[name], key: req.ip ?? 'unknown', label: { kind: 'client_ip', name } }])])) as Record<IpLimitName, RequestHandler>;
  const tiers = limiters(TIERS, (tier) => ({ name: `tier-${tier}`, points: TIER_LIMITS[tier].requestsPerMinute, durationSeconds: 60 }), cache, storage);
  const groupSpecs = groupLimits(commandGroup);
  const groups = limiters(Object.keys(groupSpecs) as EndpointGroup[], (group) => groupSpecs[group], cache, storage);

  const perClientIp: RequestHandler = (req, res, next) => {
    const name = res.locals.route?.ipLimit;
    return name ? byIp[name](req, res, next) : next();
  };

  const perUser: RequestHandler = async (req, res, next) => {
    const identity = req.identity;
    if (!identity) return next();
    const perMinute: LimitCheck[] = [
      { limiter: tiers[identity.tier], key: identity.userId, label: { kind: 'requests_per_minute', tier: identity.tier } },
      { limiter: groups[endpointGroupOf(req.path)], key: identity.userId, label: { kind: 'endpoint_group', name: endpointGroupOf(req.path) } },
    ];
    let results = await consumeAll(perMinute);
    // A request refused per minute does not spend a command run.
    const run = isCommandRun(req.method, req.path) && !results.some((r) => r.rejected) ? commandRuns.checkFor(identity) : undefined;
    if (run) results = [...results, ...(await consumeAll([run]))];
    if (answerLimits(req, res, results)) next();
  };

  const unknownCaller = createLimiter(UNKNOWN_CALLER_LIMIT, cache, storage);
  const beforeCaller: ErrorRequestHandler = async (err, req, res, next) => {
    if (res.headersSent || res.hasHeader('X-RateLimit-Limit')) return next(err);
    let results;
    try {
      results = await consumeAll([{ limiter: unknownCaller, key: req.ip ?? 'unknown', label: { kind: 'client_ip', name: 'unauthenticated requests' } }]);
    } catch {
      return next(err); // the counters are away: the answer goes out without headers
    }
    if (answerLimits(req, res, results)) next(err);
  };

  return { perClientIp, perUser, beforeCaller, commandRuns };
}
