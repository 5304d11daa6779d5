import { resolve } from 'node:path';
import { ServiceUnavailableError, type Logger } from '@svc/core';
import { defaultRunnerScript } from './runner-launch.js';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './runner-output.js';
import { RunnerProcess, type Hooks, type RunOutcome, type RunRequest } from './runner-process.js';
import type { RunnerSettings } from './runner-protocol.js';
import { RunnerSandbox, SandboxUnavailableError, type SandboxMode, type SandboxReport } from './runner-sandbox.js';

/** Largest result a command may return, as JSON. */
export const RESULT_LIMIT_BYTES = 1024 * 1024;
/** Exit code of a runner whose resident memory passed its limit (outside Node's own codes). */
const MEMORY_EXIT_CODE = 90;
/** How long `close()` waits for killed runners to be reaped. */
const CLOSE_BOUND_MS = 5_000;
const MIB = 1024 * 1024;

/**
 * The most memory a runner may hold: twice its heap ceiling plus 64 MB (320 MB by default),
 * RLIMIT_DATA (heap, buffers, every private writable mapping) where the kernel can enforce it.
 */
function memoryCeilingBytes(heapMb: number): number {
  return (heapMb * 2 + 64) * MIB;
}

/** Enough for any honest command; a loop of storage calls from one run cannot monopolise the storage service. */
const DEFAULT_HOOK_CALLS_PER_CALL = 1000;

export interface RunnerPoolOptions {
  logger: Logger;
  /** Capabilities served to packs by name, e.g. `storage.get`; a missing one fails inside the pack. */
  hooks?: Hooks;
  /** V8 heap ceiling of each runner (`--max-old-space-size`); all its memory may reach twice this plus 64 MB. Default 128. */
  memoryLimitMb?: number;
  /** Live runners at most; idle ones are evicted least recently used first. Default 32. */
  maxRunners?: number;
  /** Calls one runner works on at once; more wait in its queue. Default 64. */
  maxConcurrentCalls?: number;
  /** A runner without calls for this long is stopped. Default 60 s. */
  idleTimeoutMs?: number;
  /** How long a cancelled or timed-out call may take to stop before its runner is killed. Default 1 s. */
  killGraceMs?: number;
  /** A runner not ready after this long is killed and its calls fail. Default 10 s. */
  startTimeoutMs?: number;
  resultLimitBytes?: number;
  /** Path of `runner.mjs`; found beside the sources or the bundle by default. */
  runnerScript?: string;
  /** `required` (default): no namespaces, no runs. `best-effort`: run with what the host has. */
  sandbox?: SandboxMode;
  /** RLIMIT_CPU of each runner over its life, seconds. Default 3600 (the longest command timeout). */
  cpuSeconds?: number;
  /** RLIMIT_NOFILE of each runner. Default 128. */
  openFiles?: number;
  /** The uid and gid runners run as when the worker runs as root. Default 65534 (nobody). */
  runnerUid?: number;
  runnerGid?: number;
  /** Log text kept per call before the rest is dropped and counted. Default 64 KiB. */
  outputBytesPerCall?: number;
  /** `ctx` capability calls (`ctx.storage`, `ctx.fetch`) one run may make; past it each fails with 429 `HOOK_LIMIT`. Default 1000. */
  hookCallsPerCall?: number;
}

export interface PoolRunRequest extends RunRequest {
  /** One runner per key, e.g. `${packId}@${version}`. */
  packKey: string;
  /** Folder of the unpacked pack version; the only place its runner may read. */
  packDir: string;
}

export interface RunnerPoolStats {
  /** Runner processes alive (serving, retiring or being stopped). */
  live: number;
  /** Runner processes started since the pool was created. */
  starts: number;
  /** Calls queued or running across all runners. */
  load: number;
  /** Bytes of pack output dropped past the budgets since the pool was created. */
  droppedOutputBytes: number;
}

/**
 * Warm pack runners, one per pack version, started on demand and shared by every call to that
 * version. Concurrent first calls share one start.
 *
 * @example
 *   const pool = new RunnerPool({ logger, hooks: { 'storage.get': (call, args) => storage.get(call.tenant, args) } });
 *   const { value, durationMs } = await pool.run({
 *     packKey: `${pack.id}@${pack.version}`, packDir, entry: 'commands/hello.mjs', command: 'hello',
 *     input: { name: 'Ada' }, context: { tenant, user, correlationId }, timeoutMs: 30_000,
 *   });
 *   await pool.evict(`${pack.id}@`); // on uninstall
 *   await pool.close(); // on shutdown
 */
export class RunnerPool {
  readonly #logger: Logger;
  readonly #hooks: Hooks;
  readonly #hookCallsPerCall: number;
  readonly #script: string;
  readonly #memoryLimitMb: number;
  readonly #maxRunners: number;
  readonly #maxConcurrentCalls: number;
  readonly #idleTimeoutMs: number;
  readonly #killGraceMs: number;
  readonly #startTimeoutMs: number;
  readonly #settings: RunnerSettings;
  readonly #output: OutputLimits;
  readonly #sandboxOptions: ConstructorParameters<typeof RunnerPool>[0];
  #sandbox: Promise<RunnerSandbox> | undefined;
  #droppedOutputBytes = 0;
  /** The runner taking new calls for each pack key. */
  readonly #active = new Map<string, RunnerProcess>();
  /** Every runner process not yet gone, including retiring and stopping ones. */
  readonly #live = new Set<RunnerProcess>();
  #starts = 0;
  #closed = false;

