import { USER_PRINCIPAL_RPC, type CreateScheduleBody, type EventPayload, type SchedulePauseReason, type UpdateScheduleBody } from '@svc/contracts';
import type { Bus } from '@svc/bus';
import { tenantRoleOf, type Identity } from '@svc/auth';
import { NotFoundError, PermissionError, ValidationError, type Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { traced } from '@svc/tracing';
import { cronProblem, timezoneProblem } from '@svc/pack-sdk';
import { ScheduleRepository, type NewSchedule, type Page, type ScheduleChange, type ScheduleRow } from '../../core/repositories/schedule.repository.js';
import { statusUrl } from '../../core/task-view.js';
import { MAX_SCHEDULES_PER_TENANT, SCHEDULE_LIMITS } from './schedule-limits.js';
import { nextTick, shortestInterval, type Timetable } from './schedule-timetable.js';
import { scheduleRunView, scheduleView } from './schedule-view.js';
import type { TaskService } from './task.service.js';

/** What tells a scheduler the time: the wall clock, or a test's faster one. */
export type Clock = () => Date;

const USER_PRINCIPAL_TIMEOUT_MS = 3000;
/** How long a pause waits for a run a scheduler is making for the schedule (`afterFiring`). */
const PAUSE_WAITS_FOR_FIRING_MS = 5000;

export interface ScheduleServiceOptions {
  db: Db;
  bus: Bus;
  tasks: TaskService;
  clock: Clock;
  log: Logger;
  /** A schedule's next tick was set (created or moved, turned on): the scheduler looks when it is due. */
  onNextTick?: (at: Date) => void;
}

/** `namespace.name` as the row keeps it. */
const commandOf = (value: string) => {
  const [namespace, command] = value.split('.') as [string, string];
  return { namespace, command };
};

/**
 * Schedules of the caller's tenant (README "Schedules"): saved after their cron, time zone,
 * command and input are checked, held to the tier's limits; their runs are tasks of the
 * schedule's creator, fired by `ScheduleClaimer` or triggered by hand. Another tenant's schedule
 * is 404, as if it did not exist.
 */
export class ScheduleService {
  private readonly db: Db;
  private readonly bus: Bus;
  private readonly tasks: TaskService;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly onNextTick: (at: Date) => void;

  constructor(options: ScheduleServiceOptions) {
    ({ db: this.db, bus: this.bus, tasks: this.tasks, clock: this.clock, log: this.log } = options);
    this.onNextTick = options.onNextTick ?? (() => undefined);
  }

  async create(identity: Identity, body: CreateScheduleBody) {
    this.checkTimetable(body);
    await this.checkCommand(identity, body.command, body.input);
    const repository = new ScheduleRepository(this.db);
    const counts = await repository.countOf(identity.tenantId);
    if (counts.all >= MAX_SCHEDULES_PER_TENANT) throw limitReached(`A tenant keeps at most ${MAX_SCHEDULES_PER_TENANT} schedules`, { limit: MAX_SCHEDULES_PER_TENANT });
    if (body.enabled) this.checkTier(identity, body, counts.enabled);
    const row = await repository.insert({
      tenantId: identity.tenantId,
      userId: identity.userId,
      ...commandOf(body.command),
      input: body.input,
      cron: body.cron,
      timezone: body.timezone,
      enabled: body.enabled,
      overlap: body.overlap,
      catchUp: body.catch_up,
      description: body.description,
      pausedReason: body.enabled ? null : 'paused',
      nextRunAt: body.enabled ? nextTick(body, this.clock()) : null,
    });
    if (row.nextRunAt) this.onNextTick(row.nextRunAt);
    return scheduleView(row);
  }

  async list(identity: Identity, query: Page & { enabled?: boolean }) {
    const { rows, total } = await new ScheduleRepository(this.db).list(identity.tenantId, query, query.enabled);
    return { schedules: rows.map(scheduleView), total, page: query.page, pages: Math.ceil(total / query.limit) };
  }

  async get(identity: Identity, id: string) {
    return scheduleView(await this.owned(identity, id));
  }

  /**
   * Any field. A new command or input is checked as at creation (the input against the command
   * it will run); a new cron or time zone moves the next tick; `enabled` pauses or resumes.
   */
  async update(identity: Identity, id: string, body: UpdateScheduleBody) {
    const current = await this.owned(identity, id);
    const merged = {
      command: body.command ?? `${current.namespace}.${current.command}`,
      input: body.input ?? current.input,
      cron: body.cron ?? current.cron,
      timezone: body.timezone ?? current.timezone,
      enabled: body.enabled ?? current.enabled,
    };
    if (body.cron !== undefined || body.timezone !== undefined) this.checkTimetable(merged);
    const turnedOn = merged.enabled && !current.enabled;
    // Turned on again (after pausing itself when the command went out of reach, say), the command must be reachable now.
    if (turnedOn || body.command !== undefined || body.input !== undefined) await this.checkCommand(identity, merged.command, merged.input);
    const change: ScheduleChange = {
      ...(body.command !== undefined ? commandOf(body.command) : {}),
      ...(body.input !== undefined ? { input: body.input } : {}),
      ...(body.cron !== undefined ? { cron: body.cron } : {}),
      ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
      ...(body.overlap !== undefined ? { overlap: body.overlap } : {}),
      ...(body.catch_up !== undefined ? { catchUp: body.catch_up } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    };
    if (merged.enabled && (turnedOn || body.cron !== undefined || body.timezone !== undefined)) {
      const { enabled } = await new ScheduleRepository(this.db).countOf(identity.tenantId);
      this.checkTier(identity, merged, turnedOn ? enabled : enabled - 1);
      Object.assign(change, { enabled: true, pausedReason: null, nextRunAt: nextTick(merged, this.clock()) });
    }
    const pausing = !merged.enabled && current.enabled;
    if (pausing) Object.assign(change, { enabled: false, pausedReason: 'paused', nextRunAt: null });
    const row = await this.changed(identity, id, change);
    if (change.nextRunAt) this.onNextTick(change.nextRunAt);
    return scheduleView(pausing ? await this.afterFiring(row) : row);
  }

  pause(identity: Identity, id: string) {
    return this.update(identity, id, { enabled: false });
  }

  /** Turns a schedule on (a pack's proposal too): it fires from its next tick; ticks while it was paused are not caught up. */
  resume(identity: Identity, id: string) {
    return this.update(identity, id, { enabled: true });
  }

  async delete(identity: Identity, id: string) {
    if (!(await new ScheduleRepository(this.db).delete(identity.tenantId, id))) throw scheduleNotFound(id);
    return { id, deleted: true as const };
  }

  /** One run now, as the caller, whatever the schedule's state and overlap; the tick timetable is untouched. */
  async trigger(identity: Identity, id: string) {
    const schedule = await this.owned(identity, id);
    const task = await this.tasks.runScheduled(identity, { ...schedule, name: schedule.command, scheduleId: schedule.id, scheduledFor: null });
    // A triggered run has no tick, so it never meets another: there is always a task.
    await new ScheduleRepository(this.db).recordRun(schedule.id, task!.id);
    return { task_id: task!.id, status: task!.status, status_url: statusUrl(task!.id) };
  }

  async runs(identity: Identity, id: string, page: Page) {
    const schedule = await this.owned(identity, id);
    const { rows, total } = await new ScheduleRepository(this.db).runs(schedule.id, page);
    return { runs: rows.map(scheduleRunView), total, page: page.page, pages: Math.ceil(total / page.limit) };
  }

  /**
   * A tick a scheduler claimed: the run, as the schedule's creator as they stand now. A creator
   * who is gone, no longer in the tenant, or who can no longer reach the command pauses the
   * schedule with the reason; a run the platform could not start (identity, the registry or
   * the queue away) is logged and the tick counted missed.
   */
  fire(schedule: ScheduleRow, tick: Date): Promise<void> {
    // No request began a scheduled run: its trace starts here, so that its task's hops have a root that names it.
    const attributes = { 'svc.schedule.id': schedule.id, 'svc.command': `${schedule.namespace}/${schedule.command}`, 'svc.tenant.id': schedule.tenantId };
    return traced('schedule.fire', { attributes }, () => this.fireTraced(schedule, tick));
  }

  private async fireTraced(schedule: ScheduleRow, tick: Date): Promise<void> {
    try {
      const creator = await this.creatorOf(schedule);
      if (!creator) return await this.pauseItself(schedule, 'creator_unavailable');
      const task = await this.tasks.runScheduled(creator, { ...schedule, name: schedule.command, scheduleId: schedule.id, scheduledFor: tick });
      if (task) await new ScheduleRepository(this.db).recordRun(schedule.id, task.id);
    } catch (err) {
      if (err instanceof NotFoundError) return await this.pauseItself(schedule, 'command_unavailable');
      this.log.warn('scheduled run not started', { schedule_id: schedule.id, tick: tick.toISOString(), error: (err as Error).message });
      await new ScheduleRepository(this.db).countMissed(schedule.id).catch(() => undefined);
    } finally {
      // Made, refused, paused or missed: the tick is no longer pending. A scheduler that dies before this leaves it for another.
      await new ScheduleRepository(this.db).settle(schedule.id, tick);
    }
  }

  /** The schedules a pack proposes, created paused for the tenant that installed it (once each). */
  async propose(event: EventPayload<'pack.installed'> | EventPayload<'pack.installation.changed'>, db: Db = this.db): Promise<number> {
    const proposedBy = `@${event.namespace}/${event.name}`;
    const proposals: NewSchedule[] = (event.schedules ?? []).map((proposal) => ({
      tenantId: event.tenant_id,
      userId: event.user_id,
      namespace: event.namespace,
      command: proposal.command,
      input: proposal.input,
      cron: proposal.cron,
      timezone: proposal.timezone,
      enabled: false,
      overlap: 'skip',
      catchUp: 'none',
      description: proposal.description,
      pausedReason: 'proposed_by_pack',
      nextRunAt: null,
      proposedBy,
      proposalKey: `${event.pack_id} ${proposal.command} ${proposal.timezone} ${proposal.cron}`,
    }));
    return (await new ScheduleRepository(db).propose(proposals)).length;
  }

  private async pauseItself(schedule: ScheduleRow, reason: SchedulePauseReason): Promise<void> {
    this.log.info('schedule paused itself', { schedule_id: schedule.id, tenant_id: schedule.tenantId, reason });
    await new ScheduleRepository(this.db).update(schedule.tenantId, schedule.id, { enabled: false, pausedReason: reason, nextRunAt: null });
  }

  /** The creator now, in the schedule's tenant; null when they are gone or no longer a member of it. */
  private async creatorOf(schedule: ScheduleRow): Promise<Identity | null> {
    const { identity } = await this.bus.request(USER_PRINCIPAL_RPC, { user_id: schedule.userId }, { timeoutMs: USER_PRINCIPAL_TIMEOUT_MS });
    if (!identity || !tenantRoleOf(identity, schedule.tenantId)) return null;
    return { ...identity, tenantId: schedule.tenantId };
  }

  private async owned(identity: Identity, id: string): Promise<ScheduleRow> {
    const row = await new ScheduleRepository(this.db).find(identity.tenantId, id);
    if (!row) throw scheduleNotFound(id);
    return row;
  }

  /**
   * A paused schedule once the run of a tick a scheduler claimed just before the pause is made:
   * the pause answers after it, so that the runs listed then are all there will be until a
   * resume. A scheduler that died holding the tick leaves it pending; the pause answers anyway
   * after `PAUSE_WAITS_FOR_FIRING_MS` (a paused schedule's left tick is never fired).
   */
  private async afterFiring(row: ScheduleRow): Promise<ScheduleRow> {
    const until = Date.now() + PAUSE_WAITS_FOR_FIRING_MS;
    let current = row;
    while (current.pendingTick && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      current = (await new ScheduleRepository(this.db).find(row.tenantId, row.id)) ?? current;
    }
    return current;
  }

  private async changed(identity: Identity, id: string, change: ScheduleChange): Promise<ScheduleRow> {
    const row = await new ScheduleRepository(this.db).update(identity.tenantId, id, change);
    if (!row) throw scheduleNotFound(id);
    return row;
  }

  private checkTimetable(timetable: Timetable): void {
    const zone = timezoneProblem(timetable.timezone);
    if (zone) throw new ValidationError(`timezone ${zone}`, { field: 'timezone', value: timetable.timezone, issue: zone });
    const cron = cronProblem(timetable.cron, timetable.timezone);
    if (cron) throw new ValidationError(`cron ${cron}`, { field: 'cron', value: timetable.cron, issue: cron });
  }

  /** The command must be one the caller may run, and the input must fit its schema now (checked again at each run). */
  private async checkCommand(identity: Identity, command: string, input: unknown): Promise<void> {
    try {
      const { namespace, command: name } = commandOf(command);
      await this.tasks.check(identity, { namespace, name, input });
    } catch (err) {
      if (err instanceof NotFoundError) throw new ValidationError(`command ${command} is not one you may run`, { field: 'command', value: command, issue: 'is not a command you may run' });
      if (err instanceof ValidationError) {
        const field = typeof err.details.field === 'string' && err.details.field !== 'input' ? `input.${err.details.field}` : 'input';
        throw new ValidationError(err.message, { ...err.details, field });
      }
      throw err;
    }
  }

  private checkTier(identity: Identity, timetable: Timetable, enabledNow: number): void {
    const limits = SCHEDULE_LIMITS[identity.tier];
    if (enabledNow >= limits.enabled) throw limitReached(`The ${identity.tier} tier keeps at most ${limits.enabled} schedules enabled`, { limit: limits.enabled, tier: identity.tier });
    const interval = shortestInterval(timetable, this.clock());
    if (interval < limits.minIntervalMinutes * 60_000) {
      const issue = `fires every ${Math.round(interval / 60_000)} min at times; the ${identity.tier} tier allows at most once every ${limits.minIntervalMinutes} min`;
      throw new ValidationError(`cron ${issue}`, { field: 'cron', value: timetable.cron, issue, min_interval_minutes: limits.minIntervalMinutes, tier: identity.tier });
    }
  }
}

function scheduleNotFound(id: string) {
  return new NotFoundError('Schedule not found', { schedule_id: id });
}

function limitReached(message: string, details: Record<string, unknown>) {
  return PermissionError.coded('SCHEDULE_LIMIT_REACHED', message, details);
}
