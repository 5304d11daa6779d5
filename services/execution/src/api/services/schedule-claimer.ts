import type { Db } from '@svc/db';
import { Poller, type Logger } from '@svc/core';
import { ScheduleRepository, type ScheduleRow } from '../../core/repositories/schedule.repository.js';
import { planDue } from './schedule-timetable.js';
import type { Clock, ScheduleService } from './schedule.service.js';

/**
 * The longest a scheduler goes without looking for due ticks (ms), unless told otherwise. It
 * looks when the earliest tick it knows of is due, and when this replica sets a tick; this bound
 * covers ticks another replica set and could not fire (it stopped first).
 */
export const SCHEDULE_POLL_MS = 30_000;
/** The first pause of a scheduler that knows of no schedule at all; the pauses then double to the bound. */
const FIRST_IDLE_PAUSE_MS = 1000;
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
  /** The longest pause between looks (default `SCHEDULE_POLL_MS`). */
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
  private readonly poller: Poller;

  constructor(options: ScheduleClaimerOptions) {
    ({ db: this.db, schedules: this.schedules, clock: this.clock, log: this.log } = options);
    const pollMs = options.pollMs ?? SCHEDULE_POLL_MS;
    this.poller = new Poller({
      look: () => this.look(),
      busyMs: Math.min(FIRST_IDLE_PAUSE_MS, pollMs),
      idleMs: pollMs,
      // The database away: look again later; the ticks wait in their rows.
      onError: (err) => this.log.warn('schedule claim failed', { error: err.message }),
    });
  }

  start(): void {
    this.poller.start(0);
  }

  /** Stops looking, after the look under way (and the runs it fires) ends. */
  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** A schedule's tick was set for `at` (by this replica): look then, if that is sooner than planned. */
  lookAt(at: Date): void {
    this.poller.wake(at.getTime() - this.clock().getTime());
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

  /** Claims and fires what is due; how long until the earliest tick left is due (or a pending one goes stale), as far as the rows say. */
  private async look(): Promise<number | undefined> {
    if ((await this.claimAndFire()) === CLAIM_BATCH) return 0;
    const due = await new ScheduleRepository(this.db).nextDue(PENDING_STALE_MS);
    return due ? Math.max(0, due.getTime() - this.clock().getTime()) : undefined;
  }
}
