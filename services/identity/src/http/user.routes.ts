import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { SetPlatformRoleBody, UpdateMeBody } from '@svc/contracts';
import { z } from 'zod';
import { NotFoundError, ok, parseInput } from '@svc/core';
import type { Db } from '@svc/db';
import { UserRepository } from '../repositories/user.repository.js';
import { publicUser } from '../services/auth.service.js';
import type { RoleService } from '../services/role.service.js';

const UserId = z.uuid('must be a user id (uuid)');

export function userRoutes(db: Db, roles: RoleService): Router {
  const router = Router();

  /** Answers the updated user, so a client need not fetch it again. */
  router.patch('/users/me', async (req, res) => {
    const identity = requireIdentity(req);
    const body = parseInput(UpdateMeBody, req.body);
    const users = new UserRepository(db);
    await users.update(identity.userId, { name: body.name });
    const user = await users.findById(identity.userId);
    if (!user) throw new NotFoundError('User not found');
    res.json(ok(publicUser(user)));
  });

  /** The platform owner appoints an admin, or makes one a member again; answers the user. */
  router.put('/users/:userId/role', async (req, res) => {
    const identity = requireIdentity(req);
    const userId = parseInput(UserId, req.params.userId, 'user_id');
    const { role } = parseInput(SetPlatformRoleBody, req.body);
    res.json(ok(await roles.setPlatformRole(identity, userId, role)));
  });

  return router;
}
