import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunnerRuntime, RunnerSettings } from './runner-protocol.js';
import type { RunnerSandbox } from './runner-sandbox.js';

/**
 * The only environment a runner gets: no platform credentials, no PATH, no NODE_OPTIONS.
 * Fixed values keep packs from behaving differently from one host to the next. Two malloc
 * arenas: each thread's own arena (Node's V8 helpers and libuv pool; a Python pack's threads)
 * would hold memory that RLIMIT_DATA counts and an idle runner keeps.
 */
export const RUNNER_ENV: Readonly<Record<string, string>> = Object.freeze({ NODE_ENV: 'production', TZ: 'UTC', MALLOC_ARENA_MAX: '2' });

/** A Python runner's environment (Python itself ignores `PYTHON*` variables: it runs isolated). */
export const PYTHON_RUNNER_ENV: Readonly<Record<string, string>> = Object.freeze({ TZ: 'UTC', LANG: 'C.UTF-8', MALLOC_ARENA_MAX: '2' });

/** The Python runner, beside `runner.mjs`. */
export const PYTHON_RUNNER_FILE = 'runner.py';
/**
 * Where `runner/runner.mjs` is (and the other files of its folder): beside the sources (tests,
 * tsx), beside this service's own bundle (`dist/main.js`), or inside the installed package when
 * another bundle inlines this code (the standalone launcher).
 */
export function defaultRunnerScript(): string {
  const candidates = [new URL('../../../runner/runner.mjs', import.meta.url), new URL('../runner/runner.mjs', import.meta.url)].map((url) => fileURLToPath(url));
  const found = candidates.find((candidate) => existsSync(candidate));
  return found ?? createRequire(import.meta.url).resolve('@svc/execution/runner/runner.mjs');
}

const sources = new Map<string, string>();

/**
 * A file of the runner's folder (`runner.mjs`, `runner.py`, `runner-root.sh`, `seccomp.py`), read
 * once: each is handed over as an argument (`node -e`, `sh -c`, `python3 -c`), so the runner needs
 * no access to the service's own files, only to the pack folder.
 */
export function runnerFileSource(path: string): string {
  let source = sources.get(path);
  if (source === undefined) {
    source = readFileSync(path, 'utf8');
    sources.set(path, source);
  }
  return source;
}

export interface LaunchOptions {
  packDir: string;
  /** `runner.mjs`; a Python runner is `runner.py` beside it. */
  script: string;
  runtime: RunnerRuntime;
  memoryLimitMb: number;
  settings: RunnerSettings;
  sandbox: RunnerSandbox;
}

/**
 * Node's permission model: reads of the pack folder only; no `--allow-fs-write`,
 * `--allow-child-process`, `--allow-worker` or `--allow-addons`, so all of those are denied
 * with ERR_ACCESS_DENIED. Explicit arguments also keep the service's own flags (loaders,
 * inspector) away from the runner.
 */
export function runnerNodeArgs(options: Pick<LaunchOptions, 'packDir' | 'script' | 'memoryLimitMb' | 'settings'>): string[] {
  const args = ['--experimental-permission', `--allow-fs-read=${options.packDir}`, `--max-old-space-size=${options.memoryLimitMb}`];
  // Every runner start would otherwise log the permission model's "experimental" warning.
  if (process.allowedNodeEnvironmentFlags.has('--disable-warning')) args.push('--disable-warning=ExperimentalWarning');
  return [...args, '--input-type=module', '-e', runnerFileSource(options.script), JSON.stringify(options.settings)];
}

/**
 * Starts a runner for the pack in `packDir` inside the sandbox: stdout and stderr piped to the
 * parent, and fd 3 the framed channel (`runner-frames.ts`), its only way out. Both runtimes go
 * the same way; only the last link differs (`node` with the permission model, or `runner.py` in
 * the interpreter of seccomp.py's filter).
 */
export function launchRunner(options: LaunchOptions): ChildProcess {
  const { file, args } =
    options.runtime === 'python'
      ? options.sandbox.pythonCommand(options.packDir, runnerFileSource(join(dirname(options.script), PYTHON_RUNNER_FILE)), [JSON.stringify(options.settings)])
      : options.sandbox.command(options.packDir, runnerNodeArgs(options));
  const env = options.runtime === 'python' ? PYTHON_RUNNER_ENV : RUNNER_ENV;
  return spawn(file, args, { cwd: options.packDir, env: { ...env }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
}
