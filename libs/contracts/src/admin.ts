import { z } from 'zod';
import { ACCESS_CODE_KINDS, displayName, TIER_VALUES } from './identity.js';

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
