import { handleOnce, type Bus, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import { TenantPackRepository } from '../repositories/tenant-pack.repository.js';

/**
 * Keeps the per-tenant pack read model behind `packs_count` in step with the registry. Each
 * event is applied once (by its id, in the inbox): a late second delivery of an install must
 * not bring back a pack uninstalled since.
 */
export function consumePackEvents(bus: Bus, db: Db): Promise<Subscription> {
  return bus.subscribe(
    'identity.packs',
    ['pack.installed', 'pack.uninstalled'],
    handleOnce(db, inbox, async (message, tx) => {
      const packs = new TenantPackRepository(tx);
      if (message.name === 'pack.installed') await packs.record(message.payload.pack_id, message.payload.tenant_id);
      else await packs.forget(message.payload.pack_id);
    }),
  );
}
