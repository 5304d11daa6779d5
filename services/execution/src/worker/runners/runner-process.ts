import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { AppError, ConflictError, jsonNestedDeeperThan, MAX_JSON_DEPTH, NotFoundError, RateLimitError, ValidationError, type Logger } from '@svc/core';
import { traced } from '@svc/tracing';
import { CommandCancelledError, CommandError, CommandTimeoutError, ResultTooLargeError, RunnerCrashedError, type RunnerStopReason } from './runner-errors.js';
import { encodeFrame, FrameReader, type Frame } from './runner-frames.js';
import { launchRunner } from './runner-launch.js';
import { OutputBudget, type OutputLimits } from './runner-output.js';
import {
  RESULT_TOO_LARGE_TYPE,
  type CallContext,
  type CancelReason,
  type ErrorDescription,
  type LogLevel,
  type ParentHeader,
  type RunnerRuntime,
  type RunnerSettings,
} from './runner-protocol.js';
import type { RunLog } from './run-log.js';
import type { RunnerSandbox } from './runner-sandbox.js';

/** What a hook knows about the call it serves; it acts for `tenant`, never for the pack. */
export interface HookCall extends Omit<CallContext, 'secrets'> {
  packKey: string;
  /** The unpacked pack version the runner serves. */
  packDir: string;
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
  /** Capabilities served for this call only (`task.progress`, which reports to this run's caller), before the pool's. */
  hooks?: Hooks;
  /** Where the call's log lines are kept for its caller, besides the worker's own log. */
  log?: RunLog;
}

export interface RunOutcome {
  value: unknown;
  /** From the call to its answer, queueing and a cold start included. */
  durationMs: number;
}

/** The pack version a runner serves: its key (`RunnerPool`) and its unpacked folder. */
export interface ServedPack {
  packKey: string;
  packDir: string;
}

export interface RunnerProcessOptions {
  /** What it serves, for a runner started for a pack; a spare is given its pack later (`serve`). */
  pack?: ServedPack;
  /** The only folder the process may read, and its working folder: the pack's, or a spare's slot. */
  dir: string;
  script: string;
  runtime: RunnerRuntime;
  memoryLimitMb: number;
  settings: RunnerSettings;
  sandbox: RunnerSandbox;
  /** What a call (and the runner, for output no call can be named for) may log. */
  output: OutputLimits;
  logger: Logger;
  hooks: Hooks;
  /** `ctx` capability calls one call may make. */
  hookCallsPerCall: number;
  maxConcurrentCalls: number;
  idleTimeoutMs: number;
  killGraceMs: number;
  startTimeoutMs: number;
  /** The runner takes no more calls (retired, stopping or gone). */
  onDetach: (runner: RunnerProcess) => void;
  /** The process is gone. */
  onExit: (runner: RunnerProcess) => void;
  /** Output bytes dropped past a budget (the pool counts them). */
  onOutputDropped: (bytes: number) => void;
}

interface Call {
  id: number;
  request: RunRequest;
  /** The input as JSON text, made once when the call is taken. */
  inputJson: string;
  output: OutputBudget;
  startedAt: number;
  resolve: (outcome: RunOutcome) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Aborts the hooks still serving this call once it is over; made by the call's first hook. */
  hooks: AbortController | undefined;
  /** `ctx` capability calls made so far. */
  hookCalls: number;
  detachSignal: () => void;
  /** The caller has its answer (the runner may still be working on it). */
  settled: boolean;
  sent: boolean;
}

type State = 'starting' | 'ready' | 'retiring' | 'stopping' | 'stopped';

