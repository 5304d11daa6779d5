import { randomUUID } from 'node:crypto';
import { tenantRoleOf, type Identity } from '@svc/auth';
import { WEBHOOK_PING, WEBHOOKS_PER_TENANT, type CreateWebhookBody, type WebhookEvent } from '@svc/contracts';
import { ConflictError, NotFoundError, PermissionError, ValidationError } from '@svc/core';
import type { Db } from '@svc/db';
import type { z } from 'zod';
import type { DeliveryAttemptRow, DeliveryRow, WebhookRow } from '../db/schema.js';
import type { TenantEvent } from '../events/webhook-events.js';
import { DeliveryRepository } from '../repositories/delivery.repository.js';
import { WebhookRepository } from '../repositories/webhook.repository.js';
import { newWebhookSecret } from './signature.js';
import { checkWebhookTarget, type TargetPolicy } from './webhook-target.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

const webhookView = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  status: row.status,
  failing_since: iso(row.failingSince),
  disabled_at: iso(row.disabledAt),
  created_at: row.createdAt.toISOString(),
});

const deliveryView = (row: DeliveryRow, attempts: DeliveryAttemptRow[]) => ({
  id: row.id,
  webhook_id: row.webhookId,
  event_id: row.eventId,
  event_type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  response_code: row.responseCode,
  latency_ms: row.latencyMs,
  last_error: row.lastError,
  next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
  created_at: row.createdAt.toISOString(),
  delivered_at: iso(row.deliveredAt),
  attempt_log: attempts.map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), response_code: a.responseCode, latency_ms: a.latencyMs, error: a.error })),
});

/** Whether an active endpoint hears `event`: it is its tenant's and asked for its type. */
const hears = (hook: WebhookRow, event: TenantEvent) => hook.tenantId === event.tenantId && hook.events.includes(event.type);

const notFound = (id: string) => new NotFoundError('No webhook endpoint with this id', { id });

/** Webhook endpoints are the tenant's: its owners and admins manage them (an organization's members do not). */
function tenantOf(caller: Identity): string {
  const role = tenantRoleOf(caller, caller.tenantId);
  if (role !== 'owner' && role !== 'admin') throw new PermissionError("Managing webhooks needs the tenant's owner or admin role");
  return caller.tenantId;
}

