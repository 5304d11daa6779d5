import { eventIdFor, outboxEvent, type EventOutbox } from '@svc/bus';
import { NO_COHORT, type EventInput } from '@svc/contracts';
import type { Db, OutboxEntry } from '@svc/db';
import type { Logger } from '@svc/core';
import { UserRepository, type UserWithTenant } from '../repositories/user.repository.js';
import type { PasswordHasher } from './password.js';
import type { PrincipalService } from './principal.service.js';

export interface AdminBootstrap {
  email: string;
  password: string;
  slug: string;
}

/**
 * The owner as `user.registered` (no access code, cohort `none`), under one event id for good, so
 * that consumers apply it once however often it is announced (their inboxes), and an installation
 * whose owner was created before this announcement gets it listed (admin) at its next start. It
 * goes through the outbox's relay, whose first pass comes after the fleet's consumers subscribed.
 */
function announcement(owner: UserWithTenant): OutboxEntry {
  const payload: EventInput<'user.registered'> = { user_id: owner.id, tenant_id: owner.tenant.id, email: owner.email, tier: 'enterprise', access_code_id: null, cohort: NO_COHORT };
  return outboxEvent('user.registered', payload, { eventId: eventIdFor('user.registered', owner.id) });
}

/**
 * Makes sure the installation's operator exists as an `owner` on tier `enterprise` with the
 * configured password, and that the fleet knows of it. Safe to run on every start and from
 * several replicas.
 */
export async function ensureAdmin(db: Db, events: EventOutbox, hasher: PasswordHasher, principals: PrincipalService, admin: AdminBootstrap, log: Logger): Promise<void> {
  const users = new UserRepository(db);
  const existing = await users.findByEmail(admin.email);
  if (!existing) {
    const passwordHash = await hasher.hash(admin.password);
    try {
      await db.transaction(async (tx) => {
        const created = await new UserRepository(tx).create({ email: admin.email, passwordHash, slug: admin.slug, name: 'Administrator', tier: 'enterprise', role: 'owner' });
        await events.enqueue(tx, [announcement(created)]);
      });
      log.info('admin account created', { email: admin.email });
    } catch (err) {
      // Another replica created it in the meantime.
      if (!(await users.findByEmail(admin.email))) throw err;
    }
    return;
  }
  const passwordMatches = await hasher.verify(admin.password, existing.passwordHash);
  if (!passwordMatches || existing.role !== 'owner' || existing.subscriptionTier !== 'enterprise') {
    await users.update(existing.id, {
      role: 'owner',
      subscriptionTier: 'enterprise',
      ...(passwordMatches ? {} : { passwordHash: await hasher.hash(admin.password) }),
    });
    await principals.forgetUser(existing.id);
    log.info('admin account updated', { email: admin.email });
  }
  // Again at every start, for an owner created before it was announced; a row of this id the
  // outbox still holds (a week) already says the same, and consumers take it once anyway.
  await events.enqueue(db, [announcement(existing)]);
}
