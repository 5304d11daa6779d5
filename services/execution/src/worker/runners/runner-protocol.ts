/**
 * Frames between the execution service and a pack runner (`runner/runner.mjs`, plain
 * JavaScript that mirrors these shapes), each a JSON header and a payload
 * (`runner-frames.ts`). Everything a runner sends is untrusted: the parent refuses frames over
 * its limits, checks shapes, and only ever acts on calls in flight on that very runner.
 */

/** What a pack's code is run by: `runner/runner.mjs` on Node, or `runner/runner.py` on Python; both speak these frames. */
export type RunnerRuntime = 'node' | 'python';

/** Who a call runs for; the runner shows it to the command as `ctx.tenant`, `ctx.user`, … */
export interface CallContext {
  tenant: string;
  user: string;
  correlationId: string;
  /**
   * `ctx.traceparent`: the W3C trace context of this call's `runner.exec` span, when the worker
   * traces, so that what the command calls can join the run's trace.
   */
  traceparent?: string;
  /** `ctx.secrets`: the pack's declared secrets of the caller's tenant. Never logged, never handed to hooks. */
  secrets?: Readonly<Record<string, string>>;
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

/**
 * Service → runner headers. Payloads: the input's JSON text (`run`), the hook's value as JSON
 * text (`hook-result` with `ok: true`; empty for none).
 */
export type ParentHeader =
  | { type: 'run'; id: number; command: string; entry: string; context: CallContext }
  | { type: 'cancel'; id: number; reason: CancelReason }
  | { type: 'hook-result'; callId: number; ok: true }
  | { type: 'hook-result'; callId: number; ok: false; error: ErrorDescription };

/**
 * Runner → service headers. Payloads: the result's JSON text (`result` with `ok: true`), the
 * log text (`log`), the hook's arguments as JSON text (`hook`). `cpu-exhausted`: the runner
 * reached its CPU-time soft limit and asks to be retired.
 */
export type RunnerHeader =
  | { type: 'ready' }
  | { type: 'result'; id: number; ok: true }
  | { type: 'result'; id: number; ok: false; error: ErrorDescription }
  | { type: 'log'; id: number | null; level: LogLevel }
  | { type: 'hook'; id: number; callId: number; hook: string }
  | { type: 'cpu-exhausted' };

/** Passed to the runner as its last argument (JSON). */
export interface RunnerSettings {
  resultLimitBytes: number;
  /**
   * Resident memory above which the runner exits with `memoryExitCode`: only where the kernel's
   * memory limit could not be set (0 = not watched).
   */
  rssLimitBytes: number;
  memoryExitCode: number;
}

/** The runner's error type for an oversized result, recognised by the parent. */
export const RESULT_TOO_LARGE_TYPE = 'ResultTooLargeError';
