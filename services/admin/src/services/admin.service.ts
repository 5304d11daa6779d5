import type { AdminUserDetail, AdminUserPage, AuditLogPage } from '@svc/contracts';
import type { z } from 'zod';
import type { AdminUsersQuery, AuditLogQuery } from '@svc/contracts';
import { NotFoundError } from '@svc/core';
import type { Db } from '@svc/db';
import { keyedDigest } from '../audit/redact.js';
import { decodeCursor, encodeCursor } from '../http/page.js';
import { AdminUserRepository, type AdminUserView } from '../repositories/admin-user.repository.js';
import { AuditRepository } from '../repositories/audit.repository.js';
import type { LiveSubscriptions } from './live-subscriptions.js';

const RECENT_BILLING_EVENTS = 20;

/** A user as the admin endpoints answer it: `payment_customer_id_present`, never the id. */
function userRecord(row: AdminUserView) {
  return {
    user_id: row.userId,
    tenant_id: row.tenantId,
    email: row.email,
    tier: row.tier,
    cohort: row.cohort,
    created_at: row.createdAt.toISOString(),
    subscription_status: row.subscription?.status ?? null,
    payment_customer_id_present: row.subscription !== null,
  };
}

/** The admin area's reads: users from the read model events keep, and the audit log. */
export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly digestKey: string,
    private readonly live: LiveSubscriptions,
  ) {}

  async listUsers(query: z.infer<typeof AdminUsersQuery>): Promise<AdminUserPage> {
    const start = query.cursor ? { after: ((c) => ({ createdAt: c.at, userId: c.id }))(decodeCursor(query.cursor)) } : { offset: query.offset ?? 0 };
    const filters = { tier: query.tier, cohort: query.referral, createdAfter: query.created_after ? new Date(query.created_after) : undefined };
    const { rows, more } = await new AdminUserRepository(this.db).list(filters, start, query.limit);
    const last = rows.at(-1);
    return { users: rows.map(userRecord), next_cursor: more && last ? encodeCursor(last.createdAt, last.userId) : null };
  }

  /** The subscription is billing's live answer (kept 60 s), or the read model's when billing does not answer. */
  async userDetail(userId: string): Promise<AdminUserDetail> {
    const users = new AdminUserRepository(this.db);
    const row = await users.find(userId);
    if (!row) throw new NotFoundError('No such user', { user_id: userId });
    const [events, live] = await Promise.all([users.recentBillingEvents(userId, RECENT_BILLING_EVENTS), this.live.of(userId)]);
    const subscription =
      live === undefined
        ? {
            tier: row.subscription?.tier ?? row.tier,
            status: row.subscription?.status ?? null,
            payment_issue: row.subscription?.paymentIssue ?? false,
            current_period_end: row.subscription?.currentPeriodEnd ?? null,
            monthly_price_cents: row.subscription?.monthlyPriceCents ?? 0,
            source: 'read_model' as const,
          }
        : { tier: live?.tier ?? row.tier, status: live?.status ?? null, payment_issue: live?.payment_issue ?? false, current_period_end: live?.current_period_end ?? null, monthly_price_cents: live?.monthly_price_cents ?? 0, source: 'billing' as const };
    return {
      user: { ...userRecord(row), subscription_status: subscription.status, payment_customer_id_present: subscription.status !== null || row.subscription !== null },
      access_code: row.accessCodeId === null ? null : { digest: keyedDigest(this.digestKey, row.accessCodeId), cohort: row.cohort },
      subscription,
      recent_billing_events: events.map((e) => ({ id: e.id, type: e.type, amount_cents: e.amountCents, occurred_at: e.occurredAt.toISOString() })),
    };
  }

  async auditLog(query: z.infer<typeof AuditLogQuery>): Promise<AuditLogPage> {
    const start = query.cursor ? { after: decodeCursor(query.cursor) } : { offset: query.offset ?? 0 };
    const filters = { actorId: query.actor_id, action: query.action, since: query.since ? new Date(query.since) : undefined };
    const { rows, more } = await new AuditRepository(this.db).list(filters, start, query.limit);
    const last = rows.at(-1);
    return {
      entries: rows.map((r) => ({ id: r.id, at: r.at.toISOString(), actor_id: r.actorId, actor_role: r.actorRole, action: r.action, target: r.target, outcome: r.outcome, correlation_id: r.correlationId })),
      next_cursor: more && last ? encodeCursor(last.at, last.id) : null,
    };
  }
}