const LOG_LEVELS = new Set<LogLevel>(['debug', 'info', 'warn', 'error']);
/** Stops worth an operator's attention; the others are the pool's routine. */
const ABNORMAL_STOPS = new Set<RunnerStopReason>(['out_of_memory', 'exited', 'start_failed', 'unresponsive', 'protocol_violation', 'output_flood']);
/** Longest pack log line kept; a pack must not be able to flood the logs with one message. */
const LOG_MESSAGE_LIMIT = 8 * 1024;
/** Largest frame header a runner may send; headers carry ids, levels and short error texts. */
const FRAME_HEADER_LIMIT = 64 * 1024;
/** What V8 and Node write to stderr as they die of memory exhaustion. */
const OUT_OF_MEMORY_TEXT = /out of memory|Reached heap limit|allocation failed/i;
/** How long a runner past its CPU-time soft limit may finish its calls (the kernel's hard limit follows). */
const CPU_RETIRE_GRACE_MS = 30_000;

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
 * pack's output within each call's budget, and kills itself when idle. A call that is cancelled
 * or times out retires the runner: it takes no new calls and is killed once its calls have
 * ended, or after the grace period if they do not (a loop that never yields cannot be
 * interrupted any other way). A runner that breaks the framing or floods its output is killed.
 */
export class RunnerProcess {
  /** Empty while a spare waits for its pack. */
  packKey: string;
  lastUsedAt = Date.now();
  /** Settles true once the runner said it is ready, false when it went before that (a cold start's span ends on it). */
  readonly ready: Promise<boolean>;
  #markReady: (ready: boolean) => void = () => undefined;
  readonly #options: RunnerProcessOptions;
  readonly #child: ChildProcess;
  readonly #channel: Socket;
  readonly #exited: Promise<void>;
  #state: State = 'starting';
  #stopReason: RunnerStopReason | undefined;
  /** Calls sent to the runner and not yet answered by it. */
  readonly #running = new Map<number, Call>();
  readonly #queue: Call[] = [];
  /** Output that names no call in flight (raw pipes while several calls run, or no call at all). */
  #looseOutput: OutputBudget;
  #lastId = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #killTimer: NodeJS.Timeout | undefined;
  /** V8 said it ran out of memory on stderr (as PID 1 of its namespace its abort shows as SIGSEGV). */
  #sawOutOfMemory = false;
  #packDir: string;
  /** Calls wait while the pack's files are being put in a spare's folder. */
  #held = false;
  /** `retire()` came while it was starting. */
  #retireWhenReady = false;

