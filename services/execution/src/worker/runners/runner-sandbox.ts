import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { ServiceUnavailableError, type Logger } from '@svc/core';
import { runnerFileSource } from './runner-launch.js';
import { writeRootFstab } from './root-fstab.js';

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
  /** Folder of `runner-root.sh` and `seccomp.py` (the runner's own folder). */
  runnerDir: string;
  /** Who runners run as when the worker runs as root; default 65534 (nobody). */
  uid?: number;
  gid?: number;
  /** The interpreter of Python packs: a name looked up in the system's program folders, or a path. Default `python3`. */
  python?: string;
  logger: Logger;
}

/** The interpreter Python packs run on. */
export interface PythonInterpreter {
  /** Its path. */
  interpreter: string;
  /** `major.minor.micro`, e.g. `3.11.2`. */
  version: string;
}

/** What a runner gets on this host. */
export interface SandboxReport {
  /**
   * Own network, PID and mount namespaces (and user namespaces when the worker is not root): no
   * network, no other process in sight, and a filesystem of Node and the pack only.
   */
  namespaces: boolean;
  /** The kernel limits of `RunnerLimits`. */
  rlimits: boolean;
  /** A seccomp filter refusing namespaces, mounts, ptrace, BPF and the like (`runner/seccomp.py`). */
  seccomp: boolean;
  /** The uid runners run as in their namespace: 65534 (or `SVC_RUNNER_UID`) under a root worker, else 0 of a user namespace of their own, without capabilities. */
  uid: number;
  /** Their gid; they have no other group. */
  gid: number;
  /** The interpreter of Python packs; null when there is none (Python packs then fail with SandboxUnavailableError). */
  python: PythonInterpreter | null;
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
/** Where a Python named without a folder is looked for: the system's, then the administrator's. */
const PYTHON_DIRS = [...TOOL_DIRS, '/usr/local/bin'];
/** Python's flags for runners: isolated (no PYTHON* variables, user site or script folder), no site-packages, no bytecode written, UTF-8. */
const PYTHON_FLAGS = ['-I', '-S', '-B', '-X', 'utf8'];

function tool(name: string, dirs = TOOL_DIRS): string | undefined {
  return dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
}

/** A file of the runner's folder, or undefined (and why, in `missing`) when it is not there. */
function runnerFile(runnerDir: string, name: string, missing: string[]): string | undefined {
  try {
    return runnerFileSource(join(runnerDir, name));
  } catch (err) {
    missing.push(`${name} cannot be read beside the runner: ${(err as Error).message}`);
    return undefined;
  }
}

/** Runs `argv` (a wrapper chain ending in `node -e 0`); resolves with why it failed, or undefined. */
function attempt(argv: string[]): Promise<string | undefined> {
  return output(argv).then((result) => ('failed' in result ? result.failed : undefined));
}

function output(argv: string[]): Promise<{ stdout: string } | { failed: string }> {
  const [file = process.execPath, ...args] = argv;
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env: {} }, (error, stdout, stderr) => resolve(error ? { failed: (stderr.trim() || error.message).slice(0, 300) } : { stdout }));
  });
}

/** The Python interpreter `name` names and its version, or undefined (and why, in `missing`). */
async function findPython(name: string, missing: string[]): Promise<PythonInterpreter | undefined> {
  const path = isAbsolute(name) ? (existsSync(name) ? name : undefined) : tool(name, PYTHON_DIRS);
  if (!path) {
    missing.push(`${name} not found${isAbsolute(name) ? '' : ` in ${PYTHON_DIRS.join(', ')}`}: Python packs cannot run (SVC_PYTHON names the interpreter)`);
    return undefined;
  }
  const probe = await output([path, ...PYTHON_FLAGS, '-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])']);
  if ('failed' in probe) {
    missing.push(`${path} does not run: ${probe.failed}`);
    return undefined;
  }
  return { interpreter: path, version: probe.stdout.trim() };
}

/**
 * Folders a runner's root must show besides the system's for `python`: its installation prefix
 * (the folder above its `bin/`, holding its standard library) when it lives outside `/usr`.
 */
function pythonFolders(python: PythonInterpreter | undefined): string[] {
  if (!python) return [];
  const real = realpathSync(python.interpreter);
  const prefix = dirname(dirname(real));
  return real.startsWith('/usr/') || prefix === '/' ? [] : [prefix];
}

/**
 * What building a runner's root needs, in a folder of this worker's uid: the fstab of its common
 * part, an empty folder it is built on (each runner's mount namespace mounts over it; nothing shows
 * outside), and an empty pack folder to probe with.
 */
function rootFiles(extraFolders: string[]): { fstab: string; mountPoint: string; probePack: string } {
  const base = join(tmpdir(), `svc-runners-${process.getuid?.() ?? 'user'}`);
  const mountPoint = join(base, 'root');
  const probePack = join(base, 'probe');
  for (const folder of [mountPoint, probePack]) mkdirSync(folder, { recursive: true, mode: 0o755 });
  const fstab = join(base, 'root.fstab');
  writeRootFstab(fstab, mountPoint, process.execPath, extraFolders);
  return { fstab, mountPoint, probePack };
}

