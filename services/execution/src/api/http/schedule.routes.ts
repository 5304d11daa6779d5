import { Router } from 'express';
import { requireIdentity } from '@svc/auth';
import { CreateScheduleBody, ListSchedulesQuery, ScheduleParams, ScheduleRunsQuery, UpdateScheduleBody } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { ScheduleService } from '../services/schedule.service.js';

/** `/api/v1/schedules`: the caller's tenant's schedules and their runs. */
export function scheduleRoutes(schedules: ScheduleService): Router {
  const router = Router();
  const idOf = (params: unknown) => parseInput(ScheduleParams, params, 'path').id;

  router.post('/schedules', async (req, res) => {
    res.status(201).json(ok(await schedules.create(requireIdentity(req), parseInput(CreateScheduleBody, req.body ?? {}))));
  });
  router.get('/schedules', async (req, res) => {
    res.json(ok(await schedules.list(requireIdentity(req), parseInput(ListSchedulesQuery, req.query, 'query'))));
  });
  router.get('/schedules/:id', async (req, res) => {
    res.json(ok(await schedules.get(requireIdentity(req), idOf(req.params))));
  });
  router.patch('/schedules/:id', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await schedules.update(identity, idOf(req.params), parseInput(UpdateScheduleBody, req.body ?? {}))));
  });
  router.delete('/schedules/:id', async (req, res) => {
    res.json(ok(await schedules.delete(requireIdentity(req), idOf(req.params))));
  });
  router.post('/schedules/:id/pause', async (req, res) => {
    res.json(ok(await schedules.pause(requireIdentity(req), idOf(req.params))));
  });
  router.post('/schedules/:id/resume', async (req, res) => {
    res.json(ok(await schedules.resume(requireIdentity(req), idOf(req.params))));
  });
  router.post('/schedules/:id/trigger', async (req, res) => {
    res.status(202).json(ok(await schedules.trigger(requireIdentity(req), idOf(req.params))));
  });
  router.get('/schedules/:id/runs', async (req, res) => {
    const identity = requireIdentity(req);
    res.json(ok(await schedules.runs(identity, idOf(req.params), parseInput(ScheduleRunsQuery, req.query, 'query'))));
  });
  return router;
}
