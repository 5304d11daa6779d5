import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import type { TaskService } from '../services/task.service.js';

/** Task endpoints answer with `success: true` beside `data`, as the spec shows them. */
export function taskRoutes(tasks: TaskService): Router {
  const router = Router();
  router.get('/tasks/:taskId', async (req, res) => {
    res.json({ success: true, data: await tasks.get(requireIdentity(req), req.params.taskId) });
  });
  router.post('/tasks/:taskId/cancel', async (req, res) => {
    res.json({ success: true, data: await tasks.cancel(requireIdentity(req), req.params.taskId) });
  });
  return router;
}
