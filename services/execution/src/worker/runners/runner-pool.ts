import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ServiceUnavailableError, type Logger } from '@svc/core';
import { runnerStarts } from '@svc/metrics';
import { pythonSatisfies } from '@svc/pack-sdk';
import { currentTraceparent, markFailed, traced } from '@svc/tracing';
import { PythonVersionError, RunnersBusyError } from './runner-errors.js';
import { defaultRunnerScript } from './runner-launch.js';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './runner-output.js';
import { RunnerProcess, type Hooks, type RunOutcome, type RunRequest, type ServedPack } from './runner-process.js';
import type { RunnerRuntime, RunnerSettings } from './runner-protocol.js';
import { RunnerSandbox, SandboxUnavailableError, type SandboxMode, type SandboxReport } from './runner-sandbox.js';
import { RunnerSlots } from './runner-slots.js';

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

/** Live runners at most, unless the pool is told otherwise. */
const DEFAULT_MAX_RUNNERS = 32;

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
  /**
   * Whether a runner of each runtime in use is kept started ahead, with no pack yet, for the
   * next first call of that runtime (`SVC_RUNNER_SPARE`). Default true.
   */
  spare?: boolean;
  /** Where spares' folders are made: on the filesystem of the unpacked packs, so that their files can be linked. Default the system's temporary folder. */
  slotsDir?: string;
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
  /** Runner processes started since the pool was created, spares among them. */
  starts: number;
  /** Runners given a pack version and tenant since the pool was created: started for a call, or a spare taken. */
  assigned: number;
  /** The spare of each runtime that has one: still starting, or ready for a call. */
  spares: Partial<Record<RunnerRuntime, 'starting' | 'ready'>>;
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
 * that tenant's calls to that version. Concurrent first calls share one start, or the spare of
 * their runtime: a runner started ahead with no pack, given the version's files when a first
 * call takes it (`RunnerSlots`). A tenant may be held to a number of runners (`tenantRunners`),
 * so that one tenant cannot take the pool.
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
  /** Where each runner serving a pack is filed in `#active` and `#byTenant`. */
  readonly #placed = new Map<RunnerProcess, { key: string; tenant: string }>();
  /** The folder of each runner started on a slot (a spare, and what it became). */
  readonly #slotOf = new Map<RunnerProcess, string>();
  readonly #slots: RunnerSlots | undefined;
  /** A runner of each runtime started with no pack, for the next call of it that finds no runner of its own. */
  readonly #spares = new Map<RunnerRuntime, RunnerProcess>();
  /** Runtimes whose spare is being made (its folder first). */
  readonly #sparing = new Set<RunnerRuntime>();
  #starts = 0;
  #assigned = 0;
  #closed = false;

  constructor(options: RunnerPoolOptions) {
    this.#logger = options.logger;
    this.#hooks = options.hooks ?? {};
    this.#hookCallsPerCall = options.hookCallsPerCall ?? DEFAULT_HOOK_CALLS_PER_CALL;
    this.#script = options.runnerScript ?? defaultRunnerScript();
    this.#memoryLimitMb = options.memoryLimitMb ?? 128;
    this.#maxRunners = options.maxRunners ?? DEFAULT_MAX_RUNNERS;
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
    if (options.spare ?? true) this.#slots = new RunnerSlots(options.slotsDir ?? join(tmpdir(), 'svc-runner-slots'));
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
        // RLIMIT_NPROC counts every process and thread of the runners' uid on the host, other
        // pools' and workers' runners among them: room for a default pool's at least, whatever this one's cap.
        processes: Math.max(this.#maxRunners, DEFAULT_MAX_RUNNERS) * 64 + 256,
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
    const { runner, start, ready } = this.#runnerFor(request, sandbox);
    runnerStarts.inc({ start });
    const outcome = traced('runner.exec', { attributes: { 'svc.runner.start': start, 'svc.runner.runtime': request.runtime ?? 'node' } }, () => {
      // What a first call waits for: the runner's start, or the spare's files (and the rest of its start).
      if (ready) {
        void traced('runner.start', {}, async () => {
          if (!(await ready)) markFailed(new Error('The runner exited before it was ready'));
        });
      }
      return runner.call(withTraceparent(request));
    });
    request.onAdmitted?.();
    // The next spare starts once this first call is answered, not on the cores it needs.
    if (start !== 'warm') void outcome.finally(() => this.#replenish(sandbox, request.runtime ?? 'node')).catch(() => undefined);
    return outcome;
  }

  /**
   * Has a spare of `runtime` started, when there is none and the pool has room: a first call
   * is likely soon (a pack of that runtime was just installed). Does nothing when spares are
   * off or such runners cannot start.
   */
  async prepareSpare(runtime: RunnerRuntime = 'node'): Promise<void> {
    this.#replenish(await this.#sandboxReady(), runtime);
  }

  /** Stops the runners of every pack key starting with `packKeyPrefix` (e.g. `${packId}@`). */
  async evict(packKeyPrefix: string): Promise<void> {
    const doomed = [...this.#live].filter((runner) => runner.packKey.startsWith(packKeyPrefix));
    await Promise.all(doomed.map((runner) => runner.stop('evicted')));
  }

  /**
   * Runners of every pack key starting with `packKeyPrefix` take no new calls and stop once the
   * calls they have are answered, each within its own timeout: a pack reloaded by `svc pack dev`,
   * whose calls in flight finish on the code they were made to.
   */
  retire(packKeyPrefix: string): void {
    for (const runner of this.#live) if (runner.packKey.startsWith(packKeyPrefix)) runner.retire();
  }

  /** Kills every runner (calls in progress fail) and refuses new calls; bounded in time. */
  async close(): Promise<void> {
    this.#closed = true;
    const stopped = Promise.all([...this.#live].map((runner) => runner.stop('shutdown'))).then(() => this.#slots?.close());
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
    return { live: this.#live.size, starts: this.#starts, assigned: this.#assigned, spares: this.#spareStates(), load, droppedOutputBytes: this.#droppedOutputBytes };
  }

  /** The runner a call goes to: the tenant's warm one for the pack version, the spare made its, or one started for it (cold). */
  #runnerFor(request: PoolRunRequest, sandbox: RunnerSandbox): { runner: RunnerProcess; start: 'warm' | 'spare' | 'cold'; ready?: Promise<boolean> } {
    if (this.#closed) throw new ServiceUnavailableError('The pack runner pool is shut down');
    const tenant = request.context.tenant;
    const key = runnerKey(request.packKey, tenant);
    const active = this.#active.get(key);
    if (active) return { runner: active, start: 'warm' };
    const own = this.#byTenant.get(tenant) ?? [];
    if (request.tenantRunners !== undefined && running(own) >= request.tenantRunners && !this.#evictLeastRecentlyUsed(own)) {
      throw new RunnersBusyError('tenant_runners', request.tenantRunners);
    }
    const pack = { packKey: request.packKey, packDir: resolve(request.packDir) };
    const runtime = request.runtime ?? 'node';
    const spare = this.#takeSpare(runtime);
    if (spare) {
      const files = this.#slots!.fill(this.#slotOf.get(spare)!, pack.packDir);
      spare.serve(pack, files);
      this.#place(spare, key, tenant);
      const ready = Promise.all([spare.ready, files.then(() => true, () => false)]).then(([up, given]) => up && given);
      return { runner: spare, start: 'spare', ready };
    }
    if (running(this.#live) >= this.#maxRunners && !this.#stopSpare() && !this.#evictLeastRecentlyUsed(this.#active.values())) {
      throw new RunnersBusyError('pool_full', this.#maxRunners);
    }
    const runner = this.#launch(sandbox, runtime, pack.packDir, pack);
    this.#place(runner, key, tenant);
    return { runner, start: 'cold', ready: runner.ready };
  }

  #launch(sandbox: RunnerSandbox, runtime: RunnerRuntime, dir: string, pack?: ServedPack): RunnerProcess {
    const runner = new RunnerProcess({
      pack,
      dir,
      script: this.#script,
      runtime,
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
        const placed = this.#placed.get(detached);
        if (placed && this.#active.get(placed.key) === detached) this.#active.delete(placed.key);
        this.#dropSpare(detached);
      },
      onExit: (gone) => this.#forget(gone),
      onOutputDropped: (bytes) => {
        this.#droppedOutputBytes += bytes;
      },
    });
    this.#starts += 1;
    this.#live.add(runner);
    return runner;
  }

  /** Files a runner as the one taking `key`'s calls, among its tenant's. */
  #place(runner: RunnerProcess, key: string, tenant: string): void {
    this.#assigned += 1;
    this.#active.set(key, runner);
    this.#placed.set(runner, { key, tenant });
    const own = this.#byTenant.get(tenant) ?? new Set<RunnerProcess>();
    own.add(runner);
    this.#byTenant.set(tenant, own);
  }

  #forget(gone: RunnerProcess): void {
    this.#live.delete(gone);
    const placed = this.#placed.get(gone);
    this.#placed.delete(gone);
    if (placed) {
      const own = this.#byTenant.get(placed.tenant);
      own?.delete(gone);
      if (own?.size === 0) this.#byTenant.delete(placed.tenant);
    }
    const slot = this.#slotOf.get(gone);
    this.#slotOf.delete(gone);
    if (slot) void this.#slots!.remove(slot).catch((err: Error) => this.#logger.warn('runner folder not removed', { slot, error: err.message }));
  }

  #spareStates(): RunnerPoolStats['spares'] {
    const states: RunnerPoolStats['spares'] = {};
    for (const [runtime, spare] of this.#spares) states[runtime] = spare.up ? 'ready' : 'starting';
    return states;
  }

  /** The runtime's spare, when one is up or starting and may still take a pack. */
  #takeSpare(runtime: RunnerRuntime): RunnerProcess | undefined {
    const spare = this.#spares.get(runtime);
    this.#spares.delete(runtime);
    return spare?.accepting ? spare : undefined;
  }

  #dropSpare(runner: RunnerProcess): void {
    for (const [runtime, spare] of this.#spares) if (spare === runner) this.#spares.delete(runtime);
  }

  /** Stops a spare to make room for a runner a call needs; false when there is none. */
  #stopSpare(): boolean {
    for (const runtime of this.#spares.keys()) {
      const spare = this.#takeSpare(runtime);
      if (spare) {
        void spare.stop('idle');
        return true;
      }
    }
    return false;
  }

  /**
   * Starts a spare of `runtime` for the next first call of it, when there is none, spares are
   * wanted, the pool has room and this worker runs that runtime: such a first call then waits
   * for its pack's files to be linked rather than for a process, its sandbox and its interpreter
   * to start. A spare no call takes stops when idle, as any runner.
   */
  #replenish(sandbox: RunnerSandbox, runtime: RunnerRuntime): void {
    if (!sandbox.usable || !this.#slots || this.#spares.has(runtime) || this.#sparing.has(runtime) || this.#closed || running(this.#live) >= this.#maxRunners) return;
    if (runtime === 'python' && !sandbox.runsPython) return;
    this.#sparing.add(runtime);
    this.#slots
      .create()
      .then((slot) => {
        if (this.#closed || running(this.#live) >= this.#maxRunners) return this.#slots!.remove(slot);
        const spare = this.#launch(sandbox, runtime, slot);
        this.#slotOf.set(spare, slot);
        this.#spares.set(runtime, spare);
      })
      .catch((err: Error) => this.#logger.warn('spare runner not started', { runtime, error: err.message }))
      .finally(() => {
        this.#sparing.delete(runtime);
      });
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