/** The rules of webhook endpoints and their deliveries; `onQueued` wakes the dispatcher. */
export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly policy: TargetPolicy,
    private readonly onQueued: () => void,
  ) {}

  async create(caller: Identity, input: z.infer<typeof CreateWebhookBody>) {
    const tenantId = tenantOf(caller);
    const url = await checkWebhookTarget(input.url, this.policy);
    const hooks = new WebhookRepository(this.db);
    if ((await hooks.countOf(tenantId)) >= WEBHOOKS_PER_TENANT) {
      throw new ValidationError(`A tenant holds at most ${WEBHOOKS_PER_TENANT} webhook endpoints`, { field: 'url', limit: WEBHOOKS_PER_TENANT });
    }
    const secret = newWebhookSecret();
    const row = await hooks.create({ tenantId, url: url.href, events: input.events, description: input.description, secret, createdBy: caller.userId, ownerEmail: caller.email });
    return { ...webhookView(row), secret };
  }

  async list(caller: Identity) {
    return (await new WebhookRepository(this.db).listOf(tenantOf(caller))).map(webhookView);
  }

  async get(caller: Identity, id: string) {
    return webhookView(await this.owned(caller, id));
  }

  async delete(caller: Identity, id: string): Promise<void> {
    if (!(await new WebhookRepository(this.db).delete(tenantOf(caller), id))) throw notFound(id);
  }

  async deliveries(caller: Identity, id: string, query: { limit: number; before?: string }) {
    const hook = await this.owned(caller, id);
    const repo = new DeliveryRepository(this.db);
    const before = query.before ? await repo.find(hook.id, query.before) : undefined;
    if (query.before && !before) throw new NotFoundError('No delivery with this id for this endpoint', { id: query.before });
    const rows = await repo.page(hook.id, query.limit, before);
    const attempts = await repo.attemptsOf(rows.map((row) => row.id));
    return rows.map((row) => deliveryView(row, attempts.filter((a) => a.deliveryId === row.id)));
  }

  /** Sends a delivery's event again, as a new delivery with the same event id and body (the receiver dedupes on the id). */
  async redeliver(caller: Identity, id: string, deliveryId: string) {
    const hook = await this.activeOwned(caller, id);
    const repo = new DeliveryRepository(this.db);
    const original = await repo.find(hook.id, deliveryId);
    if (!original) throw new NotFoundError('No delivery with this id for this endpoint', { id: deliveryId });
    const [copy] = await repo.enqueue([{ webhookId: hook.id, tenantId: hook.tenantId, eventId: original.eventId, eventType: original.eventType, body: original.body }]);
    this.onQueued();
    return deliveryView(copy!, []);
  }

  /** Queues a `webhook.ping` event to the endpoint, whatever it subscribed to. */
  async ping(caller: Identity, id: string) {
    const hook = await this.activeOwned(caller, id);
    const event: WebhookEvent = { id: randomUUID(), type: WEBHOOK_PING, timestamp: new Date().toISOString(), data: { webhook_id: hook.id, tenant_id: hook.tenantId } };
    const [delivery] = await new DeliveryRepository(this.db).enqueue([{ webhookId: hook.id, tenantId: hook.tenantId, eventId: event.id, eventType: event.type, body: JSON.stringify(event) }]);
    this.onQueued();
    return deliveryView(delivery!, []);
  }

  /**
   * Of `events`, those some active endpoint of their tenant asked for, in the order given: one
   * read, outside any transaction, so that the events of tenants without webhooks (most runs'
   * `command.executed`) cost no transaction and no inbox row. An endpoint registered meanwhile
   * hears the platform's events from its registration on, as it would have a moment later.
   */
  async wanted<E extends { event: TenantEvent }>(events: E[]): Promise<E[]> {
    if (events.length === 0) return [];
    const hooks = await new WebhookRepository(this.db).activeOf([...new Set(events.map(({ event }) => event.tenantId))]);
    return events.filter(({ event }) => hooks.some((hook) => hears(hook, event)));
  }

  /**
   * Queues each event for every active endpoint of its tenant that asked for its type, in the
   * transaction `tx` that records the bus events as handled, in the order given (one statement
   * for the endpoints, one for the deliveries). The endpoints are read again here, though
   * `wanted` read them: this read is the transaction's, so that an endpoint disabled or deleted
   * since is not queued to. An event id is the bus event's, the same for every endpoint and every
   * retry. Answers how many deliveries it queued.
   */
  async enqueue(tx: Db, events: { eventId: string; event: TenantEvent }[]): Promise<number> {
    const hooks = await new WebhookRepository(tx).activeOf([...new Set(events.map(({ event }) => event.tenantId))]);
    if (hooks.length === 0) return 0;
    const rows = events.flatMap(({ eventId, event }) => {
      const body: WebhookEvent = { id: eventId, type: event.type, timestamp: new Date().toISOString(), data: event.data };
      const text = JSON.stringify(body);
      return hooks
        .filter((hook) => hears(hook, event))
        .map((hook) => ({ webhookId: hook.id, tenantId: event.tenantId, eventId, eventType: event.type, body: text }));
    });
    return (await new DeliveryRepository(tx).enqueue(rows)).length;
  }

  private async owned(caller: Identity, id: string): Promise<WebhookRow> {
    const hook = await new WebhookRepository(this.db).find(tenantOf(caller), id);
    if (!hook) throw notFound(id);
    return hook;
  }

  private async activeOwned(caller: Identity, id: string): Promise<WebhookRow> {
    const hook = await this.owned(caller, id);
    if (hook.status !== 'active') throw new ConflictError('This webhook endpoint is disabled; register it anew', { id, status: hook.status });
    return hook;
  }
}
