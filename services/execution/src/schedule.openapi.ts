import { CreateScheduleBody, ListSchedulesQuery, SCHEDULE_CATCH_UPS, SCHEDULE_OVERLAPS, SCHEDULE_PAUSE_REASONS, ScheduleRunsQuery, UpdateScheduleBody } from '@svc/contracts';
import { arrayOf, dataResponse, dateTime, enumOf, errorResponse, fromZod, integer, nullable, object, pathParameter, queryParameters, ref, string, uuid, boolean, constant, type OpenApiFragment, type SchemaObject } from '@svc/openapi';
import { SCHEDULE_LIMITS } from './api/services/schedule-limits.js';

const scheduleId = pathParameter('id', uuid, 'The schedule\'s id.');
const notFound = errorResponse('`NOT_FOUND`: no such schedule in the caller\'s tenant (another tenant\'s is not found either).');
const limits = Object.entries(SCHEDULE_LIMITS)
  .map(([tier, limit]) => `${tier}: ${limit.enabled} enabled, at most once every ${limit.minIntervalMinutes} min`)
  .join('; ');
const badBody = errorResponse(
  `\`VALIDATION_FAILED\` with \`details.field\`: a malformed body; a cron croner cannot read, or one firing more often than the tier allows (${limits}) (\`cron\`); an unknown IANA time zone (\`timezone\`); a command the caller may not run (\`command\`); an input its schema refuses (\`input.…\`).`,
);
const limitReached = errorResponse('`SCHEDULE_LIMIT_REACHED`: the tenant has as many enabled schedules as its tier allows (`details.limit`, `details.tier`).');

/** The schedule's schemas; its runs are tasks (`task`: a task's fields) with the tick they were fired for. */
export const scheduleSchemas = (task: Record<string, SchemaObject>): Record<string, SchemaObject> => ({
  Schedule: object({
    id: uuid,
    command: string({ description: '`namespace.name`.' }),
    input: { type: 'object', description: 'The input each run is given.' },
    cron: string({ description: 'Five fields, or @hourly, @daily, @weekly, @monthly, @yearly.' }),
    timezone: string({ description: 'IANA time zone the cron is read in.' }),
    enabled: boolean(),
    overlap: enumOf(SCHEDULE_OVERLAPS, { description: '`skip`: a tick while the last run is unfinished fires nothing; `queue`: it fires anyway.' }),
    catch_up: enumOf(SCHEDULE_CATCH_UPS, { description: 'Ticks missed while no scheduler ran: `none` fires none of them, `latest` fires the latest once.' }),
    description: string(),
    // An enum that allows null lists it (OpenAPI 3.0: `nullable` does not add null to `enum`).
    paused_reason: { ...nullable(enumOf(SCHEDULE_PAUSE_REASONS)), enum: [...SCHEDULE_PAUSE_REASONS, null], description: 'Why it is paused: by a person, proposed by a pack, or by itself (its creator or its command out of reach); null while enabled.' },
    next_run_at: nullable(dateTime),
    last_run_at: nullable(dateTime),
    last_task_id: nullable(uuid),
    missed_ticks: integer({ minimum: 0 }),
    skipped_ticks: integer({ minimum: 0 }),
    proposed_by: nullable(string({ description: '`@namespace/pack` when a pack proposed it.' })),
    created_by: uuid,
    created_at: dateTime,
    updated_at: dateTime,
  }),
  ScheduleRun: object({
    ...task,
    scheduled_for: nullable({ ...dateTime, description: 'The tick it was fired for; null when triggered by hand.' }),
    created_at: dateTime,
  }),
});

const schedule = dataResponse('The schedule.', ref('Schedule'));
const action = (operationId: string, summary: string, description: string) => ({
  operationId,
  summary,
  description,
  tags: ['Schedules'],
  parameters: [scheduleId],
  responses: { 200: schedule, 400: badBody, 403: limitReached, 404: notFound },
});

/** The schedules' paths of execution's fragment (README "Schedules"). */
export const schedulePaths: OpenApiFragment['paths'] = {
  '/api/v1/schedules': {
    post: {
      operationId: 'createSchedule',
      summary: 'Run a command on a cron',
      description: 'Runs are tasks of the caller in their tenant. The input is checked against the command\'s schema now and again at each run.',
      tags: ['Schedules'],
      requestBody: { required: true, content: { 'application/json': { schema: fromZod(CreateScheduleBody) } } },
      responses: { 201: dataResponse('Created.', ref('Schedule')), 400: badBody, 403: limitReached },
    },
    get: {
      operationId: 'listSchedules',
      summary: 'Your tenant\'s schedules, newest first',
      tags: ['Schedules'],
      parameters: queryParameters(ListSchedulesQuery),
      responses: {
        200: dataResponse('A page of schedules.', object({ schedules: arrayOf(ref('Schedule')), total: integer({ minimum: 0 }), page: integer({ minimum: 1 }), pages: integer({ minimum: 0 }) })),
        400: errorResponse('`VALIDATION_FAILED`: a bad `page`, `limit` or `enabled`.'),
      },
    },
  },
  '/api/v1/schedules/{id}': {
    get: { operationId: 'getSchedule', summary: 'A schedule', tags: ['Schedules'], parameters: [scheduleId], responses: { 200: schedule, 404: notFound } },
    patch: {
      ...action('updateSchedule', 'Change any field of a schedule', 'A new command or input is checked again; a new cron or time zone moves the next tick; `enabled` pauses or resumes.'),
      requestBody: { required: true, content: { 'application/json': { schema: fromZod(UpdateScheduleBody) } } },
    },
    delete: {
      operationId: 'deleteSchedule',
      summary: 'Delete a schedule (its runs stay tasks)',
      tags: ['Schedules'],
      parameters: [scheduleId],
      responses: { 200: dataResponse('Deleted.', object({ id: uuid, deleted: constant(true) })), 404: notFound },
    },
  },
  '/api/v1/schedules/{id}/pause': { post: action('pauseSchedule', 'Pause a schedule', 'No tick fires until it is resumed.') },
  '/api/v1/schedules/{id}/resume': {
    post: action('resumeSchedule', 'Resume a schedule (or turn on a pack\'s proposal)', 'It fires from its next tick; ticks while it was paused are not caught up. The command and input are checked again, and the tier\'s limits apply.'),
  },
  '/api/v1/schedules/{id}/trigger': {
    post: {
      operationId: 'triggerSchedule',
      summary: 'One run now',
      description: 'A task of the caller, whatever the schedule\'s state and overlap; an input the command now refuses gives a failed run.',
      tags: ['Schedules'],
      parameters: [scheduleId],
      responses: { 202: dataResponse('The run.', object({ task_id: uuid, status: string(), status_url: string() })), 404: notFound },
    },
  },
  '/api/v1/schedules/{id}/runs': {
    get: {
      operationId: 'listScheduleRuns',
      summary: 'A schedule\'s runs, newest first',
      tags: ['Schedules'],
      parameters: [scheduleId, ...queryParameters(ScheduleRunsQuery)],
      responses: {
        200: dataResponse('A page of runs.', object({ runs: arrayOf(ref('ScheduleRun')), total: integer({ minimum: 0 }), page: integer({ minimum: 1 }), pages: integer({ minimum: 0 }) })),
        400: errorResponse('`VALIDATION_FAILED`: a bad `page` or `limit`.'),
        404: notFound,
      },
    },
  },
};
