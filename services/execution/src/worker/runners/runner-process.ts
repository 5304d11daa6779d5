import type { ChildProcess } from 'node:child_process';
import { AppError, type Logger } from '@svc/core';
import { CommandCancelledError, CommandError, CommandTimeoutError, ResultTooLargeError, RunnerCrashedError, type RunnerStopReason } from './runner-errors.js';
import { launchRunner } from './runner-launch.js';
import {
  RESULT_TOO_LARGE_TYPE,
  type CallContext,
  type CancelReason,
  type ErrorDescription,
  type LogLevel,
  type ParentMessage,
  type RunnerSettings,
} from './runner-protocol.js';

/** What a hook knows about the call it serves; it acts for `tenant`, never for the pack. */
export interface HookCall extends CallContext {
  packKey: string;
  command: string;
  /** Aborted when the call ends, is cancelled or times out. */
  signal: AbortSignal;
}

/** Serves one `ctx.*` capability of a pack (e.g. `storage.get`) on behalf of the caller. */
export type Hook = (call: HookCall, args: unknown) => Promise<unknown>;
export type Hooks = Readonly<Record<string, Hook>>;

export interface RunRequest {
  command: string;
  /** Module of the command, relative to the pack folder. */
  entry: string;
  input: unknown;
  context: CallContext;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RunOutcome {
  value: unknown;
  /** From the call to its answer, queueing and a cold start included. */
  durationMs: number;
}

export interface RunnerProcessOptions {
  packKey: string;
  packDir: string;
  script: string;
  memoryLimitMb: number;
  settings: RunnerSettings;
  logger: Logger;
  hooks: Hooks;
  maxConcurrentCalls: number;
  idleTimeoutMs: number;
  killGraceMs: number;
  startTimeoutMs: number;
  /** The runner takes no more calls (retired, stopping or gone). */
  onDetach: (runner: RunnerProcess) => void;
  /** The process is gone. */
  onExit: (runner: RunnerProcess) => void;
}

interface Call {
  id: number;
  request: RunRequest;
  startedAt: number;
  resolve: (outcome: RunOutcome) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Aborts the hooks still serving this call once it is over; made by the call's first hook. */
  hooks: AbortController | undefined;
  detachSignal: () => void;
  /** The caller has its answer (the runner may still be working on it). */
  settled: boolean;
  sent: boolean;
}

type State = 'starting' | 'ready' | 'retiring' | 'stopping' | 'stopped';

const LOG_LEVELS = new Set<LogLevel>(['debug', 'info', 'warn', 'error']);
/** Stops worth an operator's attention; the others are the pool's routine. */
const ABNORMAL_STOPS = new Set<RunnerStopReason>(['out_of_memory', 'exited', 'start_failed', 'unresponsive']);
/** Longest pack log line kept; a pack must not be able to flood the logs with one message. */
const LOG_MESSAGE_LIMIT = 8 * 1024;

function truncate(text: string): string {
  return text.length > LOG_MESSAGE_LIMIT ? `${text.slice(0, LOG_MESSAGE_LIMIT)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function errorDescription(value: unknown): ErrorDescription {
  if (!isObject(value)) return { type: 'Error', message: 'Command failed' };
  const description: ErrorDescription = {
    type: typeof value.type === 'string' ? truncate(value.type) : 'Error',
    message: typeof value.message === 'string' ? truncate(value.message) : 'Command failed',
  };
  if (typeof value.code === 'string') description.code = truncate(value.code);
  return description;
}

/**
 * One warm child process serving the commands of one pack version. It queues calls beyond its
 * concurrency bound, enforces each call's timeout and cancellation, serves hooks, logs the
 * pack's output, and kills itself when idle. A call that is cancelled or times out retires the
 * runner: it takes no new calls and is killed once its calls have ended, or after the grace
 * period if they do not (a loop that never yields cannot be interrupted any other way).
 */
export class RunnerProcess {
  readonly packKey: string;
  lastUsedAt = Date.now();
  readonly #options: RunnerProcessOptions;
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #state: State = 'starting';
  #stopReason: RunnerStopReason | undefined;
  /** Calls sent to the runner and not yet answered by it. */
  readonly #running = new Map<number, Call>();
  readonly #queue: Call[] = [];
  #lastId = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #killTimer: NodeJS.Timeout | undefined;

  constructor(options: RunnerProcessOptions) {
    this.#options = options;
    this.packKey = options.packKey;
    this.#child = launchRunner(options);
    this.#killTimer = setTimeout(() => void this.stop('start_failed'), options.startTimeoutMs);
    this.#exited = new Promise((resolve) => {
      this.#child.once('close', (code, signal) => {
        this.#onClose(code, signal);
        resolve();
      });
    });
    this.#child.on('error', (error) => this.#options.logger.warn('pack runner process error', { pack_key: this.packKey, error: error.message }));
    this.#child.on('message', (message) => this.#onMessage(message));
    this.#child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.#logOutput('stdout', chunk));
    this.#child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.#logOutput('stderr', chunk));
  }

  /** Whether new calls may be given to this runner. */
  get accepting(): boolean {
    return this.#state === 'starting' || this.#state === 'ready';
  }

  /** Calls queued or running (including abandoned ones the runner has not finished). */
  get load(): number {
    return this.#running.size + this.#queue.length;
  }

  /** Runs one command; rejects with the typed errors of `runner-errors.ts`. */
  call(request: RunRequest): Promise<RunOutcome> {
    if (!this.accepting) return Promise.reject(new RunnerCrashedError(this.#stopReason ?? 'exited'));
    if (request.signal?.aborted) return Promise.reject(new CommandCancelledError());
    clearTimeout(this.#idleTimer);
    this.lastUsedAt = Date.now();
    return new Promise<RunOutcome>((resolve, reject) => {
      this.#lastId += 1;
      const call: Call = {
        id: this.#lastId,
        request,
        startedAt: performance.now(),
        resolve,
        reject,
        timer: setTimeout(() => this.#abandon(call, new CommandTimeoutError(request.timeoutMs), 'timeout'), request.timeoutMs),
        hooks: undefined,
        detachSignal: () => undefined,
        settled: false,
        sent: false,
      };
      const onAbort = () => this.#abandon(call, new CommandCancelledError(), 'cancelled');
      request.signal?.addEventListener('abort', onAbort, { once: true });
      call.detachSignal = () => request.signal?.removeEventListener('abort', onAbort);
      this.#queue.push(call);
      this.#pump();
    });
  }

  /** Kills the runner; calls still queued or running fail with RunnerCrashedError(reason). */
  stop(reason: RunnerStopReason): Promise<void> {
    if (this.#state === 'stopping' || this.#state === 'stopped') return this.#exited;
    this.#stopReason = reason;
    this.#detach('stopping');
    this.#child.kill('SIGKILL');
    return this.#exited;
  }

  #send(message: ParentMessage): void {
    if (!this.#child.connected) return;
    // A failed send means the runner is dying; its close event fails the calls.
    this.#child.send(message, () => undefined);
  }

  #pump(): void {
    if (this.#state !== 'ready' && this.#state !== 'retiring') return;
    while (this.#queue.length > 0 && this.#running.size < this.#options.maxConcurrentCalls) {
      const call = this.#queue.shift() as Call;
      call.sent = true;
      this.#running.set(call.id, call);
      const { command, entry, input, context } = call.request;
      this.#send({ type: 'run', id: call.id, command, entry, input, context });
    }
  }

  #settle(call: Call, outcome: RunOutcome | Error): void {
    if (call.settled) return;
    call.settled = true;
    clearTimeout(call.timer);
    call.detachSignal();
    if (outcome instanceof Error) call.reject(outcome);
    else call.resolve(outcome);
  }

  #abandon(call: Call, error: AppError, reason: CancelReason): void {
    if (call.settled) return;
    this.#settle(call, error);
    call.hooks?.abort();
    if (!call.sent) {
      this.#queue.splice(this.#queue.indexOf(call), 1);
      this.#afterCall();
      return;
    }
    this.#send({ type: 'cancel', id: call.id, reason });
    this.#retire();
  }

  #retire(): void {
    if (this.#state !== 'ready') return;
    this.#detach('retiring');
    this.#killTimer = setTimeout(() => void this.stop('unresponsive'), this.#options.killGraceMs);
  }

  #detach(state: 'retiring' | 'stopping'): void {
    const wasAccepting = this.accepting;
    this.#state = state;
    clearTimeout(this.#idleTimer);
    if (wasAccepting) this.#options.onDetach(this);
  }

  /** After a call left the runner or the queue: dispatch, retire when drained, or go idle. */
  #afterCall(): void {
    this.#pump();
    if (this.load > 0) return;
    if (this.#state === 'retiring') {
      void this.stop('retired');
      return;
    }
    if (this.#state !== 'ready') return;
    this.#idleTimer = setTimeout(() => void this.stop('idle'), this.#options.idleTimeoutMs);
  }

  #onMessage(message: unknown): void {
    if (!isObject(message)) return;
    switch (message.type) {
      case 'ready':
        return this.#onReady();
      case 'result':
        return this.#onResult(message);
      case 'log':
        return this.#onLog(message);
      case 'hook':
        return void this.#onHook(message);
    }
  }

  #onReady(): void {
    if (this.#state !== 'starting') return;
    clearTimeout(this.#killTimer);
    this.#state = 'ready';
    this.#afterCall();
  }

  #onResult(message: Record<string, unknown>): void {
    const call = typeof message.id === 'number' ? this.#running.get(message.id) : undefined;
    if (!call) return;
    this.#running.delete(call.id);
    call.hooks?.abort();
    this.#settle(call, this.#outcome(call, message));
    this.#afterCall();
  }

  #outcome(call: Call, message: Record<string, unknown>): RunOutcome | AppError {
    const limit = this.#options.settings.resultLimitBytes;
    if (message.ok !== true) {
      const error = errorDescription(message.error);
      return error.type === RESULT_TOO_LARGE_TYPE ? new ResultTooLargeError(limit) : new CommandError(error);
    }
    if (typeof message.json !== 'string') return new CommandError({ type: 'TypeError', message: 'The runner sent a malformed result' });
    // The runner is pack code: its own size check is not to be trusted.
    const size = Buffer.byteLength(message.json);
    if (size > limit) return new ResultTooLargeError(limit, size);
    try {
      return { value: JSON.parse(message.json), durationMs: Math.round(performance.now() - call.startedAt) };
    } catch {
      return new CommandError({ type: 'SyntaxError', message: 'The runner sent a malformed result' });
    }
  }

  #callMeta(call: Call | undefined): Record<string, unknown> {
    if (!call) return { pack_key: this.packKey };
    const { context, command } = call.request;
    return { pack_key: this.packKey, command, correlation_id: context.correlationId, tenant_id: context.tenant, user_id: context.user };
  }

  #onLog(message: Record<string, unknown>): void {
    const call = typeof message.id === 'number' ? this.#running.get(message.id) : undefined;
    const level = LOG_LEVELS.has(message.level as LogLevel) ? (message.level as LogLevel) : 'info';
    const text = (typeof message.message === 'string' ? message.message : String(message.message)).trimEnd();
    this.#options.logger.log(level, truncate(text), { source: 'pack', ...this.#callMeta(call) });
  }

  /** Raw output (e.g. `process.stdout.write`, a crash report) is attributed when only one call runs. */
  #logOutput(stream: 'stdout' | 'stderr', chunk: string): void {
    const only = this.#running.size === 1 ? this.#running.values().next().value : undefined;
    const text = chunk.trimEnd();
    if (!text) return;
    const level = stream === 'stderr' ? 'warn' : 'info';
    this.#options.logger.log(level, truncate(text), { source: 'pack', stream, ...this.#callMeta(only) });
  }

  async #onHook(message: Record<string, unknown>): Promise<void> {
    if (typeof message.callId !== 'number') return;
    const callId = message.callId;
    try {
      const value = await this.#serveHook(message);
      this.#send({ type: 'hook-result', callId, ok: true, value });
    } catch (error) {
      this.#send({ type: 'hook-result', callId, ok: false, error: this.#hookError(error, message.hook) });
    }
  }

  #serveHook(message: Record<string, unknown>): Promise<unknown> {
    const call = typeof message.id === 'number' ? this.#running.get(message.id) : undefined;
    if (!call || call.settled) throw new AppError({ status: 409, code: 'CALL_ENDED', message: 'The call this hook belongs to is no longer running' });
    const name = typeof message.hook === 'string' ? message.hook : '';
    const hook = Object.hasOwn(this.#options.hooks, name) ? this.#options.hooks[name] : undefined;
    if (!hook) throw new AppError({ status: 404, code: 'UNKNOWN_HOOK', message: `ctx capability "${truncate(name)}" is not available on this platform` });
    call.hooks ??= new AbortController();
    const { context, command } = call.request;
    return hook({ ...context, packKey: this.packKey, command, signal: call.hooks.signal }, message.args);
  }

  /** AppErrors are meant for the caller; anything else may hold internals and is only logged. */
  #hookError(error: unknown, hook: unknown): ErrorDescription {
    if (error instanceof AppError) return { type: error.type, message: error.message, code: error.code };
    this.#options.logger.error('pack hook failed', { pack_key: this.packKey, hook, error: error instanceof Error ? error.stack : String(error) });
    return { type: 'InternalError', message: `ctx capability "${String(hook)}" failed`, code: 'INTERNAL_ERROR' };
  }

  #onClose(code: number | null, signal: NodeJS.Signals | null): void {
    const wasStarting = this.#state === 'starting';
    this.#detach('stopping');
    this.#state = 'stopped';
    clearTimeout(this.#killTimer);
    const outOfMemory = signal === 'SIGABRT' || code === this.#options.settings.memoryExitCode;
    const reason = this.#stopReason ?? (outOfMemory ? 'out_of_memory' : wasStarting ? 'start_failed' : 'exited');
    if (ABNORMAL_STOPS.has(reason)) this.#options.logger.warn('pack runner stopped', { pack_key: this.packKey, reason, exit_code: code, signal });
    const details = reason === 'out_of_memory' ? { memory_limit_mb: this.#options.memoryLimitMb } : this.#stopReason ? {} : { exit_code: code, signal };
    for (const call of [...this.#running.values(), ...this.#queue]) {
      call.hooks?.abort();
      this.#settle(call, new RunnerCrashedError(reason, details));
    }
    this.#running.clear();
    this.#queue.length = 0;
    this.#options.onExit(this);
  }
}
