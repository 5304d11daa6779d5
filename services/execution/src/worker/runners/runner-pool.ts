import { dirname, resolve } from 'node:path';
import { ServiceUnavailableError, type Logger } from '@svc/core';
import { runnerStarts } from '@svc/metrics';
import { pythonSatisfies } from '@svc/pack-sdk';
import { currentTraceparent, markFailed, traced } from '@svc/tracing';
import { PythonVersionError, RunnersBusyError } from './runner-errors.js';
import { defaultRunnerScript } from './runner-launch.js';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './runner-output.js';
import { RunnerProcess, type Hooks, type RunOutcome, type RunRequest } from './runner-process.js';
import type { RunnerRuntime, RunnerSettings } from './runner-protocol.js';
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
  /** A runner not ready after this long is killed and its calls fail. Default 30 s (execution README, "Life cycle"). */
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
  /** The interpreter of Python packs (`SVC_PYTHON`): a name looked up in the system's program folders, or a path. Default `python3`. */
  python?: string;
}

export interface PoolRunRequest extends RunRequest {
  /** The pack version, e.g. `${packId}@${version}`: one runner per key and calling tenant. */
  packKey: string;
  /** Folder of the unpacked pack version; the only place its runner may read. */
  packDir: string;
  /** What runs the pack's code (its manifest's `runtime`). Default `node`. */
  runtime?: RunnerRuntime;
  /** A Python pack's `python:` range, which this worker's interpreter must meet. */
  python?: string | null;
  /** Runners the calling tenant (`context.tenant`) may have alive at once; no bound when absent. */
  tenantRunners?: number;
  /** Called once the call is given to a runner, so that it will run: for what a caller announces of runs that happen only. */
  onAdmitted?: () => void;
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

/** Runners that count against a bound: those being killed are as good as gone. */
function running(runners: Iterable<RunnerProcess>): number {
  let count = 0;
  for (const runner of runners) if (!runner.stopping) count += 1;
  return count;
}

/** The call with the active span (`runner.exec`) in its context, as `ctx.traceparent`; the call itself when nothing is traced. */
function withTraceparent(request: PoolRunRequest): PoolRunRequest {
  const traceparent = currentTraceparent();
  return traceparent ? { ...request, context: { ...request.context, traceparent } } : request;
}

/** A runner serves one pack version for one tenant: nothing a call leaves in its memory reaches another tenant's call. */
function runnerKey(packKey: string, tenant: string): string {
  return `${packKey}\u0000${tenant}`;
}

/**
 * Warm pack runners, one per pack version and calling tenant, started on demand and shared by
 * that tenant's calls to that version. Concurrent first calls share one start. A tenant may be
 * held to a number of runners (`tenantRunners`), so that one tenant cannot take the pool.
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
  /** The runner taking new calls for each pack key and tenant (`runnerKey`). */
  readonly #active = new Map<string, RunnerProcess>();
  /** Every runner process not yet gone, including retiring and stopping ones. */
  readonly #live = new Set<RunnerProcess>();
  /** The live runners of each tenant. */
  readonly #byTenant = new Map<string, Set<RunnerProcess>>();
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
    this.#startTimeoutMs = options.startTimeoutMs ?? 30_000;
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
      runnerDir: dirname(this.#script),
      uid: options.runnerUid,
      gid: options.runnerGid,
      python: options.python,
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
   * Runs a command of a pack version for the tenant of `request.context`. Rejects with
   * CommandError, CommandTimeoutError, CommandCancelledError, RunnerCrashedError,
   * ResultTooLargeError, RunnersBusyError when the tenant holds its runners or every runner is
   * busy (nothing ran), PythonVersionError when a Python pack's range leaves out this worker's
   * interpreter, or ServiceUnavailableError when the pool is closed.
   */
  async run(request: PoolRunRequest): Promise<RunOutcome> {
    const sandbox = await this.#sandboxReady();
    if (!sandbox.usable) throw new SandboxUnavailableError(sandbox.report.missing);
    if (request.runtime === 'python') {
      const { version } = sandbox.requirePython();
      if (request.python && !pythonSatisfies(request.python, version)) throw new PythonVersionError(request.python, version);
    }
    // Given to the runner in the same turn it was found in, so that no other call's start can
    // take it for an idle one meanwhile (a span's work starts in the turn it is opened).
    const { runner, start } = this.#runnerFor(request, sandbox);
    runnerStarts.inc({ start });
    const outcome = traced('runner.exec', { attributes: { 'svc.runner.start': start, 'svc.runner.runtime': request.runtime ?? 'node' } }, () => {
      if (start === 'cold') {
        void traced('runner.start', {}, async () => {
          if (!(await runner.ready)) markFailed(new Error('The runner exited before it was ready'));
        });
      }
      return runner.call(withTraceparent(request));
    });
    request.onAdmitted?.();
    return outcome;
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

  /** The runner a call goes to: the tenant's warm one for the pack version, or one started for it (cold). */
  #runnerFor(request: PoolRunRequest, sandbox: RunnerSandbox): { runner: RunnerProcess; start: 'warm' | 'cold' } {
    if (this.#closed) throw new ServiceUnavailableError('The pack runner pool is shut down');
    const tenant = request.context.tenant;
    const key = runnerKey(request.packKey, tenant);
    const active = this.#active.get(key);
    if (active) return { runner: active, start: 'warm' };
    const own = this.#byTenant.get(tenant) ?? new Set<RunnerProcess>();
    if (request.tenantRunners !== undefined && running(own) >= request.tenantRunners && !this.#evictLeastRecentlyUsed(own)) {
      throw new RunnersBusyError('tenant_runners', request.tenantRunners);
    }
    if (running(this.#live) >= this.#maxRunners && !this.#evictLeastRecentlyUsed(this.#active.values())) {
      throw new RunnersBusyError('pool_full', this.#maxRunners);
    }
    const runner = new RunnerProcess({
      packKey: request.packKey,
      packDir: resolve(request.packDir),
      script: this.#script,
      runtime: request.runtime ?? 'node',
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
        if (this.#active.get(key) === detached) this.#active.delete(key);
      },
      onExit: (gone) => {
        this.#live.delete(gone);
        own.delete(gone);
        if (own.size === 0 && this.#byTenant.get(tenant) === own) this.#byTenant.delete(tenant);
      },
      onOutputDropped: (bytes) => {
        this.#droppedOutputBytes += bytes;
      },
    });
    this.#starts += 1;
    this.#active.set(key, runner);
    this.#live.add(runner);
    own.add(runner);
    this.#byTenant.set(tenant, own);
    return { runner, start: 'cold' };
  }

  /** Stops the idle runner among `runners` used longest ago; false when each is busy or already going. */
  #evictLeastRecentlyUsed(runners: Iterable<RunnerProcess>): boolean {
    let oldest: RunnerProcess | undefined;
    for (const runner of runners) {
      if (runner.accepting && runner.load === 0 && (!oldest || runner.lastUsedAt < oldest.lastUsedAt)) oldest = runner;
    }
    if (!oldest) return false;
    void oldest.stop('idle');
    return true;
  }
}
