import { afterEach, describe, expect, it } from 'vitest';
import type { ExecJob } from '@svc/contracts';
import { testBusKinds, waitFor, type TestBus } from '@svc/bus/testing';
import type { Queue } from '@svc/pack-sdk';
import { loadExecutionWorkerEnv } from '../../env.js';
import { consumeJobs } from './task.consumer.js';

const PREFETCH = { fast: 4, medium: 2, long: 1 };

describe('SVC_WORKER_QUEUES', () => {
  it('takes all three queues by default, and any subset named, in queue order', () => {
    expect(loadExecutionWorkerEnv({}).SVC_WORKER_QUEUES).toEqual(['fast', 'medium', 'long']);
    expect(loadExecutionWorkerEnv({ SVC_WORKER_QUEUES: 'long, medium' }).SVC_WORKER_QUEUES).toEqual(['medium', 'long']);
    expect(loadExecutionWorkerEnv({ SVC_WORKER_QUEUES: 'fast,fast' }).SVC_WORKER_QUEUES).toEqual(['fast']);
  });

  it('refuses an empty list and a name that is not a queue, naming it', () => {
    expect(() => loadExecutionWorkerEnv({ SVC_WORKER_QUEUES: ' , ' })).toThrow(/SVC_WORKER_QUEUES/);
    expect(() => loadExecutionWorkerEnv({ SVC_WORKER_QUEUES: 'fast,slow' })).toThrow(/not a queue: slow/);
  });
});

describe.each(testBusKinds())('a worker of some queues only, on the $name bus', (kind) => {
  let bus: TestBus | undefined;
  afterEach(async () => {
    await bus?.dispose();
    bus = undefined;
  });

  it('takes jobs from its queues and leaves the others waiting for their own workers', async () => {
    bus = await kind.open();
    const handled: [string, Queue][] = [];
    const worker = {
      async handle(job: ExecJob, queue: Queue) {
        handled.push([job.task_id, queue]);
      },
    };
    const subscriptions = await consumeJobs(bus.bus, worker, PREFETCH, ['medium', 'long']);
    await bus.bus.send('exec.fast', { task_id: 'fast-1' });
    await bus.bus.send('exec.medium', { task_id: 'medium-1' });
    await bus.bus.send('exec.long', { task_id: 'long-1' });
    await waitFor(() => handled.length === 2, 'the medium and long jobs');
    expect(handled.sort()).toEqual([
      ['long-1', 'long'],
      ['medium-1', 'medium'],
    ]);
    expect(await bus.bus.depth('exec.fast')).toBe(1);

    // A fast worker beside it takes the job that waited.
    subscriptions.push(...(await consumeJobs(bus.bus, worker, PREFETCH, ['fast'])));
    await waitFor(() => handled.length === 3, 'the fast job');
    expect(handled).toContainEqual(['fast-1', 'fast']);
    await Promise.all(subscriptions.map((s) => s.cancel()));
  });
});
