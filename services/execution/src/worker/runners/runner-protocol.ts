/**
 * Messages between the execution service and a pack runner (`runner/runner.mjs`), which is
 * plain JavaScript and mirrors these shapes. Everything a runner sends is untrusted: the
 * parent checks shapes and only ever acts on calls in flight on that very runner.
 */

/** Who a call runs for; the runner shows it to the command as `ctx.tenant`, `ctx.user`, … */
export interface CallContext {
  tenant: string;
  user: string;
  correlationId: string;
}

/** A thrown error as it crosses the process boundary. */
export interface ErrorDescription {
  /** Class name of the thrown value, e.g. `TypeError`. */
  type: string;
  message: string;
  /** `error.code` when it is a string, e.g. `ERR_ACCESS_DENIED`. */
  code?: string;
}

export type CancelReason = 'cancelled' | 'timeout';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type ParentMessage =
  | { type: 'run'; id: number; command: string; entry: string; input: unknown; context: CallContext }
  | { type: 'cancel'; id: number; reason: CancelReason }
  | { type: 'hook-result'; callId: number; ok: true; value: unknown }
  | { type: 'hook-result'; callId: number; ok: false; error: ErrorDescription };

/**
 * A successful result travels as the JSON text the runner already produced to measure it, so
 * it is encoded once and parsed once.
 */
export type RunnerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; ok: true; json: string }
  | { type: 'result'; id: number; ok: false; error: ErrorDescription }
  | { type: 'log'; id: number | null; level: LogLevel; message: string }
  | { type: 'hook'; id: number; callId: number; hook: string; args: unknown };

/** Passed to the runner as its only argument (JSON). */
export interface RunnerSettings {
  resultLimitBytes: number;
  /** Resident memory above which the runner exits with `memoryExitCode` (catches off-heap buffers). */
  rssLimitBytes: number;
  memoryExitCode: number;
}

/** The runner's error type for an oversized result, recognised by the parent. */
export const RESULT_TOO_LARGE_TYPE = 'ResultTooLargeError';
