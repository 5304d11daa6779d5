import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { refusalOf } from './headers.js';
import type { LimitResult } from './limiter.js';

const refused = (overrides: Partial<LimitResult>): LimitResult => ({ name: 'rl:tier-free', limit: 10, windowSeconds: 60, state: new RateLimiterRes(0, 49_000, 11), rejected: true, ...overrides });

describe('refusalOf', () => {
  it("names the tier's limit, its size and when it resets", () => {
    const { message, details } = refusalOf(refused({ label: { kind: 'requests_per_minute', tier: 'free' } }));
    expect(message).toBe('Rate limit reached: the free tier allows 10 requests a minute; retry in 49 s');
    expect(details).toMatchObject({ retry_after: 49, limit: 10, window_seconds: 60, limit_kind: 'requests_per_minute', tier: 'free' });
    expect(Date.parse(details.resets_at as string)).toBeGreaterThan(Date.now() + 48_000);
  });

  it('names command runs an hour, an endpoint group and a public endpoint', () => {
    expect(refusalOf(refused({ limit: 5, windowSeconds: 3600, label: { kind: 'command_runs_per_hour', tier: 'free' } })).message).toBe('Command run limit reached: the free tier allows 5 command runs an hour; retry in 49 s');
    expect(refusalOf(refused({ limit: 100, label: { kind: 'endpoint_group', name: 'commands' } })).message).toBe('Rate limit reached: 100 requests a minute to the commands endpoints; retry in 49 s');
    expect(refusalOf(refused({ limit: 30, label: { kind: 'client_ip', name: 'sign-in' } })).message).toBe('Rate limit reached: 30 requests a minute from one address to sign-in; retry in 49 s');
    expect(refusalOf(refused({ windowSeconds: 45 })).message).toBe('Rate limit reached: 10 requests per 45 s; retry in 49 s');
  });
});
