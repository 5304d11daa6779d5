import type { Bus, Subscription } from '@svc/bus';
import { QUEUES, type Queue } from '@svc/pack-sdk';
import { traced } from '@svc/tracing';
import type { TaskWorker } from '../services/task-worker.js';

/** Jobs a worker holds at once, per queue. */
export type WorkerPrefetch = Readonly<Record<Queue, number>>;

/**
 * Work: take jobs from the three queues, each with its own bound on jobs in flight. A job whose
 * task could not be read or written because the database was out of reach goes back on its
 * queue (the fleet's bus retry policy) and runs again once it is back: at least once.
 */
/** The work queues of the worker, one per command speed. */
export const EXEC_QUEUES = ['exec.fast', 'exec.medium', 'exec.long'] as const;

/**
 * `queues` are those this worker takes (`SVC_WORKER_QUEUES`): fast workers and long ones can be
 * separate Deployments, each scaled on its own queues' depth.
 */
export async function consumeJobs(bus: Bus, worker: Pick<TaskWorker, 'handle'>, prefetch: WorkerPrefetch, queues: readonly Queue[] = QUEUES): Promise<Subscription[]> {
  return Promise.all(
    queues.map((queue) =>
      bus.consume(
        `exec.${queue}`,
        (message) => {
          const attributes = { 'svc.queue': queue, 'svc.task.id': message.payload.task_id, 'svc.redelivered': message.redelivered };
          return traced('worker.job', { attributes }, () => worker.handle(message.payload, queue, message.redelivered));
        },
        { prefetch: prefetch[queue] },
      ),
    ),
  );
}
