import { describe, expect, it } from 'vitest';
import { createLogger } from '@svc/core';
import { busContract } from './bus.contract.js';
import { createMemoryBus } from './memory-bus.js';
import { waitFor } from './testing/wait.js';

const logger = createLogger({ service: 'bus-test', silent: true });

busContract('memory', {
  create: async (options) => createMemoryBus({ logger, drainTimeoutMs: options?.drainTimeoutMs ?? 500, retry: options?.retry }),
});

describe('memory bus', () => {
  it('delivers on a later turn of the event loop, never inside send or publish', async () => {
    const bus = createMemoryBus({ logger });
    let calls = 0;
    await bus.consume('async', async () => {
      calls++;
    });
    await bus.subscribe('async-events', ['thing.happened'], async () => {
      calls++;
    });

    await bus.send('async', {});
    await bus.publish('thing.happened', {});
    expect(calls).toBe(0);

    await waitFor(() => calls === 2, 'both deliveries');
    await bus.close();
  });

  it('routes an event to queues bound after it was first published, and no longer to an ephemeral queue that went', async () => {
    const bus = createMemoryBus({ logger });
    const heard: string[] = [];
    await bus.subscribe('early', ['thing.*'], async () => void heard.push('early'));
    await bus.publish('thing.happened', {});
    await waitFor(() => heard.length === 1, 'the first delivery');

    await bus.subscribe('late', ['thing.happened'], async () => void heard.push('late'));
    const passing = await bus.subscribe('~passing', ['#'], async () => void heard.push('passing'), { ephemeral: true });
    await bus.publish('thing.happened', {});
    await waitFor(() => heard.length === 4, 'three deliveries');
    await passing.cancel();
    await bus.publish('thing.happened', {});
    await waitFor(() => heard.length === 6, 'two deliveries');

    expect(heard.sort()).toEqual(['early', 'early', 'early', 'late', 'late', 'passing']);
    await bus.close();
  });

  it('drops, rather than loops, a message whose handler fails on a dead-letter queue', async () => {
    const bus = createMemoryBus({ logger });
    let attempts = 0;
    await bus.consume('poison', async () => {
      throw new Error('first failure');
    });
    await bus.consume('poison.dlq', async () => {
      attempts++;
      throw new Error('second failure');
    });
    await bus.send('poison', {});
    await waitFor(() => attempts === 1, 'the dead-letter attempt');
    await bus.send('poison', {});
    await waitFor(() => attempts === 2, 'the next dead letter');
    await bus.close();
  });
});
