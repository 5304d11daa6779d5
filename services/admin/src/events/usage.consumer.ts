import { firstDeliveriesOf, inBatches, type Bus, type EventMessage, type EventOutbox, type OutboxWriter, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import { ActivityRepository, type ActivityRow } from '../repositories/activity.repository.js';
import { ConcurrencyRepository, type RunChange } from '../repositories/concurrency.repository.js';
import { UsageRepository, type CommandRun, type LlmReport } from '../repositories/usage.repository.js';
import type { HardLimits } from '../usage/hard-limits.js';
import { warnOfOverage, type QuotaMetric } from '../usage/overage.js';
import { packOf, periodOf } from '../usage/period.js';

const USAGE_EVENTS = ['command.started', 'command.executed', 'task.revoked', 'storage.changed', 'llm.usage.reported'] as const;
type UsageEvent = (typeof USAGE_EVENTS)[number];

/** Most usage events held, and counted in one transaction. */
const BATCH = 500;
/**
 * How long a batch waits to fill: counting lags by as much. A batch costs about a dozen
 * statements whatever its size (inbox, run starts and ends, counters, activity, the owner's
 * quota), so under load each run's share of them shrinks with the wait (BENCHMARKS.md, eleventh
 * round); a tenth of a second is nothing to a monthly quota.
 */
const GATHER_MS = 100;

export interface UsageConsumerOptions {
  now: () => Date;
  /** Whether quotas apply (`SVC_USAGE_LIMITS`): without them, no overage is ever noticed. */
  limitsEnabled: boolean;
  hardLimits: HardLimits;
}

/**
 * Feeds the usage read model (and, for runs, the metrics' activity) from `command.executed`
 * and `storage.changed`, LLM tokens from `llm.usage.reported`, and jobs running at once from
 * `command.started` with the run's `command.executed` or `task.revoked`. Each event counts
 * once, by its id, in the same transaction as the counters it moves: a second delivery of the
 * same run never counts it twice. A run's end, every run's event and the most frequent, is known
 * by its row in the activity log (whose id is the event's); the others by the inbox, so that a
 * run's end costs no inbox row on top of its activity row. The month is the one the event is handled in.
 * A quota the counters go past is noticed in that transaction too (`warnOfOverage`), and held
 * to when the tenant has hard limits (`HardLimits`).
 *
 * Events come in batches (`inBatches`): under load one transaction, and a few statements,
 * count a hundred runs, where each would otherwise cost a dozen statements of its own.
 */
export function consumeUsageEvents(bus: Bus, db: Db, events: EventOutbox, options: UsageConsumerOptions): Promise<Subscription> {
  return bus.subscribe(
    'admin.usage',
    [...USAGE_EVENTS],
    inBatches<EventMessage<UsageEvent>>(
      (messages) =>
        events.transaction(async (tx, out) => {
          const at = options.now();
          return count(tx, out, await firstDeliveriesIn(tx, messages, at), at, options);
        }),
      { maxBatch: BATCH, gatherMs: GATHER_MS },
    ),
    { prefetch: 2 * BATCH },
  );
}

type RunEnd = EventMessage<'command.executed'>;
const isRunEnd = (message: EventMessage<UsageEvent>): message is RunEnd => message.name === 'command.executed';

/** A run's line in the metrics' activity log: its id is the event's. */
function activityOf({ messageId, payload: run }: RunEnd, at: Date): ActivityRow {
  return {
    id: messageId,
    tenantId: run.tenant_id,
    userId: run.user_id,
    eventType: 'command.executed',
    eventData: { command: run.command, status: run.status },
    durationMs: Math.round(run.duration_ms),
    createdAt: at,
  };
}

/** The first deliveries of a batch, in its order, with the activity rows logged for them now. */
interface FirstDeliveries {
  messages: EventMessage<UsageEvent>[];
  activity: ActivityRow[];
}

/** Runs' ends by the activity rows they add to the log, the other events by the inbox. */
async function firstDeliveriesIn(tx: Db, messages: EventMessage<UsageEvent>[], at: Date): Promise<FirstDeliveries> {
  const rows = new Map(messages.filter(isRunEnd).map((message) => [message.messageId, activityOf(message, at)]));
  const logged = await new ActivityRepository(tx).logNew([...rows.values()]);
  const others = new Set(await firstDeliveriesOf(tx, inbox, messages.filter((message) => !isRunEnd(message))));
  // A run's end delivered twice in one batch: only its first delivery takes the new row.
  const first = messages.filter((message) => (isRunEnd(message) ? logged.delete(message.messageId) : others.has(message)));
  return { messages: first, activity: first.filter(isRunEnd).map((message) => rows.get(message.messageId)!) };
}

async function count(tx: Db, out: OutboxWriter, { messages, activity }: FirstDeliveries, at: Date, { limitsEnabled, hardLimits }: UsageConsumerOptions): Promise<void> {
  const usage = new UsageRepository(tx);
  const period = periodOf(at);
  const runChanges: RunChange[] = [];
  const runs: CommandRun[] = [];
  const reports: LlmReport[] = [];
  const moved = new Map<string, { tenantId: string; userId: string | null; metric: QuotaMetric }>();
  const move = (tenantId: string, userId: string | null, metric: QuotaMetric) => {
    if (!moved.has(`${tenantId} ${metric}`)) moved.set(`${tenantId} ${metric}`, { tenantId, userId, metric });
  };

  for (const message of messages) {
    if (message.name === 'command.started') {
      runChanges.push({ change: 'started', tenantId: message.payload.tenant_id, taskId: message.payload.task_id });
    } else if (message.name === 'task.revoked') {
      runChanges.push({ change: 'ended', tenantId: message.payload.tenant_id, taskId: message.payload.task_id });
    } else if (message.name === 'command.executed') {
      const run = message.payload;
      runChanges.push({ change: 'ended', tenantId: run.tenant_id, taskId: run.task_id });
      runs.push({ period, tenantId: run.tenant_id, userId: run.user_id, ...packOf(run), succeeded: run.status === 'success', durationMs: run.duration_ms });
      move(run.tenant_id, run.user_id, 'commands_per_month');
    } else if (message.name === 'llm.usage.reported') {
      const report = message.payload;
      // A call made with the user's own provider key is a request, with no platform tokens (Part 2, Limits).
      const tokens = report.byok ? { inputTokens: 0, outputTokens: 0 } : { inputTokens: report.input_tokens, outputTokens: report.output_tokens };
      reports.push({ period, tenantId: report.tenant_id, userId: report.user_id, ...packOf(report), model: report.model, ...tokens });
      if (!report.byok) move(report.tenant_id, report.user_id, 'llm_tokens_per_month');
    } else {
      const report = message.payload;
      await usage.addStorageReport({ period, tenantId: report.tenant_id, bytes: report.storage_bytes, keys: report.storage_keys, version: report.version });
      move(report.tenant_id, null, 'storage_bytes');
    }
  }

  await new ConcurrencyRepository(tx).apply(period, at, runChanges);
  await usage.addCommandRuns(runs);
  await new ActivityRepository(tx).countMoves(activity);
  await usage.addLlmReports(reports);
  if (!limitsEnabled) return;
  for (const { tenantId, userId, metric } of moved.values()) {
    if (await warnOfOverage(tx, out, { tenantId, userId, period, at, metric })) await hardLimits.flagIfHard(tx, tenantId, metric, at);
  }
}
