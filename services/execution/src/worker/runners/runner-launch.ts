import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { RunnerSettings } from './runner-protocol.js';

/**
 * The only environment a runner gets: no platform credentials, no PATH, no NODE_OPTIONS.
 * Fixed values keep packs from behaving differently from one host to the next.
 */
export const RUNNER_ENV: Readonly<Record<string, string>> = Object.freeze({ NODE_ENV: 'production', TZ: 'UTC' });

/**
 * Where `runner/runner.mjs` is: beside the sources (tests, tsx), beside this service's own
 * bundle (`dist/main.js`), or inside the installed package when another bundle inlines this
 * code (the standalone launcher).
 */
export function defaultRunnerScript(): string {
  const candidates = [new URL('../../../runner/runner.mjs', import.meta.url), new URL('../runner/runner.mjs', import.meta.url)].map((url) => fileURLToPath(url));
  const found = candidates.find((candidate) => existsSync(candidate));
  return found ?? createRequire(import.meta.url).resolve('@svc/execution/runner/runner.mjs');
}

export interface LaunchOptions {
  packDir: string;
  script: string;
  memoryLimitMb: number;
  settings: RunnerSettings;
}

/**
 * Node's permission model: reads of the pack folder and of the runner script only; no
 * `--allow-fs-write`, `--allow-child-process`, `--allow-worker` or `--allow-addons`, so all of
 * those are denied with ERR_ACCESS_DENIED. Explicit `execArgv` also keeps the service's own
 * flags (loaders, inspector) away from the runner.
 */
export function runnerExecArgv(options: Pick<LaunchOptions, 'packDir' | 'script' | 'memoryLimitMb'>): string[] {
  const args = ['--experimental-permission', `--allow-fs-read=${options.packDir}`, `--allow-fs-read=${options.script}`, `--max-old-space-size=${options.memoryLimitMb}`];
  // Every runner start would otherwise log the permission model's "experimental" warning.
  if (process.allowedNodeEnvironmentFlags.has('--disable-warning')) args.push('--disable-warning=ExperimentalWarning');
  return args;
}

/** Forks a runner for the pack in `packDir`, its stdout and stderr piped to the parent. */
export function launchRunner(options: LaunchOptions): ChildProcess {
  return fork(options.script, [JSON.stringify(options.settings)], {
    cwd: options.packDir,
    env: { ...RUNNER_ENV },
    execArgv: runnerExecArgv(options),
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
}
