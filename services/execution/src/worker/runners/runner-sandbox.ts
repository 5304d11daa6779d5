import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceUnavailableError, type Logger } from '@svc/core';

/**
 * `required`: a worker that cannot start runners in their own namespaces runs no pack at all.
 * `best-effort`: it runs them with whatever the host offers, and says so loudly at start-up.
 */
export type SandboxMode = 'required' | 'best-effort';

/** Kernel limits of each runner process (setrlimit through `prlimit`). */
export interface RunnerLimits {
  /** RLIMIT_DATA: the runner's private writable memory (heap, buffers), bytes. */
  dataBytes: number;
  /** RLIMIT_CPU: CPU seconds over the runner's life; SIGXCPU retires it, 30 s later the kernel kills it. */
  cpuSeconds: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** RLIMIT_NPROC, counted per user across the host: a bound on threads, since packs cannot start processes. */
  processes: number;
  /** Scheduling niceness: a busy runner yields the CPU to the platform's own processes. */
  nice: number;
}

export interface SandboxOptions {
  mode: SandboxMode;
  limits: RunnerLimits;
  /** Who runners run as when the worker runs as root; default 65534 (nobody). */
  uid?: number;
  gid?: number;
  logger: Logger;
}

/** What a runner gets on this host. */
export interface SandboxReport {
  /** Own network, PID and (when the worker is not root) user namespaces: no network, no other process in sight. */
  namespaces: boolean;
  /** The kernel limits of `RunnerLimits`. */
  rlimits: boolean;
  /** The uid runners run as, seen from the host. */
  uid: number;
  /** Their gid, seen from the host; they have no other group. */
  gid: number;
  /** Why something is missing; empty when nothing is. */
  missing: string[];
}

/** The worker cannot sandbox pack runners and the operator did not allow running them without. */
export class SandboxUnavailableError extends ServiceUnavailableError {
  constructor(missing: string[]) {
    super('This worker cannot isolate pack code, so it runs none; an operator can see why in its log', { missing }, { code: 'SANDBOX_UNAVAILABLE' });
  }
}

const NOBODY = 65534;
/** RLIMIT_CPU's hard limit lies this far past the soft one, which only asks the runner to retire. */
const CPU_GRACE_SECONDS = 30;
const PROBE_TIMEOUT_MS = 10_000;
const TOOL_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

function tool(name: string): string | undefined {
  return TOOL_DIRS.map((dir) => join(dir, name)).find((path) => existsSync(path));
}

/** Runs `argv` (a wrapper chain ending in `node -e 0`); resolves with why it failed, or undefined. */
function attempt(argv: string[]): Promise<string | undefined> {
  const [file = process.execPath, ...args] = argv;
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env: {} }, (error, _stdout, stderr) => resolve(error ? (stderr.trim() || error.message).slice(0, 300) : undefined));
  });
}

/**
 * How runners start on this host: the `node` command line of a runner, wrapped in
 *
 *   setpriv  dies with the worker, however the worker ends
 *   unshare  own network namespace (a loopback that is down: nothing to connect to), own PID
 *            namespace (the worker and every other process cannot be named, so not signalled
 *            or reniced), and when the worker is not root an own user namespace
 *   setpriv  uid/gid 65534 when the worker is root; no new privileges, no capabilities
 *   prlimit  RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_NPROC, no core files, no file writes
 *   nice     a lower scheduling priority than the platform
 *
 * probed once by running `node -e 0` that way. Each wrapper execs the next, so the runner is
 * the grandchild of `unshare`, which (with --kill-child) takes it along when killed.
 */
export class RunnerSandbox {
  readonly report: SandboxReport;
  readonly #options: SandboxOptions;
  readonly #prefix: string[];

  private constructor(options: SandboxOptions, report: SandboxReport, prefix: string[]) {
    this.#options = options;
    this.report = report;
    this.#prefix = prefix;
  }

