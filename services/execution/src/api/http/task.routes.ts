import { Router, type Response } from 'express';
import { requireIdentity } from '@svc/auth';
import { z } from 'zod';
import { AppError, ConflictError, IntegrationError, TimeoutError, errorBody, correlationOf, ok, parseInput, ValidationError } from '@svc/core';
import type { Request } from 'express';
import type { RunOutcome } from '@svc/contracts';
import type { RunAnswer, TaskService } from '../services/task.service.js';
import { statusUrl } from '../../core/task-view.js';
import { TASK_STATUSES } from '../../db/schema.js';

/** Most tasks one page of `GET /tasks` lists. */
export const TASK_LIST_MAX = 100;

/** `GET /tasks?status=&limit=`: the caller's own tasks, newest first. */
export const TaskListQuery = z.strictObject({
  status: z.enum(TASK_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(TASK_LIST_MAX).default(20),
});

/** Longest `Idempotency-Key` accepted. */
export const IDEMPOTENCY_KEY_MAX = 255;

export function wantsAsync(req: Request): boolean {
  const query = req.query.async;
  if (query !== undefined && query !== 'true' && query !== 'false') throw new ValidationError('async must be true or false', { field: 'async', value: query });
  return query === 'true' || /\brespond-async\b/i.test(String(req.headers.prefer ?? ''));
}

/** `?logs=true`: the answer carries what the run logged (`logs`; on a failure, `error.details.logs`). */
export function wantsLogs(req: Request): boolean {
  const query = req.query.logs;
  if (query !== undefined && query !== 'true' && query !== 'false') throw new ValidationError('logs must be true or false', { field: 'logs', value: query });
  return query === 'true';
}

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError(`Idempotency-Key must be 1-${IDEMPOTENCY_KEY_MAX} visible ASCII characters`, { field: 'Idempotency-Key' });
  }
  return key;
}

/** A finished run as HTTP: 200 with the result, or the error a client can act on (with the run's logs in its details when asked). */
function outcomeError(outcome: RunOutcome, withLogs: boolean): AppError | undefined {
  if (outcome.status === 'success') return undefined;
  const details = { task_id: outcome.task_id, ...(withLogs ? { logs: outcome.logs ?? [] } : {}) };
  if (outcome.status === 'timeout') return new TimeoutError(outcome.error?.message ?? 'Command timed out', details);
  if (outcome.status === 'revoked') return ConflictError.coded('TASK_REVOKED', 'The task was cancelled', details);
  const error = outcome.error ?? { type: 'IntegrationError', message: 'Command failed' };
  // error.type is the command's own exception class, which the caller is shown.
  return new IntegrationError(error.message, details, { type: error.type });
}

/** A run's answer: 200 with the result, 202 with a task to poll, or the outcome's error. */
export function sendRunAnswer(req: Request, res: Response, answer: RunAnswer, withLogs: boolean): void {
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  if (answer.kind === 'task') {
    res.status(202).setHeader('Location', statusUrl(answer.task.id));
    res.json(ok({ task_id: answer.task.id, status: 'pending', status_url: statusUrl(answer.task.id) }));
    return;
  }
  const error = outcomeError(answer.outcome, withLogs);
  if (error) {
    res.status(error.status).json(errorBody(error, correlationOf(req)));
    return;
  }
  const execution = { duration_ms: Math.round(answer.outcome.duration_ms), status: 'completed' };
  res.json(ok({ result: answer.outcome.result ?? null, execution, ...(withLogs ? { logs: answer.outcome.logs ?? [] } : {}) }));
}

/**
 * Running a command and the task it may become: `POST /commands/{namespace}/{name}` answers with
 * the outcome or a task; the task endpoints answer with `success: true` beside `data`, as the spec
 * shows them.
 */
export function taskRoutes(tasks: TaskService): Router {
  const router = Router();
  router.post('/commands/:namespace/:name', async (req, res) => {
    const identity = requireIdentity(req);
    // Read before the run, so that a bad value is refused before anything runs.
    const withLogs = wantsLogs(req);
    const answer = await tasks.run(identity, {
      namespace: req.params.namespace,
      name: req.params.name,
      input: req.body ?? {},
      preferAsync: wantsAsync(req),
      idempotencyKey: idempotencyKeyOf(req),
    });
    sendRunAnswer(req, res, answer, withLogs);
  });
  router.get('/tasks', async (req, res) => {
    res.json({ success: true, data: await tasks.list(requireIdentity(req), parseInput(TaskListQuery, req.query)) });
  });
  router.get('/tasks/:taskId', async (req, res) => {
    res.json({ success: true, data: await tasks.get(requireIdentity(req), req.params.taskId) });
  });
  router.post('/tasks/:taskId/cancel', async (req, res) => {
    res.json({ success: true, data: await tasks.cancel(requireIdentity(req), req.params.taskId) });
  });
  return router;
}

