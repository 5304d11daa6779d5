import { Cron } from 'croner';
import { MAX_CRON_LENGTH, MAX_TIMEZONE_LENGTH } from './limits.js';

/** Names croner reads for the usual schedules, besides five-field expressions. */
export const CRON_NICKNAMES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'] as const;
/** Schedules a pack may propose in its `pack.yaml`. */
export const MAX_PROPOSED_SCHEDULES = 20;

/** A schedule a pack proposes (`schedules:` in `pack.yaml`): created paused for each tenant that installs it. */
export interface ProposedSchedule {
  /** A command of the pack, by name. */
  command: string;
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  description: string;
}

/** What is wrong with a time zone name, or undefined for an IANA zone the runtime knows. */
export function timezoneProblem(timezone: string): string | undefined {
  if (timezone.length === 0 || timezone.length > MAX_TIMEZONE_LENGTH) return `must be an IANA time zone name of 1-${MAX_TIMEZONE_LENGTH} characters`;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return undefined;
  } catch {
    return `"${timezone}" is not an IANA time zone such as UTC or Europe/Berlin`;
  }
}

/**
 * The cron of a schedule, parsed by croner in its time zone: five fields (minute, hour, day of
 * month, month, day of week) or one of `CRON_NICKNAMES`. Seconds and years, which croner also
 * reads, are refused: a schedule fires at most once a minute. Throws a RangeError naming the
 * problem; `cronProblem` answers it as text.
 *
 * @example
 *   scheduleCron('0 9 * * 1-5', 'Europe/Berlin').nextRun(new Date('2026-03-27T12:00:00Z')); // 2026-03-30T07:00:00Z
 */
export function scheduleCron(expression: string, timezone: string): Cron {
  const zone = timezoneProblem(timezone);
  if (zone) throw new RangeError(zone);
  const text = expression.trim();
  if (text.length === 0 || text.length > MAX_CRON_LENGTH) throw new RangeError(`must be a cron expression of 1-${MAX_CRON_LENGTH} characters`);
  const nickname = text.startsWith('@');
  if (nickname && !(CRON_NICKNAMES as readonly string[]).includes(text.toLowerCase())) throw new RangeError(`"${text}" is not one of ${CRON_NICKNAMES.join(', ')}`);
  if (!nickname && text.split(/\s+/).length !== 5) throw new RangeError(`"${text}" must have five fields (minute hour day-of-month month day-of-week) or be a name such as @hourly`);
  let cron: Cron;
  try {
    // No function: croner only computes times, it starts no timer.
    cron = new Cron(nickname ? text.toLowerCase() : text, { timezone, paused: true });
  } catch (err) {
    throw new RangeError(`"${text}" is not a valid cron expression: ${(err as Error).message.replace(/^CronPattern: /, '')}`);
  }
  if (!cron.nextRun(new Date())) throw new RangeError(`"${text}" never fires`);
  return cron;
}

/** What is wrong with a cron expression in a time zone, or undefined when it is usable. */
export function cronProblem(expression: string, timezone: string): string | undefined {
  try {
    scheduleCron(expression, timezone);
    return undefined;
  } catch (err) {
    if (err instanceof RangeError) return err.message;
    throw err;
  }
}
