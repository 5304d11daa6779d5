import type { Cron } from 'croner';
import { scheduleCron } from '@svc/pack-sdk';

/**
 * When a schedule fires: its ticks (cron in its time zone, croner doing the calendar and the
 * daylight-saving arithmetic), and what a scheduler does with a tick that came due. Pure: every
 * function takes the time it is asked at, so tests give it any clock.
 */

export type CatchUp = 'none' | 'latest';

export interface Timetable {
  cron: string;
  timezone: string;
}

/**
 * How late a tick may be and still count as on time: a scheduler polls every second or so, and a
 * replica that restarts within the minute has missed nothing. A tick older than this was missed
 * while no scheduler ran, and `catch_up` decides.
 */
export const ON_TIME_MS = 60_000;
/** Ticks looked at to find the shortest interval of a cron (croner takes about half a millisecond a tick in a zone). */
const INTERVAL_SAMPLES = 100;
/** Missed ticks counted one by one at most, after an outage; past it the count stops there. */
export const MAX_COUNTED_MISSES = 1000;

const crons = new Map<string, Cron>();

/** Parsed crons are kept: a scheduler asks for the same few again every tick. */
function cronOf(timetable: Timetable): Cron {
  const key = `${timetable.timezone} ${timetable.cron}`;
  let cron = crons.get(key);
  if (!cron) {
    cron = scheduleCron(timetable.cron, timetable.timezone);
    if (crons.size >= 1000) crons.clear();
    crons.set(key, cron);
  }
  return cron;
}

/** The first tick strictly after `after`; null when the cron never fires again. */
export function nextTick(timetable: Timetable, after: Date): Date | null {
  return cronOf(timetable).nextRun(after);
}

/** The last tick at or before `now` (`due` at least), and how many ticks came after `due` up to it (counted up to `MAX_COUNTED_MISSES`). */
function latestTick(timetable: Timetable, due: Date, now: Date): { tick: Date; passed: number } {
  // croner includes a tick earlier in the same second as the reference: ticks are whole minutes.
  const [previous] = cronOf(timetable).previousRuns(1, new Date(now.getTime() + 1));
  const tick = previous && previous.getTime() > due.getTime() ? previous : due;
  let passed = 0;
  for (let next = nextTick(timetable, due); next && next.getTime() <= tick.getTime() && passed < MAX_COUNTED_MISSES; next = nextTick(timetable, next)) passed += 1;
  return { tick, passed };
}

export interface DuePlan {
  /** The tick to fire a run for; null when none fires now. */
  fire: Date | null;
  /** The tick to claim next; null when the cron never fires again. */
  next: Date | null;
  /** Ticks that came due and fire nothing (missed while no scheduler ran). */
  missed: number;
}

/**
 * What a scheduler does at `now` with a schedule whose tick `due` has come (`due <= now`). The
 * ticks between `due` and now are those it missed while no scheduler ran: with `catch_up: none`
 * only a tick still on time fires (`ON_TIME_MS`); with `latest`, the latest tick fires, late or
 * not, standing for all of them. Either way the next claim is the first tick after now.
 *
 * @example
 *   planDue({ cron: '0 * * * *', timezone: 'UTC', catchUp: 'latest' }, new Date('2026-01-01T10:00Z'), new Date('2026-01-01T12:30Z'));
 *   // { fire: 12:00, next: 13:00, missed: 2 }
 */
export function planDue(schedule: Timetable & { catchUp: CatchUp }, due: Date, now: Date): DuePlan {
  const { tick: latest, passed } = latestTick(schedule, due, now);
  const onTime = now.getTime() - latest.getTime() <= ON_TIME_MS;
  const fire = schedule.catchUp === 'latest' || onTime ? latest : null;
  return { fire, next: nextTick(schedule, now), missed: passed + (fire ? 0 : 1) };
}

/** The shortest time between two ticks of a cron over its next `INTERVAL_SAMPLES` ticks, in ms; Infinity when it fires once at most. */
export function shortestInterval(timetable: Timetable, from: Date): number {
  const ticks = cronOf(timetable).nextRuns(INTERVAL_SAMPLES, from);
  let shortest = Infinity;
  for (let i = 1; i < ticks.length; i += 1) shortest = Math.min(shortest, ticks[i]!.getTime() - ticks[i - 1]!.getTime());
  return shortest;
}
