import type { Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { UserRepository } from '../repositories/user.repository.js';
import type { PasswordHasher } from './password.js';
import type { PrincipalService } from './principal.service.js';

export interface AdminBootstrap {
  email: string;
  password: string;
  slug: string;
}

/**
 * Makes sure the installation's operator exists as an `owner` on tier `enterprise` with the
 * configured password. Safe to run on every start and from several replicas.
 */
export async function ensureAdmin(db: Db, hasher: PasswordHasher, principals: PrincipalService, admin: AdminBootstrap, log: Logger): Promise<void> {
  const users = new UserRepository(db);
  const existing = await users.findByEmail(admin.email);
  if (!existing) {
    const passwordHash = await hasher.hash(admin.password);
    try {
      await db.transaction((tx) => new UserRepository(tx).create({ email: admin.email, passwordHash, slug: admin.slug, name: 'Administrator', tier: 'enterprise', role: 'owner' }));
      log.info('admin account created', { email: admin.email });
    } catch (err) {
      // Another replica created it in the meantime.
      if (!(await users.findByEmail(admin.email))) throw err;
    }
    return;
  }
  const passwordMatches = await hasher.verify(admin.password, existing.passwordHash);
  if (passwordMatches && existing.role === 'owner' && existing.subscriptionTier === 'enterprise') return;
  await users.update(existing.id, {
    role: 'owner',
    subscriptionTier: 'enterprise',
    ...(passwordMatches ? {} : { passwordHash: await hasher.hash(admin.password) }),
  });
  await principals.forgetUser(existing.id);
  log.info('admin account updated', { email: admin.email });
}
