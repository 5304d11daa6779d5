import type { Bus, EventMessage, EventOutbox, OutboxWriter, Subscription } from '@svc/bus';
import { firstDelivery, type Db } from '@svc/db';
import { inbox } from '../db/schema.js';
import { ActivityRepository } from '../repositories/activity.repository.js';
import { ConcurrencyRepository } from '../repositories/concurrency.repository.js';
import { UsageRepository } from '../repositories/usage.repository.js';
import type { HardLimits } from '../usage/hard-limits.js';
import { warnOfOverage, type QuotaMetric } from '../usage/overage.js';
import { packOf, periodOf } from '../usage/period.js';

const USAGE_EVENTS = ['command.started', 'command.executed', 'task.revoked', 'storage.changed', 'llm.usage.reported'] as const;
type UsageEvent = (typeof USAGE_EVENTS)[number];

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
 * once, by its id in the inbox, in the same transaction as the counters it moves: a second
 * delivery of the same run never counts it twice. The month is the one the event is handled in.
 * A quota the counters go past is noticed in that transaction too (`warnOfOverage`), and held
 * to when the tenant has hard limits (`HardLimits`).
 */
export function consumeUsageEvents(bus: Bus, db: Db, events: EventOutbox, options: UsageConsumerOptions): Promise<Subscription> {
  return bus.subscribe('admin.usage', [...USAGE_EVENTS], (message) =>
    events.transaction(async (tx, out) => {
      if (await firstDelivery(tx, inbox, message.messageId, message.name)) await count(tx, out, message, options);
    }),
  );
}

async function count(tx: Db, out: OutboxWriter, message: EventMessage<UsageEvent>, { now, limitsEnabled, hardLimits }: UsageConsumerOptions): Promise<void> {
  const usage = new UsageRepository(tx);
  const at = now();
  const period = periodOf(at);
  const overage = async (tenantId: string, userId: string | null, metric: QuotaMetric) => {
    if (limitsEnabled && (await warnOfOverage(tx, out, { tenantId, userId, period, at, metric }))) await hardLimits.flagIfHard(tx, tenantId, metric, at);
  };
  if (message.name === 'command.started') {
    const run = message.payload;
    await new ConcurrencyRepository(tx).started({ period, tenantId: run.tenant_id, taskId: run.task_id, at });
  } else if (message.name === 'task.revoked') {
    await new ConcurrencyRepository(tx).ended({ tenantId: message.payload.tenant_id, taskId: message.payload.task_id, at });
  } else if (message.name === 'command.executed') {
    const run = message.payload;
    await new ConcurrencyRepository(tx).ended({ tenantId: run.tenant_id, taskId: run.task_id, at });
    await usage.addCommandRun({ period, tenantId: run.tenant_id, userId: run.user_id, pack: packOf(run.command), succeeded: run.status === 'success', durationMs: run.duration_ms });
    await new ActivityRepository(tx).record({
      id: message.messageId,
      tenantId: run.tenant_id,
      userId: run.user_id,
      eventType: 'command.executed',
      eventData: { command: run.command, status: run.status },
      durationMs: Math.round(run.duration_ms),
      createdAt: at,
    });
    await overage(run.tenant_id, run.user_id, 'commands_per_month');
  } else if (message.name === 'llm.usage.reported') {
    const report = message.payload;
    await usage.addLlmReport({ period, tenantId: report.tenant_id, userId: report.user_id, pack: packOf(report.command), model: report.model, inputTokens: report.input_tokens, outputTokens: report.output_tokens });
    await overage(report.tenant_id, report.user_id, 'llm_tokens_per_month');
  } else {
    const report = message.payload;
    await usage.addStorageReport({ period, tenantId: report.tenant_id, bytes: report.storage_bytes, keys: report.storage_keys, version: report.version });
    await overage(report.tenant_id, null, 'storage_bytes');
  }
}
