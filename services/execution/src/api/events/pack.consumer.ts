import { ephemeralQueueName, type Bus, type Subscription } from '@svc/bus';
import type { InputValidator } from '../services/input-validator.js';
import type { RegistryCatalog } from '../services/registry-catalog.js';

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
