/**
 * What travels between execution's two processes: the job the API puts on `exec.<queue>` and
 * the outcome a worker sends back to the API process waiting for it.
 */
import { z } from 'zod';
import { QUEUES } from '@svc/pack-sdk/limits';
import { ephemeralQueueOf } from './bus-names.js';
import { TIER_VALUES } from './identity.js';
import { Timestamp } from './responses.js';

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

/** A line a pack's code logged during a run, as answered; a run keeps 16 KiB of them, the last line counting any dropped. */
export const RunLogEntry = RunLogLine.extend({ at: Timestamp, level: z.string().meta({ description: '`debug`, `info`, `warn` or `error`.' }) });

/** A task as `GET /api/v1/tasks/{task_id}` shows it; a schedule's runs are these too. */
export const Task = z
  .object({
    task_id: z.uuid(),
    status: z.enum(TASK_STATUSES).meta({ description: '`success`, `failure`, `timeout` and `revoked` are terminal.' }),
    result: z.unknown().meta({ description: 'The command\'s result once `success`; otherwise null.' }),
    error: z.object({ message: z.string(), type: z.string().meta({ description: 'The exception class name.' }) }).nullable(),
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    correlation_id: z.string(),
    progress: z
      .object({ done: z.number().min(0), total: z.number().gt(0).optional(), message: z.string().optional() })
      .nullable()
      .meta({ description: 'The command\'s last progress report (`ctx.progress(done, total?, message?)`); null when it made none.' }),
    logs: z.array(RunLogEntry).meta({ description: 'What the run logged (its last attempt), for the task\'s owner: 16 KiB of lines, the last counting any dropped.' }),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof Task>;

/** The task endpoints answer `success: true` beside `data`. */
const succeeded = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** `GET /api/v1/tasks/{task_id}`. */
export const TaskAnswer = succeeded(Task);
/** `GET /api/v1/tasks`: the caller's latest tasks. */
export const TaskList = succeeded(
  z.object({
    tasks: z.array(
      z.object({
        task_id: z.uuid(),
        command: z.string().meta({ description: '`namespace.name`.' }),
        status: z.enum(TASK_STATUSES),
        created_at: Timestamp,
        started_at: Timestamp.nullable(),
        completed_at: Timestamp.nullable(),
      }),
    ),
  }),
);
/** `DELETE /api/v1/tasks/{task_id}`. */
export const TaskCancelled = succeeded(z.object({ task_id: z.uuid(), revoked: z.literal(true) }));

/** A run that answered inline (200); `logs` when asked for with `?logs=true`. */
export const RunResult = z.object({
  result: z.unknown().meta({ description: 'What the command returned.' }),
  execution: z.object({ duration_ms: z.number().int().min(0), status: z.literal('completed') }),
  logs: z.array(RunLogEntry).optional(),
});
/** A run that became a task (202). */
export const TaskAccepted = z.object({ task_id: z.uuid(), status: z.literal('pending'), status_url: z.string().meta({ description: '`/api/v1/tasks/{task_id}`.' }) });

/** The development sandbox's quotas (Part 2), the same for every developer. */
export const SANDBOX_QUOTAS = { executions_per_month: 1000, concurrent_sessions: 1, storage_bytes: 100 * 1024 * 1024 } as const;

/** A pack synced into the sandbox. */
export const SandboxPack = z.object({
  namespace: z.string(),
  name: z.string(),
  version: z.string(),
  sha256: z.string(),
  size_bytes: z.number().int().min(0),
  commands: z.array(z.string()),
  synced_at: Timestamp,
});
export type SandboxPack = z.infer<typeof SandboxPack>;

/** The sandbox as every sandbox endpoint answers it; some add a field. */
export const Sandbox = z.object({
  status: z.enum(['running', 'stopped']),
  sandbox_id: z.uuid().nullable().meta({ description: 'The session\'s id (a new one for every start); null before the first.' }),
  uptime: z.number().int().min(0).meta({ description: 'Seconds since the running session started; 0 when stopped.' }),
  timeout: z.number().int().min(0).meta({ description: 'Seconds without activity after which the session stops.' }),
  started_at: Timestamp.nullable(),
  last_active_at: Timestamp.nullable(),
  expires_at: Timestamp.nullable().meta({ description: 'When a running session stops unless active again; null when stopped.' }),
  stopped_at: Timestamp.nullable().meta({ description: 'When it stopped, by hand or by its timeout; null while running.' }),
  quotas: z.object({
    executions_per_month: z.literal(SANDBOX_QUOTAS.executions_per_month),
    concurrent_sessions: z.literal(SANDBOX_QUOTAS.concurrent_sessions),
    storage_bytes: z.literal(SANDBOX_QUOTAS.storage_bytes),
  }),
  usage: z.object({
    executions_this_month: z.number().int().min(0).meta({ description: 'Sandbox runs this calendar month (UTC).' }),
    executions_reset_at: Timestamp,
    storage_bytes: z.number().int().min(0).meta({ description: 'Bytes of the packs synced into the sandbox.' }),
  }),
  packs: z.array(SandboxPack),
});
export type Sandbox = z.infer<typeof Sandbox>;

/** `POST /api/v1/sandbox/start`: a new session (201), or the one already running (200) with a warning. */
export const SandboxStarted = Sandbox.extend({ created: z.literal(true) });
export const SandboxAlreadyRunning = Sandbox.extend({ created: z.literal(false), warning: z.string() });
/** `POST /api/v1/sandbox/stop`. */
export const SandboxStopped = Sandbox.extend({ stopped: z.boolean().meta({ description: 'Whether a running session was stopped by this call.' }) });
/** `PUT /api/v1/sandbox/packs/…`: synced for the first time (201, `created: true`) or replacing the earlier sync (200). */
export const SandboxPackSynced = z.object({ pack: SandboxPack, created: z.boolean(), storage_bytes: z.number().int().min(0) });

/** A JSON-RPC 2.0 response of the MCP endpoint; an error's id is null when the request's own could not be read. */
export const JsonRpcResponse = z
  .union([
    z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number().int()]), result: z.record(z.string(), z.unknown()) }),
    z.object({
      jsonrpc: z.literal('2.0'),
      id: z.union([z.string().nullable(), z.number().int()]),
      error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().meta({ description: 'More about the error.' }).optional() }),
    }),
  ])
  .meta({ id: 'JsonRpcResponse', description: 'A JSON-RPC 2.0 response.' });