/**
 * How runners start on this host: the `node` command line of a runner, wrapped in
 *
 *   setpriv         dies with the worker, however the worker ends
 *   unshare         own mount, network and PID namespaces (and a user namespace when the worker
 *                   is not root): a loopback that is down (nothing to connect to), no other
 *                   process to signal or renice
 *   runner-root.sh  a root of its own: Node and its libraries and the pack folder, read-only, an
 *                   empty /tmp; nothing else of the host (no Unix sockets, /dev/shm, home, data)
 *   setpriv         uid/gid 65534 (the worker is root), or root of the user namespace without any
 *                   capability (it is not); no new privileges
 *   prlimit         RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_NPROC, no core files, no file writes
 *   nice            a lower scheduling priority than the platform
 *   seccomp.py      a seccomp filter (where python3 and the kernel have it); a Python runner
 *                   runs inside that interpreter once it is installed, with execve, fork and
 *                   every clone but a thread's refused as well
 *
 * each probed once by running `node -e 0` that way. Each wrapper execs the next, so the runner is
 * the grandchild of `unshare`, which (with --kill-child) takes it along when killed.
 */
export class RunnerSandbox {
  readonly report: SandboxReport;
  readonly #options: SandboxOptions;
  /** Up to the pack folder, runner-root.sh's last argument before the command; empty without namespaces. */
  readonly #enter: string[];
  /** What runs inside the namespaces, before node: a uid of its own, kernel limits. */
  readonly #confine: string[];
  /** `python3 … seccomp.py`, the last link before node; empty without a filter. */
  readonly #seccomp: string[];
  /** seccomp.py's source, which Python runners run in (undefined without a filter). */
  readonly #seccompSource: string | undefined;

  private constructor(options: SandboxOptions, report: SandboxReport, enter: string[], confine: string[], seccomp: string[]) {
    this.#options = options;
    this.report = report;
    this.#enter = enter;
    this.#confine = confine;
    this.#seccomp = seccomp;
    this.#seccompSource = seccomp.at(-1);
  }

  /** Probes the host and logs what runners get; never throws (runs then fail with SandboxUnavailableError). */
  static async prepare(options: SandboxOptions): Promise<RunnerSandbox> {
    const root = process.getuid?.() === 0;
    const missing: string[] = [];
    const limits = await RunnerSandbox.#limitsPrefix(options.limits, missing);
    const seccomp = await RunnerSandbox.#seccompPrefix(options.runnerDir, missing);
    const python = await findPython(options.python ?? 'python3', missing);
    const namespaces = await RunnerSandbox.#namespaces(root, options, limits, seccomp, pythonFolders(python), missing);
    const uid = namespaces ? (root ? (options.uid ?? NOBODY) : 0) : (process.getuid?.() ?? -1);
    const gid = namespaces ? (root ? (options.gid ?? NOBODY) : 0) : (process.getgid?.() ?? -1);
    const report: SandboxReport = { namespaces: namespaces !== undefined, rlimits: limits.length > 0, seccomp: seccomp.length > 0, uid, gid, python: python ?? null, missing };
    const sandbox = new RunnerSandbox(options, report, namespaces?.enter ?? [], namespaces?.confine ?? limits, seccomp);
    sandbox.#announce();
    return sandbox;
  }

  /** Whether runners may start at all. */
  get usable(): boolean {
    return this.report.namespaces || this.#options.mode === 'best-effort';
  }

  /** The command that starts `node …nodeArgs` for the pack in `packDir`; throws SandboxUnavailableError when it may not. */
  command(packDir: string, nodeArgs: string[]): { file: string; args: string[] } {
    return this.#wrap(packDir, [...this.#seccomp, process.execPath, ...nodeArgs]);
  }

  /**
   * The command that runs the Python runner's `source` with `args` for the pack in `packDir`:
   * inside seccomp.py's interpreter once its filter (with execve, fork and processes refused) is
   * installed. Python has no permission model of its own, so a worker that must sandbox runs no
   * Python pack without the filter.
   */
  pythonCommand(packDir: string, source: string, args: string[]): { file: string; args: string[] } {
    const python = this.requirePython();
    const program = this.#seccompSource === undefined ? ['-c', source] : ['-c', this.#seccompSource, '--python-runner', source];
    return this.#wrap(packDir, [python.interpreter, ...PYTHON_FLAGS, ...program, ...args]);
  }

  /** Whether Python runners may start: there is an interpreter, confined where the sandbox is required. */
  get runsPython(): boolean {
    return this.report.python !== null && !this.#pythonUnconfined;
  }

