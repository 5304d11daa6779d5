import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { UpdateMeBody } from '@svc/contracts';
import { NotFoundError, ok, parseInput } from '@svc/core';
import type { Db } from '@svc/db';
import { UserRepository } from '../repositories/user.repository.js';
import { publicUser } from '../services/auth.service.js';

export function userRoutes(db: Db): Router {
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

  return router;
}
