import { z } from 'zod';
import { MAX_CRON_LENGTH, MAX_TIMEZONE_LENGTH } from '@svc/pack-sdk/limits';
import { NAME_PATTERN, NAMESPACE_PATTERN } from '@svc/pack-sdk/names';
import { Task } from './execution.js';
import { Timestamp } from './responses.js';

export const SCHEDULE_OVERLAPS = ['skip', 'queue'] as const;
export const SCHEDULE_CATCH_UPS = ['none', 'latest'] as const;
/** Why a schedule is paused: by a person, proposed by a pack, or by itself when its creator or command went out of reach. */
export const SCHEDULE_PAUSE_REASONS = ['paused', 'proposed_by_pack', 'creator_unavailable', 'command_unavailable'] as const;
export type SchedulePauseReason = (typeof SCHEDULE_PAUSE_REASONS)[number];

export const SCHEDULE_DESCRIPTION_MAX = 500;
/** Largest input a schedule keeps, as JSON text. */
export const SCHEDULE_INPUT_MAX_BYTES = 64 * 1024;
export const SCHEDULE_RUNS_LIMIT_MAX = 100;
export const SCHEDULE_RUNS_LIMIT_DEFAULT = 20;
export const SCHEDULES_LIMIT_MAX = 100;

/** `namespace.name`, as Part 1's events name commands. */
export const ScheduleCommand = z
  .string()
  .max(100)
  .refine((value) => {
    const [namespace, name, ...rest] = value.split('.');
    return rest.length === 0 && namespace !== undefined && name !== undefined && NAMESPACE_PATTERN.test(namespace) && NAME_PATTERN.test(name);
  }, 'must be "namespace.name", e.g. "acme.report"');

const Input = z
  .record(z.string(), z.unknown(), 'must be a JSON object')
  .refine((input) => Buffer.byteLength(JSON.stringify(input)) <= SCHEDULE_INPUT_MAX_BYTES, `must be at most ${SCHEDULE_INPUT_MAX_BYTES} bytes as JSON`);
const Cron = z.string().trim().min(1, 'must not be empty').max(MAX_CRON_LENGTH, `must be at most ${MAX_CRON_LENGTH} characters`);
const Timezone = z.string().min(1, 'must not be empty').max(MAX_TIMEZONE_LENGTH, `must be at most ${MAX_TIMEZONE_LENGTH} characters`);
const Description = z
  .string()
  .max(SCHEDULE_DESCRIPTION_MAX, `must be at most ${SCHEDULE_DESCRIPTION_MAX} characters`)
  .refine((text) => !text.includes('\u0000'), 'must not contain the NUL character');

/** `POST /api/v1/schedules`. The cron and time zone are checked by the service (croner), which names the field. */
export const CreateScheduleBody = z.strictObject({
  command: ScheduleCommand,
  input: Input.default({}),
  cron: Cron,
  timezone: Timezone.default('UTC'),
  enabled: z.boolean().default(true),
  overlap: z.enum(SCHEDULE_OVERLAPS, 'must be "skip" or "queue"').default('skip'),
  catch_up: z.enum(SCHEDULE_CATCH_UPS, 'must be "none" or "latest"').default('none'),
  description: Description.default(''),
});
export type CreateScheduleBody = z.output<typeof CreateScheduleBody>;

/** `PATCH /api/v1/schedules/{id}`: any field of the creation body, at least one. */
export const UpdateScheduleBody = z
  .strictObject({
    command: ScheduleCommand,
    input: Input,
    cron: Cron,
    timezone: Timezone,
    enabled: z.boolean(),
    overlap: z.enum(SCHEDULE_OVERLAPS, 'must be "skip" or "queue"'),
    catch_up: z.enum(SCHEDULE_CATCH_UPS, 'must be "none" or "latest"'),
    description: Description,
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field');
export type UpdateScheduleBody = z.output<typeof UpdateScheduleBody>;

export const ScheduleParams = z.object({ id: z.uuid('must be a schedule id (uuid)') });

const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

export const ListSchedulesQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(SCHEDULES_LIMIT_MAX).default(SCHEDULE_RUNS_LIMIT_DEFAULT),
  enabled: QueryBoolean.optional(),
});

export const ScheduleRunsQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(SCHEDULE_RUNS_LIMIT_MAX).default(SCHEDULE_RUNS_LIMIT_DEFAULT),
});

export const Schedule = z
  .object({
    id: z.uuid(),
    command: z.string().meta({ description: '`namespace.name`.' }),
    input: z.record(z.string(), z.unknown()).meta({ description: 'The input each run is given.' }),
    cron: z.string().meta({ description: 'Five fields, or @hourly, @daily, @weekly, @monthly, @yearly.' }),
    timezone: z.string().meta({ description: 'IANA time zone the cron is read in.' }),
    enabled: z.boolean(),
    overlap: z.enum(SCHEDULE_OVERLAPS).meta({ description: '`skip`: a tick while the last run is unfinished fires nothing; `queue`: it fires anyway.' }),
    catch_up: z.enum(SCHEDULE_CATCH_UPS).meta({ description: 'Ticks missed while no scheduler ran: `none` fires none of them, `latest` fires the latest once.' }),
    description: z.string(),
    paused_reason: z
      .enum(SCHEDULE_PAUSE_REASONS)
      .nullable()
      .meta({ description: 'Why it is paused: by a person, proposed by a pack, or by itself (its creator or its command out of reach); null while enabled.' }),
    next_run_at: Timestamp.nullable(),
    last_run_at: Timestamp.nullable(),
    last_task_id: z.uuid().nullable(),
    missed_ticks: z.number().int().min(0),
    skipped_ticks: z.number().int().min(0),
    proposed_by: z.string().nullable().meta({ description: '`@namespace/pack` when a pack proposed it.' }),
    created_by: z.uuid(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof Schedule>;

/** A schedule's run: a task, with the tick it was fired for. */
export const ScheduleRun = Task.extend({
  scheduled_for: Timestamp.nullable().meta({ description: 'The tick it was fired for; null when triggered by hand.' }),
  created_at: Timestamp,
}).meta({ id: 'ScheduleRun' });
export type ScheduleRun = z.infer<typeof ScheduleRun>;

/** `GET /api/v1/schedules`: a page of the tenant's schedules. */
export const SchedulePage = z.object({ schedules: z.array(Schedule), total: z.number().int().min(0), page: z.number().int().min(1), pages: z.number().int().min(0) });

/** `GET /api/v1/schedules/{id}/runs`: a page of a schedule's runs, newest first. */
export const ScheduleRunPage = z.object({ runs: z.array(ScheduleRun), total: z.number().int().min(0), page: z.number().int().min(1), pages: z.number().int().min(0) });
