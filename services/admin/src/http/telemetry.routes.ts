import { Router } from 'express';
import { TelemetryRecord } from '@svc/contracts';
import { ok, parseInput } from '@svc/core';
import type { TelemetryService } from '../services/telemetry.service.js';

/** `POST /api/v1/telemetry`: public and anonymous; the caller's identity is never looked at. */
export function telemetryRoutes(telemetry: TelemetryService): Router {
  const router = Router();

  router.post('/telemetry', async (req, res) => {
    const record = parseInput(TelemetryRecord, req.body);
    res.json(ok(await telemetry.record(record)));
  });

  return router;
}
