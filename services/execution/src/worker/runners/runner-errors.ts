import { AppError, ServiceUnavailableError } from '@svc/core';
import type { ErrorDescription } from './runner-protocol.js';

/**
 * The command threw. `type` is the class name of what it threw (shown as `error.type`), the
 * message is the pack's own; `details.code` carries a Node error code such as
 * `ERR_ACCESS_DENIED` when there is one.
 */
export class CommandError extends AppError {
  constructor(error: ErrorDescription) {
    super({ status: 422, code: 'COMMAND_FAILED', type: error.type, message: error.message, details: error.code ? { code: error.code } : {} });
  }
}

/** The command ran past its timeout; its runner is retired and killed. */
export class CommandTimeoutError extends AppError {
  constructor(timeoutMs: number) {
    super({ status: 408, code: 'TIMEOUT', message: `Command timed out after ${timeoutMs} ms`, details: { timeout_ms: timeoutMs } });
  }
}

/** The caller cancelled the call; `ctx.signal` was aborted in the runner. */
export class CommandCancelledError extends AppError {
  constructor() {
    super({ status: 409, code: 'COMMAND_CANCELLED', message: 'Command was cancelled' });
  }
}

/** Why a runner went away under a call. */
export type RunnerStopReason = 'out_of_memory' | 'exited' | 'start_failed' | 'unresponsive' | 'retired' | 'evicted' | 'shutdown' | 'idle' | 'protocol_violation' | 'output_flood';

const STOP_MESSAGES: Record<RunnerStopReason, string> = {
  out_of_memory: 'ran out of memory',
  exited: 'exited unexpectedly',
  start_failed: 'failed to start',
  unresponsive: 'was killed because a cancelled or timed-out call did not stop',
  retired: 'was retired after a cancelled or timed-out call',
  evicted: 'was stopped because the pack was uninstalled',
  shutdown: 'was stopped because the service is shutting down',
  idle: 'was reaped while idle',
  protocol_violation: 'was killed because it broke its channel protocol',
  output_flood: 'was killed because it flooded its output',
};

/** The runner process died or was stopped while the call was queued or running. */
export class RunnerCrashedError extends AppError {
  readonly reason: RunnerStopReason;

  constructor(reason: RunnerStopReason, details: Record<string, unknown> = {}) {
    super({ status: 500, code: 'RUNNER_CRASHED', message: `The pack runner ${STOP_MESSAGES[reason]}`, details: { reason, ...details } });
    this.reason = reason;
  }
}

/**
 * A Python pack's `python:` range leaves out this worker's interpreter: the registry checked the
 * fleet's at publish, and this worker runs another (a fleet in the middle of an upgrade).
 */
export class PythonVersionError extends AppError {
  constructor(range: string, version: string) {
    super({ status: 422, code: 'PYTHON_VERSION_UNSUPPORTED', message: `This pack runs on Python ${range}; this worker runs Python ${version}`, details: { python: range, worker_python: version } });
  }
}

/** The result's JSON is larger than the limit. */
export class ResultTooLargeError extends AppError {
  constructor(limitBytes: number, sizeBytes?: number) {
    const size = sizeBytes === undefined ? {} : { size_bytes: sizeBytes };
    super({ status: 422, code: 'RESULT_TOO_LARGE', message: `Command result exceeds ${limitBytes} bytes of JSON`, details: { limit_bytes: limitBytes, ...size } });
  }
}

/** Why a call could not have a runner now: its tenant's share, or the whole pool, is taken. */
export type BusyReason = 'tenant_calls' | 'tenant_runners' | 'pool_full';

const BUSY_MESSAGES: Record<BusyReason, string> = {
  tenant_calls: 'Your tenant is running as many commands at once as its plan allows on this worker; try again shortly',
  tenant_runners: 'Your tenant has as many pack runners as its plan allows on this worker; try again shortly',
  pool_full: 'Every pack runner is busy; try again shortly',
};

/** Seconds a caller refused for want of a runner is asked to wait (`Retry-After`). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * The call was not started: its tenant holds its share of the worker (calls or runners), or every
 * runner is busy. Nothing ran; a task waits and is tried again, a synchronous caller gets 503
 * with `Retry-After`.
 */
export class RunnersBusyError extends ServiceUnavailableError {
  readonly reason: BusyReason;

  constructor(reason: BusyReason, limit: number) {
    super(BUSY_MESSAGES[reason], { reason, limit, retry_after: BUSY_RETRY_AFTER_SECONDS });
    this.reason = reason;
  }
}