  constructor(options: RunnerPoolOptions) {
    this.#logger = options.logger;
    this.#hooks = options.hooks ?? {};
    this.#hookCallsPerCall = options.hookCallsPerCall ?? DEFAULT_HOOK_CALLS_PER_CALL;
    this.#script = options.runnerScript ?? defaultRunnerScript();
    this.#memoryLimitMb = options.memoryLimitMb ?? 128;
    this.#maxRunners = options.maxRunners ?? 32;
    this.#maxConcurrentCalls = options.maxConcurrentCalls ?? 64;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
    this.#killGraceMs = options.killGraceMs ?? 1_000;
    this.#startTimeoutMs = options.startTimeoutMs ?? 10_000;
    this.#settings = {
      resultLimitBytes: options.resultLimitBytes ?? RESULT_LIMIT_BYTES,
      rssLimitBytes: memoryCeilingBytes(this.#memoryLimitMb),
      memoryExitCode: MEMORY_EXIT_CODE,
    };
    this.#output = { ...DEFAULT_OUTPUT_LIMITS, bytes: options.outputBytesPerCall ?? DEFAULT_OUTPUT_LIMITS.bytes };
    this.#sandboxOptions = options;
  }

  /** What runners get on this host (probed once, on the first call or here). */
  sandbox(): Promise<SandboxReport> {
    return this.#sandboxReady().then((sandbox) => sandbox.report);
  }

  #sandboxReady(): Promise<RunnerSandbox> {
    const options = this.#sandboxOptions;
    this.#sandbox ??= RunnerSandbox.prepare({
      mode: options.sandbox ?? 'required',
      uid: options.runnerUid,
      gid: options.runnerGid,
      logger: this.#logger,
      limits: {
        dataBytes: memoryCeilingBytes(this.#memoryLimitMb),
        cpuSeconds: options.cpuSeconds ?? 3600,
        openFiles: options.openFiles ?? 128,
        processes: this.#maxRunners * 64 + 256,
        nice: 10,
      },
    });
    return this.#sandbox;
  }

  /**
   * Runs a command of a pack version. Rejects with CommandError, CommandTimeoutError,
   * CommandCancelledError, RunnerCrashedError, ResultTooLargeError, or ServiceUnavailableError
   * when every runner slot is busy or the pool is closed.
   */
  async run(request: PoolRunRequest): Promise<RunOutcome> {
    const sandbox = await this.#sandboxReady();
    if (!sandbox.usable) throw new SandboxUnavailableError(sandbox.report.missing);
    return this.#runnerFor(request.packKey, request.packDir, sandbox).call(request);
  }

  /** Stops the runners of every pack key starting with `packKeyPrefix` (e.g. `${packId}@`). */
  async evict(packKeyPrefix: string): Promise<void> {
    const doomed = [...this.#live].filter((runner) => runner.packKey.startsWith(packKeyPrefix));
    await Promise.all(doomed.map((runner) => runner.stop('evicted')));
  }

  /** Kills every runner (calls in progress fail) and refuses new calls; bounded in time. */
  async close(): Promise<void> {
    this.#closed = true;
    const stopped = Promise.all([...this.#live].map((runner) => runner.stop('shutdown')));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((done) => {
      timer = setTimeout(done, CLOSE_BOUND_MS);
    });
    await Promise.race([stopped, bound]);
    clearTimeout(timer);
  }

  stats(): RunnerPoolStats {
    let load = 0;
    for (const runner of this.#live) load += runner.load;
    return { live: this.#live.size, starts: this.#starts, load, droppedOutputBytes: this.#droppedOutputBytes };
  }

  #runnerFor(packKey: string, packDir: string, sandbox: RunnerSandbox): RunnerProcess {
    if (this.#closed) throw new ServiceUnavailableError('The pack runner pool is shut down');
    const active = this.#active.get(packKey);
    if (active) return active;
    if (this.#live.size >= this.#maxRunners && !this.#evictLeastRecentlyUsed()) {
      throw new ServiceUnavailableError('Every pack runner is busy; try again shortly', { max_runners: this.#maxRunners });
    }
    const runner = new RunnerProcess({
      packKey,
      packDir: resolve(packDir),
      script: this.#script,
      memoryLimitMb: this.#memoryLimitMb,
      // The kernel holds memory where it can; the runner's own watch is the fallback.
      settings: sandbox.report.rlimits ? { ...this.#settings, rssLimitBytes: 0 } : this.#settings,
      sandbox,
      output: this.#output,
      logger: this.#logger,
      hooks: this.#hooks,
      hookCallsPerCall: this.#hookCallsPerCall,
      maxConcurrentCalls: this.#maxConcurrentCalls,
      idleTimeoutMs: this.#idleTimeoutMs,
      killGraceMs: this.#killGraceMs,
      startTimeoutMs: this.#startTimeoutMs,
      onDetach: (detached) => {
        if (this.#active.get(detached.packKey) === detached) this.#active.delete(detached.packKey);
      },
      onExit: (gone) => this.#live.delete(gone),
      onOutputDropped: (bytes) => {
        this.#droppedOutputBytes += bytes;
      },
    });
    this.#starts += 1;
    this.#active.set(packKey, runner);
    this.#live.add(runner);
    return runner;
  }

  /** Stops the idle runner used longest ago; false when every runner is busy. */
  #evictLeastRecentlyUsed(): boolean {
    let oldest: RunnerProcess | undefined;
    for (const runner of this.#active.values()) {
      if (runner.load === 0 && (!oldest || runner.lastUsedAt < oldest.lastUsedAt)) oldest = runner;
    }
    if (!oldest) return false;
    void oldest.stop('idle');
    return true;
  }
}
