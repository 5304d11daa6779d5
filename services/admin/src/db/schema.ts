import { bigint, boolean, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { inboxTable, outboxTable } from '@svc/db';

export const admin = pgSchema('admin');

/**
 * Anonymous CLI telemetry as received: no user, tenant or address is kept with a record.
 * Metrics read models will be built from it here.
 */
export const telemetry = admin.table(
  'telemetry',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    command: text('command').notNull(),
    durationMs: integer('duration_ms').notNull(),
    success: boolean('success').notNull(),
    pythonVersion: text('python_version'),
    os: text('os').notNull(),
    cliVersion: text('cli_version').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('telemetry_received_at_idx').on(t.receivedAt)],
);

/** Events this service has handled, by id: each usage event is counted once however often it arrives. */
export const inbox = inboxTable(admin);
/** Quota warnings and their e-mails, written with the counters that crossed the quota. */
export const outbox = outboxTable(admin);

/**
 * Command runs per month (`YYYY-MM`, UTC), tenant, user, pack (`@<namespace>/<name>`) and pack
 * version, as `command.executed` reports them. A new month starts new rows: counters roll over by
 * key. Rows counted before events named their pack are keyed by the command's namespace, version ''.
 */
export const usageCommands = admin.table(
  'usage_commands',
  {
    period: text('period').notNull(),
    tenantId: text('tenant_id').notNull(),
    userId: text('user_id').notNull(),
    pack: text('pack').notNull(),
    version: text('version').notNull().default(''),
    executed: integer('commands_executed').notNull().default(0),
    succeeded: integer('commands_succeeded').notNull().default(0),
    failed: integer('commands_failed').notNull().default(0),
    executionMs: bigint('execution_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.period, t.tenantId, t.userId, t.pack, t.version] }), index('usage_commands_tenant_idx').on(t.tenantId, t.period)],
);

/**
 * LLM tokens of a month that packs reported through `ctx.usage.llm`, per tenant, user, pack, pack
 * version and model; `llm_requests` counts the reports, those made with the user's own key (no
 * platform tokens) included.
 */
export const usageLlm = admin.table(
  'usage_llm',
  {
    period: text('period').notNull(),
    tenantId: text('tenant_id').notNull(),
    userId: text('user_id').notNull(),
    pack: text('pack').notNull(),
    version: text('version').notNull().default(''),
    model: text('model').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    requests: integer('llm_requests').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.period, t.tenantId, t.userId, t.pack, t.version, t.model] }), index('usage_llm_tenant_idx').on(t.tenantId, t.period)],
);

/**
 * Runs whose start or end the usage read model has seen and not yet both: `running` true for a
 * run going on (its `command.started` came first), false for an end that came before its start
 * (dropped when the start arrives, so that a late start never counts).
 */
export const usageRuns = admin.table(
  'usage_runs',
  {
    taskId: text('task_id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    running: boolean('running').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('usage_runs_tenant_idx').on(t.tenantId, t.running)],
);

/** The most runs of a tenant going on at once in a month. */
export const usageConcurrencyMonths = admin.table(
  'usage_concurrency_months',
  {
    period: text('period').notNull(),
    tenantId: text('tenant_id').notNull(),
    peak: integer('peak_concurrent_jobs').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.period, t.tenantId] })],
);

/** Tenants whose quotas are hard: past one, their runs are refused until the month ends. */
export const usageHardLimits = admin.table('usage_hard_limits', {
  tenantId: text('tenant_id').primaryKey(),
  /** Who turned them on (a user of the tenant with the owner or admin role). */
  enabledBy: text('enabled_by').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull(),
});

/** The day a tenant was last told about a quota it went past: at most one notice a day per tenant and metric. */
export const usageNotices = admin.table(
  'usage_notices',
  {
    tenantId: text('tenant_id').notNull(),
    metric: text('metric').notNull(),
    day: text('day').notNull(),
    used: bigint('used', { mode: 'number' }).notNull(),
    limit: bigint('quota', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.metric, t.day] })],
);

/** A tenant's storage as its latest `storage.changed` says (an older version never overwrites a newer one). */
export const usageStorage = admin.table('usage_storage', {
  tenantId: text('tenant_id').primaryKey(),
  bytes: bigint('storage_bytes', { mode: 'number' }).notNull(),
  keys: integer('storage_keys').notNull(),
  version: integer('version').notNull(),
});

