import { z } from 'zod';
import { ACCESS_CODE_KINDS, displayName, TIER_VALUES } from './identity.js';
import { Timestamp } from './responses.js';

export const ADMIN_PAGE_LIMIT_MAX = 200;
export const ADMIN_PAGE_LIMIT_DEFAULT = 50;
/** Deeper than this, a cursor is the way on: an offset makes the database read every row before it. */
export const ADMIN_OFFSET_MAX = 100_000;

const limit = z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(ADMIN_PAGE_LIMIT_MAX, `must be at most ${ADMIN_PAGE_LIMIT_MAX}`).default(ADMIN_PAGE_LIMIT_DEFAULT);
const offset = z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(ADMIN_OFFSET_MAX, `must be at most ${ADMIN_OFFSET_MAX}`);
const cursor = z.string().min(1).max(512);
const timestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' });

/** Either a cursor (`cursor`, the `next_cursor` of the previous page) or an offset, never both. */
const page = { limit, cursor: cursor.optional(), offset: offset.optional() };
const oneWay = (q: { cursor?: string; offset?: number }) => q.cursor === undefined || q.offset === undefined;
const oneWayMessage = { message: 'give either cursor or offset, not both', path: ['offset'] };

/** `GET /api/v1/admin/users`. `referral` is the cohort of the access code the user registered with. */
export const AdminUsersQuery = z
  .strictObject({ tier: z.string().min(1).max(64).optional(), referral: z.string().min(1).max(64).optional(), created_after: timestamp.optional(), ...page })
  .refine(oneWay, oneWayMessage);

/** `GET /api/v1/admin/audit-log` (owners). */
export const AuditLogQuery = z
  .strictObject({ actor_id: z.string().min(1).max(64).optional(), action: z.string().min(1).max(64).optional(), since: timestamp.optional(), ...page })
  .refine(oneWay, oneWayMessage);

/** `GET /api/v1/admin/access-codes`. `referral` is the code's cohort. */
export const AdminAccessCodesQuery = z
  .strictObject({ kind: z.enum(ACCESS_CODE_KINDS).optional(), redemption_status: z.enum(['redeemed', 'unredeemed']).optional(), referral: z.string().min(1).max(64).optional(), ...page })
  .refine(oneWay, oneWayMessage);

export const AdminUserId = z.string().uuid('must be a user id');

/** `GET /api/v1/metrics/onboarding` and `/metrics/usage`: from this instant on (default: all time). */
export const MetricsSinceQuery = z.strictObject({ since: timestamp.optional() });

/** `GET /api/v1/metrics/user-journeys`: newest users first, by offset. */
export const UserJourneysQuery = z.strictObject({ limit, offset: offset.default(0) });

/** `GET /api/v1/metrics/export`. */
export const MetricsExportQuery = z.strictObject({ format: z.enum(['csv', 'json']).default('csv'), since: timestamp.optional() });

/** `GET /api/v1/admin/metrics/funnel`: buckets of a day or a week (UTC), from `since` (default 90 days ago). */
export const FunnelQuery = z.strictObject({ interval: z.enum(['day', 'week']).default('day'), since: timestamp.optional() });

/** `POST /api/v1/admin/users/{id}/access-codes`: one comp code; `expires_at` must lie ahead. */
export const AdminCompCodeBody = z.strictObject({
  tier: z.enum(TIER_VALUES),
  expires_at: timestamp.optional(),
  max_uses: z.number().int('must be an integer').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(1),
  kind: z.literal('comp'),
});

/** `POST /api/v1/admin/users/{id}/tier`: a manual change, always with the reason for it. */
export const AdminSetTierBody = z.strictObject({ tier: z.enum(TIER_VALUES), reason: displayName(500) });

const Count = z.number().int().min(0);

export const AdminUser = z.object({
  user_id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  tier: z.string(),
  cohort: z.string().meta({ description: 'The cohort of the access code the user registered with (filter `referral`).' }),
  created_at: Timestamp,
  subscription_status: z.string().nullable(),
  payment_customer_id_present: z.boolean().meta({ description: 'Whether the user has a payment customer; the id itself is never answered.' }),
}).meta({ id: 'AdminUser', description: 'A user as the admin area sees them.' });
export type AdminUser = z.infer<typeof AdminUser>;

export const AuditEntry = z.object({
  id: z.string(),
  at: Timestamp,
  actor_id: z.string(),
  actor_role: z.string(),
  action: z.string(),
  target: z.string().nullable().meta({ description: 'An id, or `hmac:<hex>` for anything secret or personal.' }),
  outcome: z.string().meta({ description: '`success`, or the error code answered.' }),
  correlation_id: z.string().nullable(),
}).meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AdminAccessCode = z.object({
  id: z.string(),
  kind: z.string().meta({ description: '`standard`, `comp` or `registration`.' }),
  tier: z.string(),
  cohort: z.string(),
  max_uses: z.number().int(),
  use_count: z.number().int(),
  is_active: z.boolean(),
  redeemed_by: z.string().nullable(),
  redeemed_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable(),
  created_at: Timestamp,
}).meta({ id: 'AdminAccessCode', description: 'An access code as the admin area lists it: never its literal.' });
export type AdminAccessCode = z.infer<typeof AdminAccessCode>;

