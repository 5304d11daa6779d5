import { ephemeralQueueName, type Bus, type Subscription } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { RunnerPool } from '../runners/runner-pool.js';
import type { PackCache } from '../services/pack-cache.js';
import type { PackManifests } from '../services/pack-manifests.js';
import type { TaskWorker } from '../services/task-worker.js';

/**
 * Broadcasts every worker must see: a revoked task is stopped wherever it runs, a newly
 * installed pack version is unpacked ahead of its first call and a spare runner readied for
 * that call (`RunnerPool.prepareSpare`), and an uninstalled pack loses its runners and cached
 * files everywhere.
 */
export function consumeBroadcasts(bus: Bus, parts: { worker: TaskWorker; pool: RunnerPool; packs: PackCache; manifests: PackManifests }, log: Logger): Promise<Subscription> {
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
        void parts.packs.dirFor(installed.pack_id, installed.version_id).then(
          // A manifest that cannot be read is the first call's to report: here it only means no spare.
          (dir) =>
            parts.manifests
              .of(dir)
              .then((manifest) => parts.pool.prepareSpare(manifest.runtime))
              .catch((err: Error) => log.warn('spare runner not readied', { pack_id: installed.pack_id, error: err.message })),
          (err: Error) => log.warn('installed pack not unpacked ahead', { pack_id: installed.pack_id, error: err.message }),
        );
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
