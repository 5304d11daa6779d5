/**
 * Names of the facts published on the bus, `<entity>.<past-verb>`. Payload schemas live
 * beside their names so publishers and subscribers share one definition.
 */
import { z } from 'zod';

/**
 * An account exists: a registration with an access code, or the platform's owner, whom identity
 * bootstraps at start-up (`access_code_id` null, cohort `none`) and announces at every start under
 * the same event id, so that an installation whose owner predates the announcement lists it too.
 */
export const UserRegistered = z.object({
  user_id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  tier: z.string(),
  access_code_id: z.string().nullable(),
  cohort: z.string(),
});

/** The cohort of an account that registered with no access code (the bootstrapped owner). */
export const NO_COHORT = 'none';

export const PasswordChanged = z.object({ user_id: z.string() });

/** A user turned developer mode on (created or joined an organization) for the first time. */
export const DeveloperModeEnabled = z.object({ user_id: z.string(), organization_id: z.string() });


/** Emitted by the registry when a new version of a pack is stored (not yet active). */
export const PackPublished = z.object({
  pack_id: z.string(),
  version_id: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  namespace: z.string(),
  name: z.string(),
  version: z.string(),
  visibility: z.string(),
  commands: z.array(z.string()),
});

/**
 * Emitted by the registry when a pack version becomes active (first install, upgrade or
 * rollback); `tenant_id` owns the pack. Workers drop what they hold of `previous_version`.
 */
/** A schedule the installed version proposes in its `pack.yaml` (execution creates it paused for the tenant). */
export const ProposedScheduleEvent = z.object({
  command: z.string(),
  cron: z.string(),
  timezone: z.string(),
  input: z.record(z.string(), z.unknown()),
  description: z.string(),
});

export const PackInstalled = z.object({
  pack_id: z.string(),
  tenant_id: z.string(),
  namespace: z.string(),
  name: z.string(),
  version: z.string(),
  commands: z.array(z.string()),
  version_id: z.string(),
  user_id: z.string(),
  previous_version: z.string().nullable(),
  visibility: z.string(),
  /** The schedules the version proposes; absent from events of publishers that predate them. */
  schedules: z.array(ProposedScheduleEvent).optional(),
});

/** A tenant removed its installation of a pack it does not own; the pack stays published. */
export const PackInstallationRemoved = z.object({
  pack_id: z.string(),
  /** The tenant whose installation it is. */
  tenant_id: z.string(),
  owner_tenant_id: z.string(),
  user_id: z.string(),
  namespace: z.string(),
  name: z.string(),
});

/**
 * A tenant that does not own a pack installed it, or moved its installation to another version
 * (`pinned` false: it follows the pack's active version). `version_id` is the version its runs
 * now use. The owning tenant's own installs are `pack.installed`.
 */
export const PackInstallationChanged = PackInstallationRemoved.extend({
  version: z.string(),
  version_id: z.string(),
  pinned: z.boolean(),
  /** The version the installation ran before, null when it is new. */
  previous_version: z.string().nullable(),
  /** The schedules the version it now runs proposes. */
  schedules: z.array(ProposedScheduleEvent).optional(),
});

/** The pack and all its versions are gone; workers stop offering `commands` at once. */
export const PackUninstalled = z.object({
  pack_id: z.string(),
  tenant_id: z.string(),
  namespace: z.string(),
  name: z.string(),
  user_id: z.string(),
  /** The version that was active, if any. */
  version: z.string().nullable(),
  commands: z.array(z.string()),
});

/** Batched by the gateway: when each API key was last seen, so identity writes once per batch. */
export const ApiKeysUsed = z.object({ keys: z.array(z.object({ id: z.string(), at: z.string() })) });

/** A task was cancelled; every worker stops it if it runs there. */
export const TaskRevoked = z.object({ task_id: z.string(), tenant_id: z.string(), user_id: z.string() });

/**
 * A tenant's storage usage after a write, a delete or an expiry sweep: absolute totals, so a
 * consumer that sees an event twice or misses one still ends up right. `version` grows with
 * every change of the tenant; keep the highest one seen, as events may arrive out of order.
 */
