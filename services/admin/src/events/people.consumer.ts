import { handleOnce, type Bus, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import { ActivityRepository } from '../repositories/activity.repository.js';
import { AdminUserRepository } from '../repositories/admin-user.repository.js';
import type { HardLimits } from '../usage/hard-limits.js';

/**
 * Keeps the admin area's users, billing facts and the metrics' activity in step with identity,
 * the registry and billing, each event applied once (by its id, in the inbox). Nothing personal
 * goes into the activity: no e-mail, code or customer id. A tier change holds a tenant with hard
 * limits to the new tier's quotas at once (`HardLimits.reconsider`).
 */
export function consumePeopleEvents(bus: Bus, db: Db, now: () => Date, hardLimits: HardLimits): Promise<Subscription> {
  return bus.subscribe(
    'admin.people',
    ['user.registered', 'user.tier.changed', 'user.developer-mode.enabled', 'pack.published', 'subscription.changed', 'billing.event.recorded'],
    handleOnce(db, inbox, async (message, tx) => {
      const users = new AdminUserRepository(tx);
      const activity = new ActivityRepository(tx);
      const at = now();
      const base = { id: message.messageId, eventType: message.name, durationMs: null, createdAt: at };
      switch (message.name) {
        case 'user.registered': {
          const p = message.payload;
          const user = { userId: p.user_id, tenantId: p.tenant_id, email: p.email, tier: p.tier, cohort: p.cohort, accessCodeId: p.access_code_id, createdAt: at };
          // The bootstrapped owner (no access code) is listed, at the tier its start-up sets, but is no signup of the funnel.
          if (p.access_code_id === null) return users.registerOwner(user);
          await users.register(user);
          await activity.record({ ...base, tenantId: p.tenant_id, userId: p.user_id, eventData: { tier: p.tier, cohort: p.cohort } });
          break;
        }
        case 'user.developer-mode.enabled':
          await activity.record({ ...base, tenantId: null, userId: message.payload.user_id, eventData: { organization_id: message.payload.organization_id } });
          break;
        case 'pack.published': {
          const p = message.payload;
          await activity.record({ ...base, tenantId: p.tenant_id, userId: p.user_id, eventData: { namespace: p.namespace, name: p.name, version: p.version } });
          break;
        }
        case 'user.tier.changed':
          await users.setTier(message.payload.user_id, message.payload.tier);
          await hardLimits.reconsider(tx, message.payload.tenant_id, message.payload.user_id, at);
          break;
        case 'subscription.changed':
          await users.setSubscription(message.payload);
          break;
        case 'billing.event.recorded': {
          const p = message.payload;
          await users.recordBillingEvent({ id: p.billing_event_id, type: p.type, userId: p.user_id, amountCents: p.amount_cents, occurredAt: new Date(p.occurred_at) });
          await activity.record({ ...base, eventType: p.type, tenantId: null, userId: p.user_id, eventData: { amount_cents: p.amount_cents }, createdAt: new Date(p.occurred_at) });
          break;
        }
      }
    }),
  );
}
