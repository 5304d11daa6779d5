/**
 * Names of the facts published on the bus, `<entity>.<past-verb>`. Payload schemas live
 * beside their names so publishers and subscribers share one definition.
 */
import { z } from 'zod';

export const UserRegistered = z.object({
  user_id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  tier: z.string(),
  access_code_id: z.string(),
  cohort: z.string(),
});

export const PasswordChanged = z.object({ user_id: z.string() });


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
export const CommandExecuted = z.object({
  /** `<namespace>.<command>`. */
  command: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  duration_ms: z.number(),
  task_id: z.string(),
  status: z.enum(['success', 'failure', 'timeout']),
});

/**
 * The end of a task whose caller holds its id (asked for async, or waited past the sync limit):
 * `task.completed` for a success, `task.failed` for a failure or a timeout, with its error.
 */
export const TaskEnded = CommandExecuted.extend({
  error: z.object({ type: z.string(), message: z.string() }).optional(),
});
