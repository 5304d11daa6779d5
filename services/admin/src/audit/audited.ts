import type { Request, RequestHandler, Response } from 'express';
import { PermissionError, currentCorrelationId, ok, type Logger } from '@svc/core';
import { requireIdentity, requirePlatformAdmin, type Identity } from '@svc/auth';
import type { AuditService } from '../services/audit.service.js';

/** Who may pass: platform admins and owners, or owners alone. */
export type AuditGate = (req: Request) => Identity;

export const adminsAndOwners: AuditGate = requirePlatformAdmin;

export const ownersOnly: AuditGate = (req) => {
  const caller = requireIdentity(req);
  if (caller.role !== 'owner') throw new PermissionError('Owner role required', { reason: 'platform_owner_required' });
  return caller;
};

export interface AuditedRoute {
  /** What the row names the request (`admin.users.list`). */
  action: string;
  gate: AuditGate;
  /** What the request is about: an id, or a keyed digest of anything secret or personal; never a literal. */
  target?: (req: Request) => string | null;
  run: (req: Request, caller: Identity) => Promise<unknown>;
  /** The status of a JSON answer (201 for what the request created); 200 unless said. */
  status?: number;
  /** How the result is answered when it is not the JSON envelope (a streamed export). */
  respond?: (res: Response, result: unknown) => Promise<void>;
}

/**
 * An admin or metrics handler that writes one audit row (actor, action, target, outcome,
 * correlation id) before it answers, success or error. The gate runs first: a caller it
 * refuses (401, 403) gets no row.
 */
export function audited(audit: AuditService, log: Logger, route: AuditedRoute): RequestHandler {
  return async (req: Request, res: Response) => {
    const caller = route.gate(req);
    const row = { actorId: caller.userId, actorRole: caller.role, action: route.action, target: safeTarget(route, req), correlationId: currentCorrelationId() ?? null };
    let data: unknown;
    try {
      data = await route.run(req, caller);
    } catch (err) {
      await audit.record({ ...row, outcome: (err as { code?: string }).code ?? 'INTERNAL_ERROR' });
      throw err;
    }
    await audit.record({ ...row, outcome: 'success' });
    log.info('admin request', { action: route.action, actor_id: caller.userId });
    if (route.respond) await route.respond(res, data);
    else res.status(route.status ?? 200).json(ok(data));
  };
}

function safeTarget(route: AuditedRoute, req: Request): string | null {
  const target = route.target?.(req) ?? null;
  // An id the client sent is kept only when it has the shape of one; anything else is not echoed.
  return target && /^[A-Za-z0-9:_-]{1,80}$/.test(target) ? target : target && 'malformed';
}