  /** Probes the host and logs what runners get; never throws (runs then fail with SandboxUnavailableError). */
  static async prepare(options: SandboxOptions): Promise<RunnerSandbox> {
    const root = process.getuid?.() === 0;
    const uid = root ? (options.uid ?? NOBODY) : (process.getuid?.() ?? -1);
    const gid = root ? (options.gid ?? NOBODY) : (process.getgid?.() ?? -1);
    const missing: string[] = [];
    const limits = await RunnerSandbox.#limitsPrefix(options.limits, missing);
    const namespaces = await RunnerSandbox.#namespacesPrefix(root, options, limits, missing);
    const prefix = namespaces ?? limits;
    const report: SandboxReport = { namespaces: namespaces !== undefined, rlimits: limits.length > 0, uid: namespaces || !root ? uid : 0, gid: namespaces || !root ? gid : 0, missing };
    const sandbox = new RunnerSandbox(options, report, prefix);
    sandbox.#announce();
    return sandbox;
  }

  /** Whether runners may start at all. */
  get usable(): boolean {
    return this.report.namespaces || this.#options.mode === 'best-effort';
  }

  /** The command that starts `node …nodeArgs` as a sandboxed runner; throws SandboxUnavailableError when it may not. */
  command(nodeArgs: string[]): { file: string; args: string[] } {
    if (!this.usable) throw new SandboxUnavailableError(this.report.missing);
    const [file = process.execPath, ...args] = [...this.#prefix, process.execPath, ...nodeArgs];
    return { file, args };
  }

  static async #limitsPrefix(limits: RunnerLimits, missing: string[]): Promise<string[]> {
    const prlimit = tool('prlimit');
    const nice = tool('nice');
    if (!prlimit || !nice) {
      missing.push('prlimit or nice (util-linux, coreutils) not found: no kernel limits on runners');
      return [];
    }
    const prefix = [
      prlimit,
      `--data=${limits.dataBytes}`,
      `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + CPU_GRACE_SECONDS}`,
      `--nofile=${limits.openFiles}`,
      `--nproc=${limits.processes}`,
      '--core=0',
      '--fsize=0',
      '--',
      nice,
      '-n',
      String(limits.nice),
      '--',
    ];
    const failed = await attempt([...prefix, process.execPath, '-e', '0']);
    if (failed === undefined) return prefix;
    missing.push(`kernel limits could not be set: ${failed}`);
    return [];
  }

  static async #namespacesPrefix(root: boolean, options: SandboxOptions, limits: string[], missing: string[]): Promise<string[] | undefined> {
    const unshare = tool('unshare');
    const setpriv = tool('setpriv');
    if (!unshare || !setpriv) {
      missing.push('unshare or setpriv (util-linux) not found: runners would share the network of the worker');
      return undefined;
    }
    const user = root ? [] : ['--user', `--map-user=${NOBODY}`, `--map-group=${NOBODY}`];
    // Root drops to the runner's uid and every capability; a user namespace's uid 65534 holds none after exec.
    const identity = root ? [`--reuid=${options.uid ?? NOBODY}`, `--regid=${options.gid ?? NOBODY}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all'] : [];
    const prefix = [
      // Dies with the worker (a SIGKILL leaves no orphan), and takes the runner along.
      setpriv,
      '--pdeathsig=SIGKILL',
      '--',
      unshare,
      ...user,
      '--net',
      '--pid',
      '--fork',
      '--kill-child=SIGKILL',
      '--',
      setpriv,
      ...identity,
      // Changing uid clears the parent-death signal `--kill-child` set: set it again, so that
      // killing `unshare` (the worker's child) kills the runner too.
      '--pdeathsig=SIGKILL',
      '--no-new-privs',
      '--',
      ...limits,
    ];
    const failed = await attempt([...prefix, process.execPath, '-e', '0']);
    if (failed === undefined) return prefix;
    missing.push(`network and PID namespaces could not be made (unshare${root ? '' : ' of a user namespace'}): ${failed}`);
    return undefined;
  }

  #announce(): void {
    const { logger, mode } = this.#options;
    const { namespaces, rlimits, uid, missing } = this.report;
    if (namespaces && rlimits) {
      logger.info('pack runners are sandboxed', { namespaces, rlimits, uid });
      return;
    }
    if (!namespaces && mode === 'required') {
      logger.error('PACK RUNNERS CANNOT BE SANDBOXED ON THIS HOST: this worker runs no pack. Make user and network namespaces available, or set SVC_RUNNER_SANDBOX=best-effort to run packs without (they could then reach every network address the worker reaches)', { missing });
      return;
    }
    logger.error('PACK RUNNERS ARE NOT FULLY SANDBOXED ON THIS HOST', { namespaces, rlimits, uid, missing, mode });
  }
}
