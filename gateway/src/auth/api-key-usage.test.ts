import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBus, ephemeralQueueName } from '@svc/bus';
import { createLogger } from '@svc/core';
import { ApiKeyUsage } from './api-key-usage.js';

const log = createLogger({ service: 'api-key-usage-test', silent: true });

describe('API-key usage', () => {
  afterEach(() => vi.useRealTimers());

  it('reports each key once per flush with the time it was last seen, and nothing when none was', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00.000Z'), toFake: ['Date'] });
    const bus = await createBus({ logger: log });
    const reported: unknown[] = [];
    await bus.subscribe(ephemeralQueueName('test.api-key-usage'), ['api-key.used'], async (message) => {
      reported.push(message.payload);
    }, { ephemeral: true });
    const usage = new ApiKeyUsage(bus, log, 3_600_000);
    try {
      usage.record('key-a');
      vi.setSystemTime(new Date('2026-03-01T10:00:05.250Z'));
      usage.record('key-b');
      usage.record('key-a');
      await usage.flush();
      await usage.flush();
      await vi.waitFor(() => expect(reported).toHaveLength(1));
      expect(reported[0]).toEqual({
        keys: [
          { id: 'key-a', at: '2026-03-01T10:00:05.250Z' },
          { id: 'key-b', at: '2026-03-01T10:00:05.250Z' },
        ],
      });
    } finally {
      await usage.stop();
      await bus.close();
    }
  });
});
