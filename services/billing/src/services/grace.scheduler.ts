import type { EventOutbox } from '@svc/bus';
import type { Logger } from '@svc/core';
import { SubscriptionRepository } from '../repositories/subscription.repository.js';
import type { Clock } from './clock.js';
import type { SubscriptionService } from './subscription.service.js';

/** Rows handled per transaction; a tick repeats until none are due. */
const BATCH = 50;

/**
 * The time-driven steps of the grace period: a reminder a day, and expiry when it is over. The
 * schedule is the subscription rows themselves (`next_reminder_at`, `grace_ends_at`), so a
 * restart loses nothing; each batch is taken with `SKIP LOCKED`, so that replicas running the
 * same tick share the due rows instead of handling any twice.
 */
export class GraceScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly events: EventOutbox,
    private readonly subscriptions: SubscriptionService,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Handles every due row now; how many reminders were sent and subscriptions expired. */
  async tick(): Promise<{ reminded: number; expired: number }> {
    const done = { reminded: 0, expired: 0 };
    for (;;) {
      const now = this.clock();
      const handled = await this.events.transaction(async (tx, out) => {
        const due = await new SubscriptionRepository(tx).lockDueGrace(now, BATCH);
        for (const row of due) done[await this.subscriptions.advanceGrace(tx, out, row, now)] += 1;
        return due.length;
      });
      if (handled < BATCH) return done;
    }
  }

  start(intervalSeconds: number): void {
    this.timer = setInterval(() => {
      this.running = this.tick()
        .then((done) => (done.reminded || done.expired) && this.log.info('grace period steps taken', done))
        .catch((err: Error) => this.log.warn('grace scheduler tick failed', { error: err.message }));
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