/** Storage writes and removals per month and tenant (one per `storage.changed`), and the month's largest size. */
export const usageStorageMonths = admin.table(
  'usage_storage_months',
  {
    period: text('period').notNull(),
    tenantId: text('tenant_id').notNull(),
    operations: integer('storage_operations').notNull().default(0),
    peakBytes: bigint('peak_storage_bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.period, t.tenantId] })],
);

/**
 * The users the admin area lists, as `user.registered` and `user.tier.changed` describe them.
 * The access code is kept as the id identity gave it, never its literal.
 */
export const adminUsers = admin.table(
  'users',
  {
    userId: text('user_id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    email: text('email').notNull(),
    tier: text('tier').notNull(),
    cohort: text('cohort').notNull(),
    /** Null for the platform's owner, bootstrapped at start-up without a code. */
    accessCodeId: text('access_code_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Milestones of the onboarding funnel and the journey, from the events that mark them. */
    developerAt: timestamp('developer_at', { withTimezone: true, mode: 'date' }),
    firstPackAt: timestamp('first_pack_at', { withTimezone: true, mode: 'date' }),
    firstCommandAt: timestamp('first_command_at', { withTimezone: true, mode: 'date' }),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true, mode: 'date' }),
    eventsCount: integer('events_count').notNull().default(0),
  },
  (t) => [index('users_created_idx').on(t.createdAt, t.userId), index('users_tier_idx').on(t.tier, t.createdAt)],
);

/**
 * One row per admin or metrics request, written before the answer. `target` names a user or
 * tenant id, or a keyed digest (`hmac:<hex>`) of anything secret or personal, never a literal.
 */
export const auditLog = admin.table(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorId: text('actor_id').notNull(),
    actorRole: text('actor_role').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome').notNull(),
    correlationId: text('correlation_id'),
  },
  (t) => [index('audit_log_at_idx').on(t.at, t.id), index('audit_log_actor_idx').on(t.actorId, t.at)],
);

/** Billing facts as `billing.event.recorded` reports them (revenue, a user's recent events). */
export const billingEvents = admin.table(
  'billing_events',
  {
    id: text('billing_event_id').primaryKey(),
    type: text('type').notNull(),
    userId: text('user_id'),
    amountCents: integer('amount_cents'),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('billing_events_user_idx').on(t.userId, t.occurredAt), index('billing_events_at_idx').on(t.occurredAt)],
);

/**
 * Every platform event the metrics read (registrations, pack publications, command runs,
 * billing facts), one row per event id, in the columns the export answers. `event_data` holds
 * nothing personal: no e-mail, code or customer id.
 */
export const activity = admin.table(
  'activity',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id'),
    userId: text('user_id'),
    eventType: text('event_type').notNull(),
    eventData: jsonb('event_data').$type<Record<string, unknown>>().notNull(),
    durationMs: integer('duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('activity_created_idx').on(t.createdAt, t.id), index('activity_user_idx').on(t.userId, t.createdAt), index('activity_type_idx').on(t.eventType, t.createdAt)],
);

/** The admin funnel per UTC day, counted as the events arrive, so that reading it is a range of at most a few hundred rows. */
export const funnelDays = admin.table('funnel_days', {
  day: text('day').primaryKey(),
  checkoutStarted: integer('checkout_started').notNull().default(0),
  checkoutCompleted: integer('checkout_completed').notNull().default(0),
  registered: integer('registered').notNull().default(0),
  firstCommand: integer('first_command').notNull().default(0),
});

/**
 * Each user's subscription as billing's latest `subscription.changed` says (an earlier one
 * arriving late never overwrites it). A table of its own, so that a change that arrives before
 * the user's registration is kept all the same.
 */
export const subscriptions = admin.table(
  'subscriptions',
  {
    userId: text('user_id').primaryKey(),
    tier: text('tier').notNull(),
    status: text('status'),
    paymentIssue: boolean('payment_issue').notNull(),
    currentPeriodEnd: text('current_period_end'),
    monthlyPriceCents: integer('monthly_price_cents').notNull(),
    occurredAt: text('occurred_at').notNull(),
  },
  (t) => [index('subscriptions_status_idx').on(t.status)],
);
