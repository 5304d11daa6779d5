import { backoffDelayMs, Poller, type BackoffSettings, type Logger } from '@svc/core';
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
  /** How often due deliveries are looked for while there are some. */
  intervalMs: number;
  /**
   * The longest pause between looks that find nothing (default thirty intervals: 30 s at 1 s).
   * New deliveries and retries this process schedules are sent when due whatever the pause; only
   * a delivery whose sender died in its lease waits for a look.
   */
  idleIntervalMs?: number;
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
  private readonly poller: Poller;
  private pass: Promise<number> | undefined;
  private again = false;

  constructor(
    private readonly db: Db,
    /** Notify's own outbox: the e-mail telling an owner of a disabled endpoint is written with the change. */
    private readonly outbox: Outbox,
    private readonly settings: DispatchSettings,
    private readonly log: Logger,
  ) {
    const { intervalMs } = settings;
    this.poller = new Poller({
      look: async () => ((await this.sendDue()) > 0 ? intervalMs : undefined),
      busyMs: intervalMs,
      idleMs: settings.idleIntervalMs ?? 30 * intervalMs,
      onError: (err) => this.log.error('webhook deliveries not read', { error: err.message }),
    });
  }

  start(): void {
    this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
    await this.pass?.catch(() => undefined);
  }

  /** Sends what is due now (new deliveries need not wait for the next look); a pass under way runs once more. */
  kick(): Promise<void> {
    this.poller.wake(this.settings.intervalMs);
    return this.sendDue().then(
      () => undefined,
      (err: Error) => {
        this.log.error('webhook deliveries not read', { error: err.message });
      },
    );
  }

  /** Sends every delivery due now; resolves to how many it took. */
  private sendDue(): Promise<number> {
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    this.pass = this.drain().finally(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  private async drain(): Promise<number> {
    // While the lease lasts, nobody else sends the row; it covers the request's timeout and its recording.
    const leaseMs = this.settings.timeoutMs + 30_000;
    let taken = 0;
    for (;;) {
      this.again = false;
      const due = await new DeliveryRepository(this.db).leaseDue(this.settings.batchSize, leaseMs);
      taken += due.length;
      await Promise.all(due.map((delivery) => this.deliver(delivery)));
      if (due.length === 0 && !this.again) return taken;
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
      const retryInMs = givenUp ? undefined : backoffDelayMs(this.settings.retry, delivery.attempts);
      await deliveries.record(delivery.id, attempt, { succeeded: false, retryInMs });
      if (retryInMs !== undefined) this.poller.wake(retryInMs);
      const disabled = await hooks.markFailing(hook.id, this.settings.disableAfterMs);
      if (!disabled) return;
      await deliveries.failPendingOf(hook.id, 'endpoint disabled after failing for too long');
      add({ kind: 'email', name: 'webhook-disabled', payload: webhookDisabledEmail(disabled, attempt.error) });
      this.log.warn('webhook endpoint disabled', { webhook_id: hook.id, tenant_id: hook.tenantId, since: disabled.failingSince?.toISOString() });
    });
    if (!succeeded) this.log.info('webhook delivery failed', { delivery_id: delivery.id, webhook_id: hook.id, attempt: delivery.attempts, error: attempt.error, given_up: givenUp });
  }
}
