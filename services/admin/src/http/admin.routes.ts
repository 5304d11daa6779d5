import { Router, type Request } from 'express';
import { AdminAccessCodesQuery, AdminCompCodeBody, AdminSetTierBody, AdminUserId, AdminUsersQuery, AuditLogQuery } from '@svc/contracts';
import { parseInput, type Logger } from '@svc/core';
import type { AuditService } from '../services/audit.service.js';
import { adminsAndOwners, audited, ownersOnly } from '../audit/audited.js';
import type { AdminService } from '../services/admin.service.js';
import type { OperatorService } from '../services/operator.service.js';

/** `/api/v1/admin/*`: platform admins and owners (the audit log: owners), each request audited. */
export function adminRoutes(admin: AdminService, operator: OperatorService, audit: AuditService, log: Logger): Router {
  const router = Router();

  router.get(
    '/admin/users',
    audited(audit, log, { action: 'admin.users.list', gate: adminsAndOwners, run: (req) => admin.listUsers(parseInput(AdminUsersQuery, req.query, 'query')) }),
  );

  router.get(
    '/admin/users/:id',
    audited(audit, log, {
      action: 'admin.users.read',
      gate: adminsAndOwners,
      target: (req) => String(req.params.id),
      run: (req) => admin.userDetail(parseInput(AdminUserId, req.params.id, 'id')),
    }),
  );

  const userId = (req: Request) => String(req.params.id);

  router.post(
    '/admin/users/:id/access-codes',
    audited(audit, log, {
      action: 'admin.access-codes.mint',
      gate: adminsAndOwners,
      target: userId,
      run: (req) => operator.mintCompCode(parseInput(AdminUserId, req.params.id, 'id'), parseInput(AdminCompCodeBody, req.body, 'body')),
      status: 201,
    }),
  );

  router.post(
    '/admin/users/:id/sessions/revoke',
    audited(audit, log, { action: 'admin.sessions.revoke', gate: adminsAndOwners, target: userId, run: (req) => operator.revokeSessions(parseInput(AdminUserId, req.params.id, 'id')) }),
  );

  router.post(
    '/admin/users/:id/tier',
    audited(audit, log, {
      action: 'admin.users.set-tier',
      gate: adminsAndOwners,
      target: userId,
      run: (req, caller) => operator.setTier(parseInput(AdminUserId, req.params.id, 'id'), parseInput(AdminSetTierBody, req.body, 'body'), caller.userId),
    }),
  );

  router.get(
    '/admin/access-codes',
    audited(audit, log, { action: 'admin.access-codes.list', gate: adminsAndOwners, run: (req) => operator.listAccessCodes(parseInput(AdminAccessCodesQuery, req.query, 'query')) }),
  );

  router.get(
    '/admin/audit-log',
    audited(audit, log, { action: 'admin.audit-log.read', gate: ownersOnly, run: (req) => admin.auditLog(parseInput(AuditLogQuery, req.query, 'query')) }),
  );

  return router;
}
