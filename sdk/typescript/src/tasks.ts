import { TaskFailedError, TimeoutError } from './errors.js';
import { sleep } from './transport.js';
import { TERMINAL_STATUSES, type Task } from './types.js';

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this long (a `TimeoutError`, code `CLIENT_TIMEOUT`); the task goes on. */
  timeoutMs?: number;
  /** First pause between polls (default 100 ms); it grows by half each time up to `maxIntervalMs` (default 2 s). */
  intervalMs?: number;
  maxIntervalMs?: number;
}

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** Polls `get` with a growing pause until the task is terminal, the deadline passes or `signal` aborts. */
export async function waitForTask(get: (signal?: AbortSignal) => Promise<Task>, taskId: string, options: WaitOptions = {}): Promise<Task> {
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  let pause = options.intervalMs ?? 100;
  for (;;) {
    const task = await get(options.signal);
    if (isTerminal(task.status)) return task;
    const left = deadline - Date.now();
    if (left <= 0) throw new TimeoutError(`task ${taskId} still ${task.status} after ${options.timeoutMs} ms`, { status: 0, code: 'CLIENT_TIMEOUT', details: { task_id: taskId, status: task.status } });
    await sleep(Math.min(pause, left), options.signal);
    pause = Math.min(pause * 1.5, options.maxIntervalMs ?? 2000);
  }
}

/** The result of a terminal task, or its failure as a `TaskFailedError`. */
export function resultOf(task: Task): unknown {
  if (task.status === 'success') return task.result;
  const error = (task.error ?? undefined) as { message?: string; type?: string } | undefined;
  const code = task.status === 'timeout' ? 'TIMEOUT' : task.status === 'revoked' ? 'TASK_REVOKED' : 'TASK_FAILED';
  throw new TaskFailedError(error?.message ?? `task ${task.task_id} ended ${task.status}`, { status: 0, code, type: error?.type, details: { task_id: task.task_id, status: task.status }, correlationId: task.correlation_id ?? undefined }, task);
}
