import {
  AdminAccessCode,
  AdminAccessCodePage,
  AdminAccessCodesQuery,
  AdminCompCodeBody,
  AdminFunnel,
  AdminSetTierBody,
  AdminUser,
  AdminUserDetail,
  AdminUserPage,
  AdminUsersQuery,
  AuditEntry,
  AuditLogPage,
  AuditLogQuery,
  CompCodeMinted,
  FunnelQuery,
  MetricsExport,
  MetricsExportQuery,
  MetricsSinceQuery,
  OnboardingFunnel,
  RevenueMetrics,
  TelemetryReceived,
  TelemetryRecord,
  UsageByPack,
  UsageByUser,
  UsageByUserQuery,
  UsageDashboard,
  UsageHistoryQuery,
  UsageLimitsBody,
  UsageLimitsSetting,
  UsageMetrics,
  UsageMonth,
  UsageQuery,
  UsageSummary,
  UserJourneys,
  UserJourneysQuery,
  UserSessionsRevoked,
  UserTierSet,
} from '@svc/contracts';
import {
  componentSchemas,
  dataResponse,
  errorResponse,
  fromZod,
  jsonBody,
  pathParameter,
  queryParameters,
  string,
  uuid,
  type OpenApiFragment,
} from '@svc/openapi';
import { z, type ZodType } from 'zod';

const pageParameters = {
  limit: 'Page size, 1-200 (default 50).',
  cursor: 'The `next_cursor` of the previous page (cursor pagination).',
  offset: 'Rows to skip (offset pagination, at most 100,000); not with `cursor`.',
};
const notAdmin = errorResponse('`PERMISSION_DENIED`: the caller is not a platform admin or owner; no audit row is written.');
const badQuery = errorResponse('`VALIDATION_FAILED`: a malformed or unknown query parameter (`details.field`).');

/** An operator's change to one user (`/admin/users/{id}/…`): the same parameter and refusals each time. */
function operatorAction(op: { operationId: string; summary: string; description: string; body?: ZodType; status: 200 | 201; answer: ReturnType<typeof dataResponse>; invalid: string }) {
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: ['Admin'],
    parameters: [pathParameter('id', uuid, 'The user id.')],
    ...(op.body ? { requestBody: jsonBody(fromZod(op.body)) } : {}),
    responses: {
      [op.status]: op.answer,
      400: errorResponse(`\`VALIDATION_FAILED\`: ${op.invalid}.`),
      403: notAdmin,
      404: errorResponse('`NOT_FOUND`: no such user.'),
    },
  };
}

