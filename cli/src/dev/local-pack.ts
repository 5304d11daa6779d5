import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@svc/core';
// The platform's own pack runner: the same child process, permissions, limits and IPC as a worker.
import { RunnerPool, type Hooks } from '@svc/execution/runners';
import { compileInputSchema, parseManifest, PackFormatError, type CommandManifest, type InputValidator, type PackManifest } from '@svc/pack-sdk';
import { CliError, validationError } from '../errors.js';
import { findingsOf } from '../pack/check.js';
import { readManifestText } from '../pack/project.js';
import type { DevStorage } from './dev-storage.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Where `runner.mjs` is: beside the bundle (`dist/runner/`), or in the execution package (sources, tests). */
function runnerScript(): string {
  const bundled = fileURLToPath(new URL('./runner/runner.mjs', import.meta.url));
  return existsSync(bundled) ? bundled : createRequire(import.meta.url).resolve('@svc/execution/runner/runner.mjs');
}

/** The pool's logger, printing pack output and runner trouble at or above `level`. */
export function lineLogger(level: LogLevel, write: (line: string) => void): Logger {
  const min = LEVELS.indexOf(level);
  const log = (at: string, message: string, meta: Record<string, unknown> = {}) => {
    if (LEVELS.indexOf(at as LogLevel) < min) return;
    const source = meta.source === 'pack' ? `[${String(meta.command ?? 'pack')}]` : '[runner]';
    const extra = meta.source === 'pack' ? '' : Object.entries(meta).map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join('');
    write(`${source} ${at}: ${message}${extra}`);
  };
  const logger = { log, debug: (m: string, meta?: Record<string, unknown>) => log('debug', m, meta), info: (m: string, meta?: Record<string, unknown>) => log('info', m, meta), warn: (m: string, meta?: Record<string, unknown>) => log('warn', m, meta), error: (m: string, meta?: Record<string, unknown>) => log('error', m, meta) };
  return logger as unknown as Logger;
}

export interface LocalRun {
  value: unknown;
  durationMs: number;
  correlationId: string;
}

/** Where local runs find the values of the secrets a pack declares: `{"NAME": "value"}`. */
export const LOCAL_SECRETS_FILE = join('.svc', 'secrets.json');

export interface LocalPackOptions {
  logger: Logger;
  storage: DevStorage;
  /** Tenant and user the runs are made for (`ctx.tenant`, `ctx.user`). */
  tenant?: string;
  user?: string;
  /** The interpreter of Python packs (`SVC_PYTHON`); default `python3`. */
  python?: string;
}

/** A pack error as the CLI reports it: a pack's own failure is exit code 10. */
function commandFailure(err: unknown, command: string): CliError {
  const error = err as { code?: string; message?: string; type?: string; details?: Record<string, unknown> };
  return new CliError('command', `${command}: ${error.message ?? String(err)}`, { code: error.code ?? 'COMMAND_FAILED', details: { type: error.type ?? (err as Error).name, ...error.details } });
}

/**
 * A pack folder run the way the platform runs it: its manifest parsed with `@svc/pack-sdk`,
 * input checked against `input_schema`, each command in the execution service's runner (a
 * child process with the permission model, memory and time limits). `reload()` rereads the
 * manifest and replaces the runner, so changed code is loaded by the next run.
 */
export class LocalPack {
  #manifest: PackManifest;
  #validators = new Map<string, InputValidator>();
  #generation = 0;
  readonly #pool: RunnerPool;

  private constructor(
    readonly dir: string,
    manifest: PackManifest,
    private readonly options: LocalPackOptions,
  ) {
    this.#manifest = manifest;
    // The developer's own code on their own machine: sandboxed like the fleet where the host can
    // (namespaces, limits, uid 65534 when run as root), without refusing to run where it cannot (macOS).
    this.#pool = new RunnerPool({ logger: options.logger, hooks: this.#hooks(), runnerScript: runnerScript(), maxRunners: 4, sandbox: 'best-effort', python: options.python });
  }

