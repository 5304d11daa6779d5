import { z } from 'zod';
import { Timestamp } from './responses.js';

export const ComponentStatus = z.enum(['healthy', 'degraded', 'unhealthy']);
export type ComponentStatus = z.infer<typeof ComponentStatus>;

/** What the execution worker that answered the gateway's last check says of itself. */
export const WorkerDetails = z
  .object({
    python: z
      .object({ interpreter: z.string().meta({ description: 'Its path (`SVC_PYTHON`).' }), version: z.string().meta({ description: 'e.g. `3.11.2`.' }) })
      .nullable()
      .meta({ description: 'The interpreter Python packs run on; null when the worker has none.' }),
  })
  .meta({ description: 'What the execution worker that answered says of itself.' });
export type WorkerDetails = z.infer<typeof WorkerDetails>;

/** The gateway's `GET /health`, the spec's bare object. */
export const Health = z
  .object({
    status: ComponentStatus,
    version: z.string().meta({ description: 'The platform version.' }),
    services: z.object({ database: ComponentStatus, cache: ComponentStatus, worker: ComponentStatus }),
    details: z.object({ worker: WorkerDetails }).optional().meta({ description: 'Present when a worker answered.' }),
    timestamp: Timestamp,
  })
  .meta({ id: 'Health', description: 'A bare object, without the envelope.' });
export type Health = z.infer<typeof Health>;