/** The admin area: the CLI's anonymous telemetry and the usage read model. */
export const adminOpenApi: OpenApiFragment = {
  service: 'admin',
  tags: [
    { name: 'Telemetry', description: 'Anonymous, opt-in usage reports of the command-line client.' },
    { name: 'Admin', description: 'The platform\'s users and the audit log, for platform admins and owners; every request is audited.' },
    { name: 'Metrics', description: 'Onboarding, revenue, usage and journeys from the read models events keep; platform admins and owners, every request audited.' },
    { name: 'Usage', description: 'What the caller\'s active tenant used this month, against its tier\'s quotas; counters roll over monthly (UTC).' },
  ],
  schemas: componentSchemas(UsageSummary, UsageDashboard, AdminUser, AuditEntry, AdminAccessCode, UsageMonth),
  paths: {
    '/api/v1/telemetry': {
      post: {
        operationId: 'recordTelemetry',
        summary: 'Report one CLI run (anonymous)',
        description: 'Nothing about the sender is kept, even when the request carries credentials.',
        tags: ['Telemetry'],
        requestBody: jsonBody(fromZod(TelemetryRecord)),
        responses: {
          200: dataResponse('Recorded.', TelemetryReceived),
          400: errorResponse('`VALIDATION_FAILED`: a missing, malformed or unknown field (`details.field`).'),
        },
      },
    },
    '/api/v1/admin/users': {
      get: {
        operationId: 'listAdminUsers',
        summary: 'Users, newest first',
        tags: ['Admin'],
        parameters: queryParameters(AdminUsersQuery, { tier: 'Only users on this tier.', referral: 'Only users whose access code had this cohort.', created_after: 'Only users registered after this instant.', ...pageParameters }),
        responses: { 200: dataResponse('A page; `next_cursor` is null on the last.', AdminUserPage), 400: badQuery, 403: notAdmin },
      },
    },
    '/api/v1/admin/users/{id}': {
      get: {
        operationId: 'getAdminUser',
        summary: 'One user, with subscription and recent billing events',
        tags: ['Admin'],
        parameters: [pathParameter('id', uuid, 'The user id.')],
        responses: {
          200: dataResponse(
            'The user; the redeemed access code as a keyed digest only (null for the platform owner, bootstrapped without one).',
            AdminUserDetail,
          ),
          400: errorResponse('`VALIDATION_FAILED`: not a user id.'),
          403: notAdmin,
          404: errorResponse('`NOT_FOUND`: no such user.'),
        },
      },
    },
    '/api/v1/admin/users/{id}/access-codes': {
      post: operatorAction({
        operationId: 'mintCompCode',
        summary: 'Mint one comp code for a user',
        description: 'The code literal is in this answer only: identity keeps a keyed digest of it, and it is never logged or shown again.',
        body: AdminCompCodeBody,
        status: 201,
        answer: dataResponse(
          'The code, once.',
          CompCodeMinted,
        ),
        invalid: 'not a user id, or a malformed body (`expires_at` must lie ahead)',
      }),
    },
    '/api/v1/admin/users/{id}/sessions/revoke': {
      post: operatorAction({
        operationId: 'revokeUserSessions',
        summary: 'End every session of a user',
        description: 'Every refresh session ends and the access tokens issued under them are refused from this answer on.',
        status: 200,
        answer: dataResponse('How many sessions ended.', UserSessionsRevoked),
        invalid: 'not a user id',
      }),
    },
    '/api/v1/admin/users/{id}/tier': {
      post: operatorAction({
        operationId: 'setUserTier',
        summary: "Change a user's tier by hand",
        description: 'The change stands whether or not the notification e-mail could be requested (`email_requested`).',
        body: AdminSetTierBody,
        status: 200,
        answer: dataResponse('The tier now and before.', UserTierSet),
        invalid: 'not a user id, an unknown tier or no reason',
      }),
    },
    '/api/v1/admin/access-codes': {
      get: {
        operationId: 'listAdminAccessCodes',
        summary: 'Access codes, newest first, without their literals',
        tags: ['Admin'],
        parameters: queryParameters(AdminAccessCodesQuery, {
          kind: 'Only codes of this kind (`standard`, `comp`, `registration`).',
          redemption_status: '`redeemed` (used at least once) or `unredeemed`.',
          referral: 'Only codes of this cohort.',
          ...pageParameters,
        }),
        responses: {
          200: dataResponse('A page; `next_cursor` is null on the last.', AdminAccessCodePage),
          400: badQuery,
          403: notAdmin,
        },
      },
    },
    '/api/v1/admin/audit-log': {
      get: {
        operationId: 'listAuditLog',
        summary: 'The audit log, newest first (owners)',
        tags: ['Admin'],
        parameters: queryParameters(AuditLogQuery, { actor_id: 'Only this actor\'s requests.', action: 'Only this action (`admin.users.list`, …).', since: 'Only rows after this instant.', ...pageParameters }),
        responses: {
          200: dataResponse('A page; `next_cursor` is null on the last.', AuditLogPage),
          400: badQuery,
          403: errorResponse('`PERMISSION_DENIED`: the caller is not a platform owner; no audit row is written.'),
        },
      },
    },
    '/api/v1/metrics/onboarding': {
      get: {
        operationId: 'getOnboardingFunnel',
        summary: 'Onboarding funnel of the users registered since',
        tags: ['Metrics'],
        parameters: queryParameters(MetricsSinceQuery, { since: 'Only users registered from this instant on (default: all).' }),
        responses: {
          200: dataResponse('Steps signup, access_code_redeemed, developer_activated, pack_created, command_executed; `conversion_pct` of signups.', OnboardingFunnel),
          400: badQuery,
          403: notAdmin,
        },
      },
    },
    '/api/v1/metrics/revenue': {
      get: {
        operationId: 'getRevenue',
        summary: 'Monthly recurring revenue and recent billing events',
        tags: ['Metrics'],
        responses: {
          200: dataResponse(
            '`mrr_cents` sums live subscriptions (active, past_due).',
            RevenueMetrics,
          ),
          400: badQuery,
          403: notAdmin,
        },
      },
    },
    '/api/v1/metrics/usage': {
      get: {
        operationId: 'getUsageMetrics',
        summary: 'Command runs since',
        tags: ['Metrics'],
        parameters: queryParameters(MetricsSinceQuery, { since: 'Only runs from this instant on (default: all).' }),
        responses: { 200: dataResponse('Runs, distinct users, failures and timeouts, mean duration.', UsageMetrics), 400: badQuery, 403: notAdmin },
      },
    },
    '/api/v1/metrics/user-journeys': {
      get: {
        operationId: 'getUserJourneys',
        summary: 'Users with their latest events, newest users first',
        tags: ['Metrics'],
        parameters: queryParameters(UserJourneysQuery, { limit: pageParameters.limit, offset: 'Users to skip (at most 100,000).' }),
        responses: {
          200: dataResponse(
            'Up to 20 latest events per user; `time_to_first_command_ms` is null before a first run.',
            UserJourneys,
          ),
          400: badQuery,
          403: notAdmin,
        },
      },
    },
    '/api/v1/metrics/export': {
      get: {
        operationId: 'exportMetricEvents',
        summary: 'Every event since, streamed as CSV (default) or JSON',
        tags: ['Metrics'],
        parameters: queryParameters(MetricsExportQuery, { format: '`csv` (a download) or `json`.', since: 'Only events from this instant on (default: all).' }),
        responses: {
          200: {
            description: 'Columns id, tenant_id, user_id, event_type, event_data (JSON text), duration_ms, created_at; oldest first.',
            content: {
              'text/csv': { schema: string() },
              'application/json': { schema: fromZod(MetricsExport, 'output') },
            },
          },
          400: badQuery,
          403: notAdmin,
        },
      },
    },
    '/api/v1/admin/metrics/funnel': {
      get: {
        operationId: 'getAdminFunnel',
        summary: 'Checkouts, registrations and first commands per day or week',
        tags: ['Metrics'],
        parameters: queryParameters(FunnelQuery, { interval: '`day` (default) or `week` (weeks start on Monday, UTC).', since: 'From this instant on (default: 90 days ago).' }),
        responses: {
          200: dataResponse(
            'Buckets with at least one event, oldest first.',
            AdminFunnel,
          ),
          400: badQuery,
          403: notAdmin,
        },
      },
    },
    '/api/v1/usage': {
      get: {
        operationId: 'getUsage',
        summary: 'This month\'s usage of the active tenant',
        tags: ['Usage'],
        parameters: queryParameters(UsageQuery, { view: '`summary` (default): the first form; `dashboard`: the dashboard form.' }),
        responses: {
          200: dataResponse('`UsageSummary`, or `UsageDashboard` with `view=dashboard`.', z.union([UsageSummary, UsageDashboard])),
          400: badQuery,
        },
      },
    },
    '/api/v1/usage/limits': {
      put: {
        operationId: 'putUsageLimits',
        summary: 'Turn hard limits on or off for the active tenant (its owner or an admin of it)',
        description: 'Soft by default: past a quota, a warning and at most one e-mail a day, runs go on. With `hard: true`, a tenant past a quota has its runs refused with `USAGE_LIMIT_EXCEEDED` (429) until the month ends, the plan changes or hard limits are turned off. Only the enterprise tier may turn them on; any tier may turn them off.',
        tags: ['Usage'],
        requestBody: jsonBody(fromZod(UsageLimitsBody)),
        responses: {
          200: dataResponse('The setting now.', UsageLimitsSetting),
          400: errorResponse('`VALIDATION_FAILED`: the body is not `{hard: boolean}`.'),
          403: errorResponse("`PERMISSION_DENIED`: the caller is not the tenant's owner or an admin of it. `HARD_LIMITS_ENTERPRISE_ONLY`: `hard: true` from a tier other than enterprise."),
        },
      },
    },
    '/api/v1/usage/history': {
      get: {
        operationId: 'getUsageHistory',
        summary: 'Usage month by month',
        tags: ['Usage'],
        parameters: queryParameters(UsageHistoryQuery, { months: 'How many months, the current one included (1-24, default 3).' }),
        responses: { 200: dataResponse('One entry per month, the oldest first.', z.array(UsageMonth)), 400: badQuery },
      },
    },
    '/api/v1/usage/by-pack': {
      get: {
        operationId: 'getUsageByPack',
        summary: 'This month\'s runs and LLM calls per pack',
        description:
          'One entry per pack, `@<namespace>/<name>`, with its runs per version and the LLM calls its commands reported (`llm_requests` counts calls made with the user\'s own provider key too, whose tokens are not the platform\'s). Runs counted before events named their pack are listed under the namespace alone (no `@`), with no versions.',
        tags: ['Usage'],
        responses: {
          200: dataResponse(
            'Most used first.',
            UsageByPack,
          ),
        },
      },
    },
    '/api/v1/usage/by-user': {
      get: {
        operationId: 'getUsageByUser',
        summary: 'This month\'s runs per user (platform admins)',
        tags: ['Usage'],
        parameters: queryParameters(UsageByUserQuery, { tenant_id: 'Only this tenant\'s users.' }),
        responses: {
          200: dataResponse('Most active first.', UsageByUser),
          400: badQuery,
          403: errorResponse('`PERMISSION_DENIED`: the caller is not a platform admin or owner.'),
        },
      },
    },
  },
};
