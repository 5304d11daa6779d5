import { backoffDelayMs, type BackoffSettings, type Logger } from '@svc/core';
import type { Db, Outbox } from '@svc/db';
import type { DeliveryRow } from '../db/schema.js';
import { webhookDisabledEmail } from '../mail/templates.js';
import { DeliveryRepository } from '../repositories/delivery.repository.js';
import { WebhookRepository } from '../repositories/webhook.repository.js';

import { sendDelivery, type SenderSettings } from './webhook-sender.js';

export interface DispatchSettings extends SenderSettings {
  /** Tries of one delivery before it is marked failed. */
  maxAttempts: number;
  retry: BackoffSettings;
  /** An endpoint failing without a success for this long is disabled and its owner told. */
  disableAfterMs: number;
  /** How often due deliveries are looked for. */
  intervalMs: number;
  /** Endpoints served at once (each sends its oldest pending delivery). */
  batchSize: number;
}

/**
 * Sends pending deliveries from the Postgres schedule (`notify.deliveries`): every replica runs
 * one, each taking different rows (`SKIP LOCKED` and a lease), so the schedule survives
 * restarts and a replica's death. A pass serves each endpoint's oldest pending delivery, then
 * goes on while there was something to send.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly db: Db,
    /** Notify's own outbox: the e-mail telling an owner of a disabled endpoint is written with the change. */
    private readonly outbox: Outbox,
    private readonly settings: DispatchSettings,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.kick(), this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.pass;
  }

  /** Sends what is due now (new deliveries need not wait for the next interval); a pass under way runs once more. */
  kick(): Promise<void> {
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    const pass = this.drain()
      .catch((err: Error) => {
        this.log.error('webhook deliveries not read', { error: err.message });
      })
      .finally(() => {
        this.pass = undefined;
      });
    this.pass = pass;
    return pass;
  }

  private async drain(): Promise<void> {
    // While the lease lasts, nobody else sends the row; it covers the request's timeout and its recording.
    const leaseMs = this.settings.timeoutMs + 30_000;
    for (;;) {
      this.again = false;
      const due = await new DeliveryRepository(this.db).leaseDue(this.settings.batchSize, leaseMs);
      await Promise.all(due.map((delivery) => this.deliver(delivery)));
      if (due.length === 0 && !this.again) return;
    }
  }

  private async deliver(delivery: DeliveryRow): Promise<void> {
    const hook = await new WebhookRepository(this.db).byId(delivery.webhookId);
    if (!hook) return;
    const outcome = await sendDelivery(hook.url, hook.secret, delivery, this.settings);
    const { succeeded, ...attempt } = outcome;
    const givenUp = !succeeded && delivery.attempts >= this.settings.maxAttempts;
    await this.outbox.transaction(async (tx, add) => {
      const deliveries = new DeliveryRepository(tx);
      const hooks = new WebhookRepository(tx);
      if (succeeded) {
        await deliveries.record(delivery.id, attempt, { succeeded: true });
        await hooks.markHealthy(hook.id);
        return;
      }
      await deliveries.record(delivery.id, attempt, { succeeded: false, retryInMs: givenUp ? undefined : backoffDelayMs(this.settings.retry, delivery.attempts) });
      const disabled = await hooks.markFailing(hook.id, this.settings.disableAfterMs);
      if (!disabled) return;
      await deliveries.failPendingOf(hook.id, 'endpoint disabled after failing for too long');
      add({ kind: 'email', name: 'webhook-disabled', payload: webhookDisabledEmail(disabled, attempt.error) });
      this.log.warn('webhook endpoint disabled', { webhook_id: hook.id, tenant_id: hook.tenantId, since: disabled.failingSince?.toISOString() });
    });
    if (!succeeded) this.log.info('webhook delivery failed', { delivery_id: delivery.id, webhook_id: hook.id, attempt: delivery.attempts, error: attempt.error, given_up: givenUp });
  }
}
