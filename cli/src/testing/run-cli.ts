import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { runCli } from '../cli.js';
import { readEnv } from '../env.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The JSON envelope printed with `--output json`. */
  json(): any;
}

function result(code: number, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json() {
      const lines = stdout.trim().split('\n');
      if (lines.length !== 1) throw new Error(`expected one JSON line on stdout, got:\n${stdout}\nstderr:\n${stderr}`);
      return JSON.parse(lines[0]!);
    },
  };
}

/** A home of its own for each test: config file and signing key in a temporary folder. */
export async function scratchHome(): Promise<{ dir: string; env: Record<string, string>; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-cli-test-'));
  // Runners started as root read packs as uid 65534: the folders they live in must be searchable.
  await chmod(dir, 0o755);
  return { dir, env: { SVC_CONFIG: join(dir, 'config', 'svc', 'config.toml'), HOME: dir, NO_COLOR: '1' }, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `svc args…` in this process, as a person at no terminal would (stdin, stdout and stderr not TTYs). */
export async function svc(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runCli(args, { env: readEnv(options.env), stdin: new PassThrough(), stdout, stderr, cwd: options.cwd });
  return result(code, out, err);
}

const cliRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The built program, as `npx svc` and an installed package run it. */
export const SVC_BIN = join(cliRoot, 'bin', 'svc.js');

/** Fails early and clearly when the CLI was not built (`npm run build` builds it; `npm test` does). */
export function requireBuiltCli(): void {
  if (!existsSync(join(cliRoot, 'dist', 'main.js'))) throw new Error('cli/dist/main.js is missing: run `npm run build` (npm test does) before these tests');
}

export interface SpawnedCli {
  child: ReturnType<typeof spawn>;
  done: Promise<CliResult>;
}

export interface SvcProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** Another `svc` program than the repository's build (one installed from a package). */
  bin?: string;
}

/** Starts the built `svc` (or `bin`) as a child process. */
export function spawnSvc(args: string[], options: SvcProcessOptions): SpawnedCli {
  if (!options.bin) requireBuiltCli();
  const child = spawn(process.execPath, [options.bin ?? SVC_BIN, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(result(code ?? (signal ? 128 : 1), out, err)));
  });
  return { child, done };
}

/** Runs the built `svc` to the end. */
export function svcProcess(args: string[], options: SvcProcessOptions): Promise<CliResult> {
  return spawnSvc(args, options).done;
}

/** Resolves once `read()` contains `text`; rejects after `timeoutMs` with what it read. */
export async function waitForText(read: () => string, text: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!read().includes(text)) {
    if (Date.now() > deadline) throw new Error(`"${text}" did not appear within ${timeoutMs} ms; got:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A scratch home for a whole suite (made before its tests, removed after), and `run` for
 * `svc … -o json` in it.
 */
export function suiteHome() {
  let home: Awaited<ReturnType<typeof scratchHome>> | undefined;
  beforeAll(async () => {
    home = await scratchHome();
  });
  afterAll(async () => {
    await home?.remove();
  });
  const current = () => {
    if (!home) throw new Error('suiteHome() is used before its suite started');
    return home;
  };
  return {
    get dir() {
      return current().dir;
    },
    get env() {
      return current().env;
    },
    run: (args: string[], cwd?: string) => svc([...args, '-o', 'json'], { cwd: cwd ?? current().dir, env: current().env }),
  };
}
