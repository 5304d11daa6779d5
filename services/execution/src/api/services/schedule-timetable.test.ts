import { describe, expect, it } from 'vitest';
import { MAX_COUNTED_MISSES, nextTick, ON_TIME_MS, planDue, shortestInterval } from './schedule-timetable.js';

const at = (iso: string) => new Date(iso);
/** The ticks after `from`, `n` of them. */
function ticks(timetable: { cron: string; timezone: string }, from: string, n: number): string[] {
  const out: string[] = [];
  let cursor = at(from);
  for (let i = 0; i < n; i += 1) {
    cursor = nextTick(timetable, cursor)!;
    out.push(cursor.toISOString());
  }
  return out;
}

describe('ticks of a cron in its time zone', () => {
  it('fires every minute, each tick strictly after the last', () => {
    expect(ticks({ cron: '* * * * *', timezone: 'UTC' }, '2026-05-01T10:00:00Z', 3)).toEqual(['2026-05-01T10:01:00.000Z', '2026-05-01T10:02:00.000Z', '2026-05-01T10:03:00.000Z']);
  });

  it('reads @hourly and @daily', () => {
    expect(ticks({ cron: '@hourly', timezone: 'UTC' }, '2026-05-01T10:30:00Z', 2)).toEqual(['2026-05-01T11:00:00.000Z', '2026-05-01T12:00:00.000Z']);
    expect(ticks({ cron: '@daily', timezone: 'Europe/Berlin' }, '2026-05-01T10:30:00Z', 1)).toEqual(['2026-05-01T22:00:00.000Z']);
  });

  it('keeps 09:00 in Europe/Berlin at 09:00 local across the spring change (UTC+1 → UTC+2)', () => {
    // Daylight saving starts on Sunday 2026-03-29 at 02:00 local.
    expect(ticks({ cron: '0 9 * * *', timezone: 'Europe/Berlin' }, '2026-03-27T12:00:00Z', 3)).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });

  it('has a 23-hour and a 25-hour day of hourly ticks in Europe/Berlin, and fires 02:30 once on the autumn day', () => {
    // From a minute before local midnight: midnight to midnight on 2026-03-29 is 23 hours.
    const spring = ticks({ cron: '0 * * * *', timezone: 'Europe/Berlin' }, '2026-03-28T22:59:00Z', 24);
    expect(spring.filter((t) => t < '2026-03-29T22:00:00.000Z')).toHaveLength(23);
    const autumn = ticks({ cron: '0 * * * *', timezone: 'Europe/Berlin' }, '2026-10-24T21:59:00Z', 26);
    expect(autumn.filter((t) => t < '2026-10-25T23:00:00.000Z')).toHaveLength(25);
    // 02:30 happens twice on 2026-10-25 (CEST, then CET); a daily 02:30 fires on one of them only.
    expect(ticks({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('fires a time the spring change leaves out once, as the clock jumps past it, as cron does', () => {
    // 02:30 does not exist in Berlin on 2026-03-29: the run comes at 03:00 local (01:00 UTC), once.
    expect(ticks({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, '2026-03-28T12:00:00Z', 2)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
  });
});

describe('a due tick, with the clock given', () => {
  const hourly = { cron: '0 * * * *', timezone: 'UTC' };

  it('fires a tick on time, and claims the next one', () => {
    for (const catchUp of ['none', 'latest'] as const) {
      expect(planDue({ ...hourly, catchUp }, at('2026-05-01T10:00:00Z'), at('2026-05-01T10:00:01Z'))).toEqual({ fire: at('2026-05-01T10:00:00Z'), next: at('2026-05-01T11:00:00Z'), missed: 0 });
    }
  });

  it('counts a tick a little late as on time', () => {
    const plan = planDue({ ...hourly, catchUp: 'none' }, at('2026-05-01T10:00:00Z'), new Date(at('2026-05-01T10:00:00Z').getTime() + ON_TIME_MS));
    expect(plan.fire).toEqual(at('2026-05-01T10:00:00Z'));
  });

  it('catch_up none: ticks missed while down fire nothing, and the schedule goes on from the next', () => {
    // Down from 09:50 to 12:30: the 10:00, 11:00 and 12:00 ticks were missed.
    expect(planDue({ ...hourly, catchUp: 'none' }, at('2026-05-01T10:00:00Z'), at('2026-05-01T12:30:00Z'))).toEqual({ fire: null, next: at('2026-05-01T13:00:00Z'), missed: 3 });
  });

  it('catch_up latest: the latest missed tick fires once, standing for the others', () => {
    expect(planDue({ ...hourly, catchUp: 'latest' }, at('2026-05-01T10:00:00Z'), at('2026-05-01T12:30:00Z'))).toEqual({ fire: at('2026-05-01T12:00:00Z'), next: at('2026-05-01T13:00:00Z'), missed: 2 });
  });

  it('finds the latest tick of a long outage of a frequent cron at once, and counts the missed ones up to a bound', () => {
    const plan = planDue({ cron: '* * * * *', timezone: 'UTC', catchUp: 'latest' }, at('2026-01-01T00:00:00Z'), at('2026-03-01T00:00:30Z'));
    expect(plan).toEqual({ fire: at('2026-03-01T00:00:00Z'), next: at('2026-03-01T00:01:00Z'), missed: MAX_COUNTED_MISSES });
  });
});

describe('the shortest interval of a cron', () => {
  it('is the smallest gap between ticks, not the usual one', () => {
    expect(shortestInterval({ cron: '*/15 * * * *', timezone: 'UTC' }, at('2026-05-01T00:00:00Z'))).toBe(15 * 60_000);
    expect(shortestInterval({ cron: '0,5 * * * *', timezone: 'UTC' }, at('2026-05-01T00:00:00Z'))).toBe(5 * 60_000);
    expect(shortestInterval({ cron: '@daily', timezone: 'UTC' }, at('2026-05-01T00:00:00Z'))).toBe(86_400_000);
  });
});