  constructor(options: RunnerProcessOptions) {
    this.#options = options;
    this.packKey = options.pack?.packKey ?? '';
    this.#packDir = options.pack?.packDir ?? options.dir;
    this.#looseOutput = new OutputBudget(options.output);
    this.ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
    this.#child = launchRunner({ ...options, packDir: options.dir });
    this.#channel = this.#child.stdio[3] as Socket;
    this.#killTimer = setTimeout(() => void this.stop('start_failed'), options.startTimeoutMs);
    this.#exited = new Promise((resolve) => {
      this.#child.once('close', (code, signal) => {
        this.#onClose(code, signal);
        this.#markReady(false);
        resolve();
      });
    });
    this.#child.on('error', (error) => this.#options.logger.warn('pack runner process error', { pack_key: this.packKey, error: error.message }));
    const limits = { headerBytes: FRAME_HEADER_LIMIT, payloadBytes: Math.max(options.settings.resultLimitBytes, 4 * 1024 * 1024) + FRAME_HEADER_LIMIT };
    const reader = new FrameReader(limits, (frame) => this.#onFrame(frame), (reason) => this.#onViolation(reason));
    this.#channel.on('data', (chunk: Buffer) => reader.push(chunk));
    // A failed write or read means the runner is dying; its close event fails the calls.
    this.#channel.on('error', () => undefined);
    this.#child.stdout?.on('data', (chunk: Buffer) => this.#onRawOutput('stdout', chunk));
    this.#child.stderr?.on('data', (chunk: Buffer) => this.#onRawOutput('stderr', chunk));
  }

  /** Whether new calls may be given to this runner. */
  get accepting(): boolean {
    return this.#state === 'starting' || this.#state === 'ready';
  }

  /** It said it is ready and takes calls. */
  get up(): boolean {
    return this.#state === 'ready';
  }

  /** Killed or gone: it neither takes nor finishes calls. */
  get stopping(): boolean {
    return this.#state === 'stopping' || this.#state === 'stopped';
  }

  /** Calls queued or running (including abandoned ones the runner has not finished). */
  get load(): number {
    return this.#running.size + this.#queue.length;
  }

  /**
   * Makes a spare the runner of `pack`, whose files `files` puts in its folder: calls wait for
   * them, and a failure to put them there stops it (its calls fail as a failed start).
   */
  serve(pack: ServedPack, files: Promise<void>): void {
    this.packKey = pack.packKey;
    this.#packDir = pack.packDir;
    this.#held = true;
    files.then(
      () => {
        this.#held = false;
        this.#pump();
      },
      (err: Error) => {
        this.#options.logger.warn('pack files not given to a spare runner; stopped', { pack_key: this.packKey, error: err.message });
        void this.stop('start_failed');
      },
    );
  }

  /** Runs one command; rejects with the typed errors of `runner-errors.ts`. */
  call(request: RunRequest): Promise<RunOutcome> {
    if (!this.accepting) return Promise.reject(new RunnerCrashedError(this.#stopReason ?? 'exited'));
    if (request.signal?.aborted) return Promise.reject(new CommandCancelledError());
    let inputJson: string;
    try {
      inputJson = JSON.stringify(request.input) ?? 'null';
    } catch {
      return Promise.reject(new ValidationError('The input cannot be written as JSON'));
    }
    clearTimeout(this.#idleTimer);
    this.lastUsedAt = Date.now();
    return new Promise<RunOutcome>((resolve, reject) => {
      this.#lastId += 1;
      const call: Call = {
        id: this.#lastId,
        request,
        inputJson,
        output: new OutputBudget(this.#options.output),
        startedAt: performance.now(),
        resolve,
        reject,
        timer: setTimeout(() => this.#abandon(call, new CommandTimeoutError(request.timeoutMs), 'timeout'), request.timeoutMs),
        hooks: undefined,
        hookCalls: 0,
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

  /**
   * Takes no new calls and stops once the calls it has are answered, each still bounded by its
   * own timeout: the runner of code since replaced. One still starting finishes its start first.
   */
  retire(): void {
    if (this.#state === 'starting') {
      this.#retireWhenReady = true;
      return;
    }
    if (this.#state !== 'ready') return;
    this.#detach('retiring');
    this.#afterCall();
  }

  /** Kills the runner; calls still queued or running fail with RunnerCrashedError(reason). */
  stop(reason: RunnerStopReason): Promise<void> {
    if (this.#state === 'stopping' || this.#state === 'stopped') return this.#exited;
    this.#stopReason = reason;
    this.#detach('stopping');
    // The sandbox's `unshare --kill-child` takes the runner along.
    this.#child.kill('SIGKILL');
    return this.#exited;
  }

  #send(header: ParentHeader, payload?: string): void {
    if (!this.#channel.writable) return;
    this.#channel.write(encodeFrame(header as unknown as Record<string, unknown>, payload));
  }

  #pump(): void {
    if ((this.#state !== 'ready' && this.#state !== 'retiring') || this.#held) return;
    while (this.#queue.length > 0 && this.#running.size < this.#options.maxConcurrentCalls) {
      const call = this.#queue.shift() as Call;
      call.sent = true;
      this.#running.set(call.id, call);
      const { command, entry, context } = call.request;
      this.#send({ type: 'run', id: call.id, command, entry, context }, call.inputJson);
    }
  }

  #settle(call: Call, outcome: RunOutcome | Error): void {
    if (call.settled) return;
    call.settled = true;
    clearTimeout(call.timer);
    call.detachSignal();
    const dropped = call.output.dropped;
    if (dropped.bytes > 0) this.#options.logger.warn('pack output dropped', { source: 'pack', ...this.#callMeta(call), dropped_bytes: dropped.bytes, dropped_messages: dropped.messages });
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
    this.#retire(this.#options.killGraceMs);
  }

  #retire(graceMs: number): void {
    // A runner retired by `retire()` has no kill timer yet: a call of its that times out sets it.
    if (this.#state === 'ready') this.#detach('retiring');
    else if (this.#state !== 'retiring' || this.#killTimer !== undefined) return;
    this.#killTimer = setTimeout(() => void this.stop('unresponsive'), graceMs);
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

  #onViolation(reason: string): void {
    this.#options.logger.warn('pack runner broke its channel protocol; killed', { pack_key: this.packKey, reason });
    void this.stop('protocol_violation');
  }

  #onFrame({ header, payload }: Frame): void {
    switch (header.type) {
      case 'ready':
        return this.#onReady();
      case 'result':
        return this.#onResult(header, payload);
      case 'log':
        return this.#onLog(header, payload);
      case 'hook':
        return void this.#onHook(header, payload);
      case 'cpu-exhausted':
        this.#options.logger.warn('pack runner reached its CPU-time limit; retiring it', { pack_key: this.packKey });
        return this.#retire(CPU_RETIRE_GRACE_MS);
    }
  }

  #onReady(): void {
    if (this.#state !== 'starting') return;
    clearTimeout(this.#killTimer);
    this.#killTimer = undefined;
    this.#state = 'ready';
    this.#markReady(true);
    if (this.#retireWhenReady) this.retire();
    else this.#afterCall();
  }

  #runningCall(id: unknown): Call | undefined {
    return typeof id === 'number' ? this.#running.get(id) : undefined;
  }

  #onResult(header: Record<string, unknown>, payload: Buffer): void {
    const call = this.#runningCall(header.id);
    if (!call) return;
    this.#running.delete(call.id);
    call.hooks?.abort();
    this.#settle(call, this.#outcome(call, header, payload));
    this.#afterCall();
  }

  #outcome(call: Call, header: Record<string, unknown>, payload: Buffer): RunOutcome | AppError {
    const limit = this.#options.settings.resultLimitBytes;
    if (header.ok !== true) {
      const error = errorDescription(header.error);
      return error.type === RESULT_TOO_LARGE_TYPE ? new ResultTooLargeError(limit) : new CommandError(error);
    }
    // The runner is pack code: its own size check is not to be trusted.
    if (payload.length > limit) return new ResultTooLargeError(limit, payload.length);
    try {
      return { value: JSON.parse(payload.toString('utf8')), durationMs: Math.round(performance.now() - call.startedAt) };
    } catch {
      return new CommandError({ type: 'SyntaxError', message: 'The runner sent a malformed result' });
    }
  }

  #callMeta(call: Call | undefined): Record<string, unknown> {
    if (!call) return { pack_key: this.packKey };
    const { context, command } = call.request;
    return { pack_key: this.packKey, command, correlation_id: context.correlationId, tenant_id: context.tenant, user_id: context.user };
  }

  /** The budget output is charged to: the named call's, else the runner's (renewed every minute). */
  #outputOf(call: Call | undefined): OutputBudget {
    if (call) return call.output;
    if (this.#looseOutput.expired) this.#looseOutput = new OutputBudget(this.#options.output);
    return this.#looseOutput;
  }

  /** Logs a message of pack output within its budget; past it, a marker once, then a count. */
  #write(level: LogLevel, payload: Buffer, call: Call | undefined, extra: Record<string, unknown> = {}): void {
    const budget = this.#outputOf(call);
    const admission = budget.admit(payload.length);
    if (admission !== 'kept') {
      this.#options.onOutputDropped(payload.length);
      if (admission === 'first-drop') {
        const scope = call ? 'this call' : 'this minute';
        this.#options.logger.warn(`pack output past ${budget.limitBytes} bytes for ${scope}; the rest is dropped and counted`, { source: 'pack', ...this.#callMeta(call) });
      } else if (admission === 'flood') {
        this.#options.logger.warn('pack output flood; runner killed', { ...this.#callMeta(call), dropped_bytes: budget.dropped.bytes, dropped_messages: budget.dropped.messages });
        void this.stop('output_flood');
      }
      return;
    }
    const text = payload.toString('utf8', 0, Math.min(payload.length, LOG_MESSAGE_LIMIT * 4)).trimEnd();
    if (!text) return;
    this.#options.logger.log(level, truncate(text), { source: 'pack', ...extra, ...this.#callMeta(call) });
    if (call && !call.settled) call.request.log?.add(level, text);
  }

  #onLog(header: Record<string, unknown>, payload: Buffer): void {
    const level = LOG_LEVELS.has(header.level as LogLevel) ? (header.level as LogLevel) : 'info';
    this.#write(level, payload, this.#runningCall(header.id));
  }

  /** Raw output (e.g. a crash report) is attributed when only one call runs. */
  #onRawOutput(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (stream === 'stderr' && OUT_OF_MEMORY_TEXT.test(chunk.toString('latin1'))) this.#sawOutOfMemory = true;
    const only = this.#running.size === 1 ? this.#running.values().next().value : undefined;
    this.#write(stream === 'stderr' ? 'warn' : 'info', chunk, only, { stream });
  }

  async #onHook(header: Record<string, unknown>, payload: Buffer): Promise<void> {
    if (typeof header.callId !== 'number') return;
    const callId = header.callId;
    try {
      const value = await this.#serveHook(header, payload);
      this.#send({ type: 'hook-result', callId, ok: true }, value === undefined ? '' : JSON.stringify(value));
    } catch (error) {
      this.#send({ type: 'hook-result', callId, ok: false, error: this.#hookError(error, header.hook) });
    }
  }

  async #serveHook(header: Record<string, unknown>, payload: Buffer): Promise<unknown> {
    const call = this.#runningCall(header.id);
    if (!call || call.settled) throw ConflictError.coded('CALL_ENDED', 'The call this hook belongs to is no longer running');
    const name = typeof header.hook === 'string' ? header.hook : '';
    const own = call.request.hooks;
    const hook = own && Object.hasOwn(own, name) ? own[name] : Object.hasOwn(this.#options.hooks, name) ? this.#options.hooks[name] : undefined;
    if (!hook) throw NotFoundError.coded('UNKNOWN_HOOK', `ctx capability "${truncate(name)}" is not available on this platform`);
    const limit = this.#options.hookCallsPerCall;
    call.hookCalls += 1;
    if (call.hookCalls > limit) throw RateLimitError.coded('HOOK_LIMIT', `A run may call ctx capabilities at most ${limit} times`, { limit });
    const args = hookArguments(payload);
    call.hooks ??= new AbortController();
    const { signal } = call.hooks;
    const { context, command } = call.request;
    const { secrets: _secrets, ...caller } = context;
    // Under the call's `runner.exec` span (its traceparent), so that what the hook asks of the fleet joins the run's trace.
    return traced(`runner.hook ${name}`, { parentFrom: context }, () => hook({ ...caller, packKey: this.packKey, packDir: this.#packDir, command, signal }, args));
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
    const outOfMemory = signal === 'SIGABRT' || code === this.#options.settings.memoryExitCode || this.#sawOutOfMemory;
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

/** A hook's arguments: JSON text from pack code, held to the depth any request body is held to. */
function hookArguments(payload: Buffer): unknown {
  if (payload.length === 0) return undefined;
  if (jsonNestedDeeperThan(payload)) throw new ValidationError(`The arguments of a ctx call are nested deeper than ${MAX_JSON_DEPTH} levels`, { limit_depth: MAX_JSON_DEPTH });
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    throw new ValidationError('The arguments of a ctx call must be JSON');
  }
}
