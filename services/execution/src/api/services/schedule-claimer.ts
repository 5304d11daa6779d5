import type { Db } from '@svc/db';
import type { Logger } from '@svc/core';
import { ScheduleRepository, type ScheduleRow } from '../../core/repositories/schedule.repository.js';
import { planDue } from './schedule-timetable.js';
import type { Clock, ScheduleService } from './schedule.service.js';

/** How often a scheduler looks for due ticks (ms), unless told otherwise. */
export const SCHEDULE_POLL_MS = 1000;
/**
 * How long a claimed tick may stay without its run (scheduler's clock) before another scheduler
 * takes it over: the scheduler that claimed it died between its claim and the run.
 */
export const PENDING_STALE_MS = 120_000;
/** Due schedules claimed in one transaction; more wait for the next look, which comes at once. */
const CLAIM_BATCH = 50;

export interface ScheduleClaimerOptions {
  db: Db;
  schedules: ScheduleService;
  clock: Clock;
  log: Logger;
  pollMs?: number;
}

/**
 * The scheduler of one API process. Every replica runs one, and a tick fires once whatever their
 * number: due schedules are claimed in a transaction that locks them (`FOR UPDATE SKIP LOCKED`:
 * a replica passes over rows another holds) and moves `next_run_at` past now before it commits,
 * so the next claim finds them not due; the run is then started outside the transaction. The
 * claimed tick stays `pending_tick` until its run is made: a scheduler that dies in between
 * leaves it, and another fires it once it is stale (`PENDING_STALE_MS`); a tick's run is made
 * only once (`tasks_schedule_tick_idx`), so firing it again never runs it twice. State lives in
 * the database only, so a restart loses nothing: ticks that came due meanwhile meet `catch_up`.
 */
export class ScheduleClaimer {
  private readonly db: Db;
  private readonly schedules: ScheduleService;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(options: ScheduleClaimerOptions) {
    ({ db: this.db, schedules: this.schedules, clock: this.clock, log: this.log } = options);
    this.pollMs = options.pollMs ?? SCHEDULE_POLL_MS;
  }

  start(): void {
    this.stopped = false;
    this.lookIn(0);
  }

  /** Stops looking, after the look under way (and the runs it fires) ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Claims the ticks due now and fires their runs; how many schedules it claimed. Exposed for
   * tests, which call it with a clock of their own.
   */
  async claimAndFire(): Promise<number> {
    const now = this.clock();
    const firings: Array<{ schedule: ScheduleRow; tick: Date }> = [];
    const claimed = await this.db.transaction(async (tx) => {
      const repository = new ScheduleRepository(tx);
      const staleBefore = new Date(now.getTime() - PENDING_STALE_MS);
      const due = await repository.lockDue(now, staleBefore, CLAIM_BATCH);
      for (const schedule of due) firings.push(...(await this.claim(repository, schedule, now, staleBefore)));
      return due.length;
    });
    for (const { schedule, tick } of firings) {
      await this.schedules.fire(schedule, tick).catch((err: unknown) => this.log.error('scheduled run failed to fire', { schedule_id: schedule.id, error: (err as Error).message }));
    }
    return claimed;
  }

  /** What a locked schedule fires now (in the claim's transaction): a tick its last scheduler left unfired, and its due tick. */
  private async claim(repository: ScheduleRepository, schedule: ScheduleRow, now: Date, staleBefore: Date): Promise<Array<{ schedule: ScheduleRow; tick: Date }>> {
    // A pending tick that is not stale is being fired by another scheduler right now.
    const left = schedule.pendingTick && schedule.pendingSince && schedule.pendingSince.getTime() <= staleBefore.getTime() ? schedule.pendingTick : null;
    const firings = left ? [{ schedule, tick: left }] : [];
    if (!schedule.nextRunAt || schedule.nextRunAt.getTime() > now.getTime()) {
      // Only the left tick: taken over from now, so that no other scheduler takes it meanwhile.
      await repository.advance(schedule.id, { nextRunAt: schedule.nextRunAt, missed: 0, skipped: 0, pending: firings[0] && { tick: firings[0].tick, since: now } });
      return firings;
    }
    const plan = planDue(schedule, schedule.nextRunAt, now);
    // `overlap: skip`: a tick that comes while the last run is unfinished fires nothing.
    const skip = plan.fire !== null && schedule.overlap === 'skip' && (await repository.hasLiveRun(schedule.id));
    const fire = skip ? null : plan.fire;
    await repository.advance(schedule.id, { nextRunAt: plan.next, lastRunAt: fire ?? undefined, missed: plan.missed, skipped: skip ? 1 : 0, pending: fire ? { tick: fire, since: now } : undefined });
    return fire ? [...firings, { schedule, tick: fire }] : firings;
  }

  private lookIn(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.claimAndFire()
        .then((claimed) => this.lookIn(claimed === CLAIM_BATCH ? 0 : this.pollMs))
        .catch((err: unknown) => {
          // The database away: look again later; the ticks wait in their rows.
          this.log.warn('schedule claim failed', { error: (err as Error).message });
          this.lookIn(this.pollMs);
        });
    }, delayMs);
    this.timer.unref?.();
  }
}
