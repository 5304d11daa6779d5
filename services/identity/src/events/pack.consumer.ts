import type { Bus, Subscription } from '@svc/bus';
import { PackInstalled, PackUninstalled } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { Db } from '@svc/db';
import { TenantPackRepository } from '../repositories/tenant-pack.repository.js';

/** Keeps the per-tenant pack read model behind `packs_count` in step with the registry. */
export function consumePackEvents(bus: Bus, db: Db): Promise<Subscription> {
  return bus.subscribe('identity.packs', ['pack.installed', 'pack.uninstalled'], async (message) => {
    const packs = new TenantPackRepository(db);
    if (message.name === 'pack.installed') {
      const event = parseInput(PackInstalled, message.payload, 'pack.installed');
      await packs.record(event.pack_id, event.tenant_id);
      return;
    }
    await packs.forget(parseInput(PackUninstalled, message.payload, 'pack.uninstalled').pack_id);
  });
}