  static async open(dir: string, options: LocalPackOptions): Promise<LocalPack> {
    return new LocalPack(dir, await LocalPack.#read(dir), options);
  }

  static async #read(dir: string): Promise<PackManifest> {
    try {
      return parseManifest(await readManifestText(dir));
    } catch (err) {
      if (!(err instanceof PackFormatError)) throw err;
      throw validationError(err.message, { code: err.code, details: { issues: findingsOf(err) } });
    }
  }

  get manifest(): PackManifest {
    return this.#manifest;
  }

  command(name: string): CommandManifest | undefined {
    return this.#manifest.commands.find((command) => command.name === name);
  }

  /**
   * Rereads `pack.yaml` and starts a fresh runner for the next run; a broken manifest keeps the
   * previous one and throws. Runs in flight finish on the runner of the code before, which stops
   * after them: an editor's save may come as several changes, and so several reloads, while a run
   * made after the first is on its way.
   */
  async reload(): Promise<void> {
    const manifest = await LocalPack.#read(this.dir);
    const previous = this.#generation;
    this.#manifest = manifest;
    this.#validators.clear();
    this.#generation += 1;
    this.#pool.retire(`local@${previous}`);
  }

  /** Runs a command with `input`; rejects with a CliError (validation: exit 3; the pack's failure: exit 10). */
  async run(name: string, input: unknown, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<LocalRun> {
    const command = this.command(name);
    const ref = `${this.#manifest.pack.namespace}/${name}`;
    if (!command) throw new CliError('general', `${ref}: no such command in ${join(this.dir, 'pack.yaml')}`, { code: 'NOT_FOUND' });
    const issues = this.#validator(command)(input);
    if (issues.length > 0) {
      const [first] = issues as [(typeof issues)[0]];
      throw validationError(`${ref}: input ${first.field}: ${first.message}`, { code: 'VALIDATION_FAILED', details: { issues } });
    }
    const correlationId = randomUUID();
    const secrets = await this.#secrets();
    try {
      const outcome = await this.#pool.run({
        packKey: `local@${this.#generation}`,
        packDir: this.dir,
        runtime: this.#manifest.runtime,
        python: this.#manifest.python,
        command: name,
        entry: command.entry,
        input,
        context: { tenant: this.options.tenant ?? 'local', user: this.options.user ?? 'local', correlationId, secrets },
        timeoutMs: options.timeoutMs ?? command.timeout * 1000,
        signal: options.signal,
      });
      return { value: outcome.value, durationMs: outcome.durationMs, correlationId };
    } catch (err) {
      throw commandFailure(err, ref);
    }
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  /** `ctx.secrets` of a local run: the declared names found in `.svc/secrets.json`, read at each run. */
  async #secrets(): Promise<Record<string, string>> {
    let saved: Record<string, unknown> = {};
    try {
      saved = JSON.parse(await readFile(join(this.dir, LOCAL_SECRETS_FILE), 'utf8')) as Record<string, unknown>;
    } catch {
      // No local secrets.
    }
    return Object.fromEntries(this.#manifest.secrets.flatMap((name) => (typeof saved[name] === 'string' ? [[name, saved[name] as string]] : [])));
  }

  #validator(command: CommandManifest): InputValidator {
    let validator = this.#validators.get(command.name);
    if (!validator) {
      validator = compileInputSchema(command.input_schema);
      this.#validators.set(command.name, validator);
    }
    return validator;
  }

  #hooks(): Hooks {
    const storage = this.options.storage;
    return {
      'storage.get': async (_call, args) => storage.get(args as object),
      'storage.put': async (_call, args) => storage.put(args as object),
      'storage.delete': async (_call, args) => storage.delete(args as object),
      'storage.list': async (_call, args) => storage.list(args as object),
      // Locally the report is only logged: there is no caller to pass it to.
      'task.progress': async (call, args) => {
        this.options.logger.info('progress', { command: call.command, ...(args as object) });
        return null;
      },
      'ssh.exec': async () => {
        throw new Error('ctx.ssh is not available when running locally; run the command on the platform');
      },
    };
  }
}
