/**
 * What travels between execution's two processes: the job the API puts on `exec.<queue>` and
 * the outcome a worker sends back to the API process waiting for it.
 */
import { z } from 'zod';
import { QUEUES } from '@svc/pack-sdk';
import { ephemeralQueueOf } from './bus-names.js';
import { TIER_VALUES } from './identity.js';

export const TASK_STATUSES = ['pending', 'started', 'success', 'failure', 'timeout', 'revoked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TaskError = z.object({
  type: z.string(),
  message: z.string(),
  /** Which of the MCP error kinds this is: a command, timeout, internal or cancelled failure. */
  kind: z.enum(['command', 'timeout', 'internal', 'cancelled']),
});
export type TaskError = z.infer<typeof TaskError>;

/** A task that may have no row yet (a synchronous run): what its row would be made of. */
export const UnstoredTask = z.object({
  id: z.string(),
  userId: z.string(),
  tenantId: z.string(),
  namespace: z.string(),
  command: z.string(),
  packId: z.string(),
  /** The pack's name (without its namespace), which usage is counted by; empty from an API older than it. */
  packName: z.string().default(''),
  packVersion: z.string(),
  packVersionId: z.string(),
  entry: z.string(),
  queue: z.enum(QUEUES),
  async: z.boolean(),
  input: z.unknown(),
  maxRetries: z.number().int(),
  timeoutMs: z.number().int(),
  correlationId: z.string(),
});

/** A synchronous run travels whole, so that a successful one needs no row at all. */
export const SyncRun = z.object({
  task: UnstoredTask,
  /** Epoch ms from which the caller may hold the task id: every state from then on is stored. */
  store_from: z.number(),
  attempt: z.number().int().min(1),
});
export type SyncRun = z.infer<typeof SyncRun>;

/** The ephemeral queue of an API process, where workers send the outcomes it waits for. */
export const EXECUTION_REPLIES = 'execution.replies';

/** The job put on `exec.<queue>`: the task row holds everything else, or `sync` does. */
export const ExecJob = z.object({
  task_id: z.string(),
  reply_to: ephemeralQueueOf(EXECUTION_REPLIES).optional(),
  sync: SyncRun.optional(),
  /** Whose run it is and their tier, so that a worker can hold a tenant to its share before touching the task. */
  tenant_id: z.string().optional(),
  tier: z.enum(TIER_VALUES).optional(),
  /** How many times a worker put the job back because the tenant's share was taken (it waits longer each time). */
  waits: z.number().int().min(0).optional(),
});
export type ExecJob = z.infer<typeof ExecJob>;

/** Why a synchronous run was not started: its tenant's share of the worker, or every runner, was taken. */
export const RunRefusal = z.object({
  reason: z.enum(['tenant_calls', 'tenant_runners', 'pool_full']),
  message: z.string(),
  limit: z.number().int(),
  /** Seconds to wait before trying again. */
  retry_after: z.number().int(),
});
export type RunRefusal = z.infer<typeof RunRefusal>;

/** A line a pack's code logged during a run (`ctx.log`, or its console), kept with the task for its owner. */
export const RunLogLine = z.object({ at: z.string(), level: z.string(), message: z.string() });
export type RunLogLine = z.infer<typeof RunLogLine>;

/** How a run ended, as the worker reports it to a waiting synchronous caller; `busy`: it never started (`refusal` says why). */
export const RunOutcome = z.object({
  task_id: z.string(),
  status: z.enum(['success', 'failure', 'timeout', 'revoked', 'busy']),
  result: z.unknown().optional(),
  error: TaskError.optional(),
  refusal: RunRefusal.optional(),
  duration_ms: z.number(),
  /** What the run logged, within the kept budget (`RUN_LOG_BYTES` of the worker). */
  logs: z.array(RunLogLine).optional(),
});
export type RunOutcome = z.infer<typeof RunOutcome>;

/** Longest `message` of a progress report (`ctx.progress`). */
export const PROGRESS_MESSAGE_MAX = 500;

/** How far a run is, as its command last reported it (`ctx.progress(done, total?, message?)`). */
export const TaskProgress = z.strictObject({
  done: z.number().finite().min(0),
  total: z.number().finite().positive().optional(),
  message: z.string().max(PROGRESS_MESSAGE_MAX).optional(),
});
export type TaskProgress = z.infer<typeof TaskProgress>;

/** A progress report the worker passes to the API process whose caller waits for the run. */
export const RunProgress = z.object({ task_id: z.string(), status: z.literal('progress'), progress: TaskProgress });
export type RunProgress = z.infer<typeof RunProgress>;

/** What a worker sends to an API process's reply queue: an outcome, or a report on the way to it. */
export const RunReply = z.discriminatedUnion('status', [RunOutcome, RunProgress]);
export type RunReply = z.infer<typeof RunReply>;
