import { describe, expect, it } from 'vitest';
import { createCache, type Cache } from '@svc/cache';
import { usageLimitKey } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { UsageLimitGate } from './usage-limit.js';

const log = createLogger({ service: 'test', silent: true });

describe('the usage limit gate', () => {
  it('refuses a flagged tenant with USAGE_LIMIT_EXCEEDED (429) and lets the others run', async () => {
    const cache = createCache({});
    await cache.set(usageLimitKey('held'), 'commands_per_month', 60);
    const gate = new UsageLimitGate(cache, log);
    await expect(gate.assertWithin('held')).rejects.toMatchObject({ status: 429, code: 'USAGE_LIMIT_EXCEEDED', details: { metric: 'commands_per_month', reason: 'usage-limit-exceeded' } });
    await expect(gate.assertWithin('free-to-run')).resolves.toBeUndefined();
  });

  it('lets runs through when the cache cannot answer', async () => {
    const broken = { get: () => Promise.reject(new Error('connection refused')) } as unknown as Cache;
    await expect(new UsageLimitGate(broken, log).assertWithin('any')).resolves.toBeUndefined();
  });
});
