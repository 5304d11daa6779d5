import { ephemeralQueueName, type Bus, type Subscription } from '@svc/bus';
import { EXECUTION_REPLIES, type EphemeralQueue } from '@svc/contracts';
import type { Logger } from '@svc/core';
import type { InputValidator } from '../services/input-validator.js';
import type { PackCache } from '../../worker/services/pack-cache.js';
import type { RegistryCatalog } from '../services/registry-catalog.js';
import type { ReplyWaiters } from '../services/reply-waiters.js';
import type { TaskWorker } from '../../worker/services/task-worker.js';
import type { RunnerPool } from '../../worker/runners/runner-pool.js';

export interface WorkerPrefetch {
  fast: number;
  medium: number;
  long: number;
}

/**
 * Work: take jobs from the three queues, each with its own bound on jobs in flight. A job whose
 * task could not be read or written because the database was out of reach goes back on its
 * queue (the fleet's bus retry policy) and runs again once it is back: at least once.
 */
export async function consumeJobs(bus: Bus, worker: TaskWorker, prefetch: WorkerPrefetch): Promise<Subscription[]> {
  return Promise.all(
    (['fast', 'medium', 'long'] as const).map((queue) =>
      bus.consume(`exec.${queue}`, (message) => worker.handle(message.payload, queue, message.redelivered), { prefetch: prefetch[queue] }),
    ),
  );
}

/** This process's reply queue: outcomes of the synchronous calls it is waiting for. */
export function replyQueueName(): EphemeralQueue<typeof EXECUTION_REPLIES> {
  return ephemeralQueueName(EXECUTION_REPLIES);
}

export function consumeReplies(bus: Bus, queue: EphemeralQueue<typeof EXECUTION_REPLIES>, waiters: ReplyWaiters): Promise<Subscription> {
  return bus.consume(queue, async (message) => waiters.deliver(message.payload), { ephemeral: true, prefetch: 256 });
}

/**
 * Broadcasts every worker must see: a revoked task is stopped wherever it runs, a newly
 * installed pack version is unpacked ahead of its first call (which then only starts a
 * runner), and an uninstalled pack loses its runners and cached files everywhere.
 */
export function consumeBroadcasts(bus: Bus, parts: { worker: TaskWorker; pool: RunnerPool; packs: PackCache }, log: Logger): Promise<Subscription> {
  return bus.subscribe(
    ephemeralQueueName('execution.broadcasts'),
    ['task.revoked', 'pack.installed', 'pack.uninstalled'],
    async (message) => {
      if (message.name === 'task.revoked') {
        parts.worker.cancel(message.payload.task_id);
        return;
      }
      if (message.name === 'pack.installed') {
        const installed = message.payload;
        // Not awaited: broadcasts must not queue behind a download. A failure only means the
        // first call fetches the pack itself.
        void parts.packs.dirFor(installed.pack_id, installed.version_id).catch((err: Error) => log.warn('installed pack not unpacked ahead', { pack_id: installed.pack_id, error: err.message }));
        return;
      }
      const { pack_id: packId } = message.payload;
      await parts.pool.evict(`${packId}/`);
      await parts.packs.forget(packId);
      log.info('uninstalled pack forgotten', { pack_id: packId });
    },
    { ephemeral: true },
  );
}

/**
 * What every API instance must hear of: an install, an uninstall, a tenant's installation
 * changed or removed, or a grant given or taken drops the namespace's cached resolutions, so
 * the next call runs the version now installed (or pinned) for whoever may now reach it (or
 * finds none), and an uninstall drops the pack's compiled input schemas.
 */
export function consumePackChanges(bus: Bus, parts: { catalog: RegistryCatalog; validator: InputValidator }): Promise<Subscription> {
  return bus.subscribe(
    ephemeralQueueName('execution.pack-changes'),
    ['pack.installed', 'pack.uninstalled', 'pack.installation.changed', 'pack.installation.removed', 'pack.grant.changed'],
    async (message) => {
      const { pack_id: packId, namespace } = message.payload;
      parts.catalog.forgetNamespace(namespace);
      if (message.name === 'pack.uninstalled') parts.validator.forget(`${packId}/`);
    },
    { ephemeral: true },
  );
}
