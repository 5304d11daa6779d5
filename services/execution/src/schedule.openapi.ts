import { z } from 'zod';
import { CreateScheduleBody, Deleted, ListSchedulesQuery, SchedulePage, ScheduleRunPage, ScheduleRunsQuery, UpdateScheduleBody } from '@svc/contracts';
import { dataResponse, errorResponse, fromZod, pathParameter, queryParameters, ref, uuid, type OpenApiFragment } from '@svc/openapi';
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
        200: dataResponse('A page of schedules.', SchedulePage),
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
      responses: { 200: dataResponse('Deleted.', Deleted.extend({ id: z.uuid() })), 404: notFound },
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
      responses: { 202: dataResponse('The run.', z.object({ task_id: z.uuid(), status: z.string(), status_url: z.string() })), 404: notFound },
    },
  },
  '/api/v1/schedules/{id}/runs': {
    get: {
      operationId: 'listScheduleRuns',
      summary: 'A schedule\'s runs, newest first',
      tags: ['Schedules'],
      parameters: [scheduleId, ...queryParameters(ScheduleRunsQuery)],
      responses: {
        200: dataResponse('A page of runs.', ScheduleRunPage),
        400: errorResponse('`VALIDATION_FAILED`: a bad `page` or `limit`.'),
        404: notFound,
      },
    },
  },
};
