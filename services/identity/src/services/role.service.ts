import type { User } from '@svc/contracts';
import type { Identity } from '@svc/auth';
import type { APPOINTABLE_ROLES } from '@svc/contracts';
import { ConflictError, NotFoundError, PermissionError } from '@svc/core';
import type { Db } from '@svc/db';
import { UserRepository } from '../repositories/user.repository.js';
import { publicUser } from './auth.service.js';
import type { PrincipalService } from './principal.service.js';

/**
 * Platform roles (root README, "Roles"): the owner, the operator account bootstrapped from
 * `SVC_ADMIN_EMAIL`, appoints admins and makes them members again. Nobody else changes a
 * platform role, and the owner's own role is the bootstrap's to set.
 */
export class RoleService {
  constructor(
    private readonly db: Db,
    private readonly principals: PrincipalService,
  ) {}

  async setPlatformRole(caller: Identity, userId: string, role: (typeof APPOINTABLE_ROLES)[number]): Promise<User> {
    if (caller.role !== 'owner') throw new PermissionError('Only the platform owner appoints admins', { reason: 'platform_owner_required' });
    const users = new UserRepository(this.db);
    const target = await users.findById(userId);
    if (!target) throw new NotFoundError('User not found', { user_id: userId });
    if (target.role === 'owner') throw new ConflictError("The owner's role is set by the operator bootstrap (SVC_ADMIN_EMAIL), not here", { user_id: userId, role: target.role });
    if (target.role !== role) {
      await users.update(userId, { role });
      // The user's next request, on every gateway, carries the new role.
      await this.principals.forgetUser(userId);
    }
    return publicUser({ ...target, role });
  }
}
