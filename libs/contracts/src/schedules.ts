import { z } from 'zod';
import { MAX_CRON_LENGTH, MAX_TIMEZONE_LENGTH, NAME_PATTERN, NAMESPACE_PATTERN } from '@svc/pack-sdk';

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