export const StorageChanged = z.object({
  tenant_id: z.string(),
  storage_bytes: z.number().int().min(0),
  storage_keys: z.number().int().min(0),
  version: z.number().int().min(1),
});

/** A tenant was granted, or lost, access to an organization pack. */
export const PackGrantChanged = z.object({
  pack_id: z.string(),
  /** The owning tenant. */
  tenant_id: z.string(),
  namespace: z.string(),
  name: z.string(),
  grantee_tenant_id: z.string(),
  granted: z.boolean(),
  user_id: z.string(),
});

/**
 * Every run that ended, synchronous or not (a synchronous run that succeeded has no row, and
 * this is its only trace). Its event id is derived from `task_id`: a run announced twice (a
 * worker that died before acknowledging its job) carries the same id both times.
 */
/**
 * The pack a run's command belongs to, on every event of a run: `@<namespace>/<name>` and the
 * version that ran. Usage is counted per pack by them; they are absent from the events of a
 * worker older than these fields (or a task row made before them), which usage counts under the
 * command's namespace as it used to.
 */
const RunPack = {
  pack: z.string().optional(),
  version: z.string().optional(),
};

export const CommandExecuted = z.object({
  /** `<namespace>.<command>`. */
  command: z.string(),
  ...RunPack,
  tenant_id: z.string(),
  user_id: z.string(),
  duration_ms: z.number(),
  task_id: z.string(),
  status: z.enum(['success', 'failure', 'timeout']),
});

/**
 * A run began in a worker: with the run's `command.executed` (or `task.revoked`), the usage read
 * model's count of a tenant's jobs running now and the month's peak. Published once per task
 * (a retry or a redelivery repeats the same event id).
 */
export const CommandStarted = z.object({
  /** `<namespace>.<command>`. */
  command: z.string(),
  ...RunPack,
  tenant_id: z.string(),
  user_id: z.string(),
  task_id: z.string(),
});

/** The monthly quotas a tenant can go past (`GET /usage` `limits`). */
export const QUOTA_METRICS = ['commands_per_month', 'storage_bytes', 'llm_tokens_per_month'] as const;

/**
 * A tenant went past one of its tier's quotas: a warning, processing goes on. Sent at most once a
 * day per tenant and metric, with the e-mail to the tenant's owner.
 */
export const UsageQuotaExceeded = z.object({
  tenant_id: z.string(),
  metric: z.enum(QUOTA_METRICS),
  used: z.number().int().min(0),
  limit: z.number().int().min(0),
  /** `YYYY-MM`. */
  period: z.string(),
});

/** Bounds of one `ctx.usage.llm` report: a model name as providers spell them, and token counts a single call can reach. */
export const LLM_MODEL_MAX = 100;
export const LLM_TOKENS_PER_REPORT_MAX = 10_000_000;

/**
 * Tokens a pack's command reports through `ctx.usage.llm` for one call to a language model, for
 * the caller's tenant. Counted by model and pack in the usage read model, once per event id.
 */
export const LlmUsageReported = z.object({
  /** `<namespace>.<command>`, as in `command.executed`. */
  command: z.string(),
  ...RunPack,
  /**
   * The call went to the user's own provider key (bring your own key, Part 2 Limits): counted as
   * a request, with no platform tokens. Absent is false.
   */
  byok: z.boolean().optional(),
  tenant_id: z.string(),
  user_id: z.string(),
  model: z.string().min(1).max(LLM_MODEL_MAX),
  input_tokens: z.number().int().min(0).max(LLM_TOKENS_PER_REPORT_MAX),
  output_tokens: z.number().int().min(0).max(LLM_TOKENS_PER_REPORT_MAX),
});

/**
 * The end of a task whose caller holds its id (asked for async, or waited past the sync limit):
 * `task.completed` for a success, `task.failed` for a failure or a timeout, with its error.
 */
export const TaskEnded = CommandExecuted.extend({
  error: z.object({ type: z.string(), message: z.string() }).optional(),
});