  get #pythonUnconfined(): boolean {
    return this.#seccompSource === undefined && this.#options.mode === 'required';
  }

  /** The interpreter of Python runners; throws SandboxUnavailableError when there is none or it could not be confined. */
  requirePython(): PythonInterpreter {
    const python = this.report.python;
    if (!python) throw new SandboxUnavailableError(this.report.missing);
    if (this.#pythonUnconfined) {
      throw new SandboxUnavailableError([...this.report.missing, 'Python runners need the seccomp filter, which refuses them new processes']);
    }
    return python;
  }

  #wrap(packDir: string, program: string[]): { file: string; args: string[] } {
    if (!this.usable) throw new SandboxUnavailableError(this.report.missing);
    const enter = this.#enter.length > 0 ? [...this.#enter, packDir, '--'] : [];
    const [file = process.execPath, ...args] = [...enter, ...this.#confine, ...program];
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

  static async #seccompPrefix(runnerDir: string, missing: string[]): Promise<string[]> {
    const python = tool('python3');
    if (!python) {
      missing.push('python3 not found: runners get no seccomp filter');
      return [];
    }
    const filter = runnerFile(runnerDir, 'seccomp.py', missing);
    if (filter === undefined) return [];
    // -I -S: no environment, user site or site-packages; the filter's source travels as an argument.
    const prefix = [python, '-I', '-S', '-c', filter];
    const failed = await attempt([...prefix, process.execPath, '-e', '0']);
    if (failed === undefined) return prefix;
    missing.push(`no seccomp filter for runners: ${failed}`);
    return [];
  }

  static async #namespaces(root: boolean, options: SandboxOptions, limits: string[], seccomp: string[], extraFolders: string[], missing: string[]): Promise<{ enter: string[]; confine: string[] } | undefined> {
    const unshare = tool('unshare');
    const setpriv = tool('setpriv');
    const sh = tool('sh');
    if (!unshare || !setpriv || !sh) {
      missing.push('unshare, setpriv or sh (util-linux) not found: runners would share the network and files of the worker');
      return undefined;
    }
    const script = runnerFile(options.runnerDir, 'runner-root.sh', missing);
    if (script === undefined) return undefined;
    const { fstab, mountPoint, probePack } = rootFiles(extraFolders);
    const enter = [
      // Dies with the worker (a SIGKILL leaves no orphan), and takes the runner along.
      setpriv,
      '--pdeathsig=SIGKILL',
      '--',
      unshare,
      // A worker that is not root becomes root of a user namespace of its own to build the runner's root.
      ...(root ? [] : ['--user', '--map-root-user']),
      '--mount',
      '--net',
      '--pid',
      '--fork',
      '--kill-child=SIGKILL',
      '--',
      sh,
      '-c',
      script,
      'runner-root',
      fstab,
      mountPoint,
    ];
    // Changing uid clears the parent-death signal `--kill-child` set: set it again, so that
    // killing `unshare` (the worker's child) kills the runner too. A worker that is not root
    // leaves runners root of their own user namespace (the only uid it can map), with every
    // capability gone for good: none now, none on exec, none to regain.
    const identity = root
      ? [setpriv, `--reuid=${options.uid ?? NOBODY}`, `--regid=${options.gid ?? NOBODY}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--pdeathsig=SIGKILL', '--no-new-privs', '--']
      : [setpriv, '--inh-caps=-all', '--bounding-set=-all', '--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked', '--pdeathsig=SIGKILL', '--no-new-privs', '--'];
    const confine = [...identity, ...limits];
    const failed = await attempt([...enter, probePack, '--', ...confine, ...seccomp, process.execPath, '-e', '0']);
    if (failed === undefined) return { enter, confine };
    missing.push(`mount, network and PID namespaces could not be made (unshare${root ? '' : ' of a user namespace'}): ${failed}`);
    return undefined;
  }

  #announce(): void {
    const { logger, mode } = this.#options;
    const { namespaces, rlimits, seccomp, uid, missing } = this.report;
    const python = this.report.python ? `${this.report.python.interpreter} (${this.report.python.version})` : null;
    if (namespaces && rlimits && seccomp) {
      logger.info('pack runners are sandboxed', { namespaces, rlimits, seccomp, uid, python });
      if (!python) logger.warn('no Python interpreter: Python packs cannot run on this worker', { missing });
      return;
    }
    if (namespaces && rlimits) {
      logger.warn('pack runners are sandboxed, without a seccomp filter', { namespaces, rlimits, seccomp, uid, python, missing });
      return;
    }
    if (!namespaces && mode === 'required') {
      logger.error('PACK RUNNERS CANNOT BE SANDBOXED ON THIS HOST: this worker runs no pack. Make user, mount and network namespaces available, or set SVC_RUNNER_SANDBOX=best-effort to run packs without (they could then reach every network address and every Unix socket the worker reaches, and read what the worker may read outside the permission model)', { missing });
      return;
    }
    logger.error('PACK RUNNERS ARE NOT FULLY SANDBOXED ON THIS HOST', { namespaces, rlimits, seccomp, uid, python, missing, mode });
  }
}