/** What `recordTelemetry` answers. */
export const TelemetryReceived = z.object({
  received: z.literal(true),
});

/** What `listAdminUsers` answers. */
export const AdminUserPage = z.object({
  users: z.array(AdminUser),
  next_cursor: z.string().nullable(),
});
export type AdminUserPage = z.infer<typeof AdminUserPage>;

/** What `getAdminUser` answers. */
export const AdminUserDetail = z.object({
  user: AdminUser,
  access_code: z.object({
    digest: z.string(),
    cohort: z.string(),
  }).nullable(),
  subscription: z.object({
    tier: z.string(),
    status: z.string().nullable(),
    payment_issue: z.boolean(),
    current_period_end: z.string().nullable(),
    monthly_price_cents: z.number().int(),
    source: z.string().meta({ description: '`billing`: billing\'s live answer, kept 60 s; `read_model`: billing did not answer, so what its last `subscription.changed` said.' }),
  }),
  recent_billing_events: z.array(z.object({
    id: z.string(),
    type: z.string(),
    amount_cents: z.number().int().nullable(),
    occurred_at: Timestamp,
  })),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetail>;

/** What `mintCompCode` answers. */
export const CompCodeMinted = z.object({
  id: z.string(),
  code: z.string(),
  user_id: z.string(),
  kind: z.literal('comp'),
  tier: z.string(),
  cohort: z.string(),
  max_uses: z.number().int(),
  expires_at: Timestamp.nullable(),
});
export type CompCodeMinted = z.infer<typeof CompCodeMinted>;

/** What `revokeUserSessions` answers. */
export const UserSessionsRevoked = z.object({
  user_id: z.string(),
  revoked_sessions: Count,
});
export type UserSessionsRevoked = z.infer<typeof UserSessionsRevoked>;

/** What `setUserTier` answers. */
export const UserTierSet = z.object({
  user_id: z.string(),
  tier: z.string(),
  previous_tier: z.string(),
  reason: z.string(),
  email_requested: z.boolean(),
});
export type UserTierSet = z.infer<typeof UserTierSet>;

/** What `listAdminAccessCodes` answers. */
export const AdminAccessCodePage = z.object({
  access_codes: z.array(AdminAccessCode),
  next_cursor: z.string().nullable(),
});
export type AdminAccessCodePage = z.infer<typeof AdminAccessCodePage>;

/** What `listAuditLog` answers. */
export const AuditLogPage = z.object({
  entries: z.array(AuditEntry),
  next_cursor: z.string().nullable(),
});
export type AuditLogPage = z.infer<typeof AuditLogPage>;

/** What `getOnboardingFunnel` answers. */
export const OnboardingFunnel = z.object({
  funnel: z.array(z.object({
    step: z.string(),
    count: Count,
    conversion_pct: z.number(),
  })),
});
export type OnboardingFunnel = z.infer<typeof OnboardingFunnel>;

/** What `getRevenue` answers. */
export const RevenueMetrics = z.object({
  mrr_cents: Count,
  active_pro_subscribers: Count,
  recent_events: z.array(z.object({
    type: z.string(),
    data: z.record(z.string(), z.unknown()).meta({ description: 'id, user_id, amount_cents' }),
    created_at: Timestamp,
  })),
});
export type RevenueMetrics = z.infer<typeof RevenueMetrics>;

/** What `getUsageMetrics` answers. */
export const UsageMetrics = z.object({
  commands_executed: Count,
  active_users: Count,
  error_count: Count,
  avg_command_duration_ms: Count,
});
export type UsageMetrics = z.infer<typeof UsageMetrics>;

/** What `getUserJourneys` answers. */
export const UserJourneys = z.array(z.object({
  user_id: z.string(),
  email: z.string(),
  cohort: z.string(),
  subscription_tier: z.string(),
  created_at: Timestamp,
  events_count: Count,
  time_to_first_command_ms: z.number().int().nullable(),
  last_active: Timestamp,
  events: z.array(z.object({
    type: z.string(),
    created_at: Timestamp,
    duration_ms: z.number().int().nullable(),
  })),
}));
export type UserJourneys = z.infer<typeof UserJourneys>;

/** What `getAdminFunnel` answers. */
export const AdminFunnel = z.object({
  interval: z.string(),
  since: Timestamp,
  buckets: z.array(z.object({
    start: z.iso.date(),
    checkout_started: Count,
    checkout_completed: Count,
    registered: Count,
    first_command: Count,
  })),
});
export type AdminFunnel = z.infer<typeof AdminFunnel>;

/** `GET /api/v1/admin/metrics/export?format=json`: the usage events, as the CSV has them. */
export const MetricsExport = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      tenant_id: z.string().nullable(),
      user_id: z.string().nullable(),
      event_type: z.string(),
      event_data: z.string(),
      duration_ms: z.number().int().nullable(),
      created_at: Timestamp,
    }),
  ),
});
