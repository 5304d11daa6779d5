import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { InviteBody, OrganizationBody } from '@svc/contracts';
import { ok, parseInput, PermissionError } from '@svc/core';
import { organizationView, type OrganizationService } from '../services/organization.service.js';
import type { PrincipalService } from '../services/principal.service.js';

export function organizationRoutes(organizations: OrganizationService, principals: PrincipalService): Router {
  const router = Router();

  router.post('/organizations', async (req, res) => {
    const identity = requireIdentity(req);
    if (!identity.developerMode) throw new PermissionError('Developer mode is required to create organizations');
    const org = await organizations.create(identity.userId, parseInput(OrganizationBody, req.body));
    await principals.forgetUser(identity.userId);
    res.status(201).json(ok({ organization: organizationView(org) }));
  });

  router.get('/organizations/:orgId', async (req, res) => {
    res.json(ok({ organization: await organizations.detail(requireIdentity(req), req.params.orgId) }));
  });

  router.post('/organizations/:orgId/invite', async (req, res) => {
    const invite = await organizations.invite(requireIdentity(req), req.params.orgId, parseInput(InviteBody, req.body));
    res.status(201).json(ok({ invite, message: `Invitation created for ${invite.email}; it expires ${invite.expiresAt}` }));
  });

  router.get('/organizations/:orgId/members', async (req, res) => {
    res.json(ok(await organizations.members(requireIdentity(req), req.params.orgId)));
  });

  router.delete('/organizations/:orgId/members/:userId', async (req, res) => {
    await organizations.removeMember(requireIdentity(req), req.params.orgId, req.params.userId);
    res.json(ok({ message: 'Member removed' }));
  });

  return router;
}
