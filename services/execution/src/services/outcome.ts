import type { TaskError, TaskStatus } from '../db/schema.js';

/** How a run ended, as the worker reports it to a waiting synchronous caller. */
export interface RunOutcome {
  task_id: string;
  status: Extract<TaskStatus, 'success' | 'failure' | 'timeout' | 'revoked'>;
  result?: unknown;
  error?: TaskError;
  duration_ms: number;
}
