import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ApiClient, SHORT_RATE_LIMIT_WAIT_SECONDS, type TokenStore } from './api.js';
import { Config, SESSION_KEYS, setSession } from './config.js';
import type { CliEnv } from './env.js';
import { validationError } from './errors.js';
import { Output, type OutputFormat } from './output.js';
import { isExpiring, withConfigLock, type SessionTokens } from './session.js';
import { CLI_VERSION } from './version.js';

/** The global options, as every command sees them once merged. */
export interface GlobalOptions {
  verbose: boolean;
  quiet: boolean;
  config: string | undefined;
  output: OutputFormat;
  nonInteractive: boolean;
}

/** The process around the client; tests give their own streams and environment. */
export interface CliIo {
  env: CliEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where relative paths are read from (the process's working directory). */
  cwd: string;
}

/**
 * What a command works with: the merged options, the config, the output and API clients. One
 * per invocation.
 */
export class Context implements TokenStore {
  readonly out: Output;
  readonly interactive: boolean;
  readonly version = CLI_VERSION;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
    readonly config: Config,
    private readonly cleanups: Array<() => Promise<void> | void> = [],
  ) {
    const terminal = Boolean(io.stdout.isTTY && io.stderr.isTTY) && !io.env.plain;
    this.out = new Output({ format: options.output, quiet: options.quiet, verbose: options.verbose, terminal, stdout: io.stdout, stderr: io.stderr });
    // JSON output is for programs: it never waits for a person.
    this.interactive = !options.nonInteractive && options.output === 'text' && Boolean(io.stdin.isTTY && io.stdout.isTTY);
  }

  static async create(io: CliIo, options: GlobalOptions, cleanups?: Array<() => Promise<void> | void>): Promise<Context> {
    const path = options.config ?? io.env.configPath ?? io.env.defaultConfigPath;
    return new Context(io, options, await Config.load(path, io.env), cleanups);
  }

  /** Something to do when the invocation ends, however it ends (a server to close, a folder to remove). */
  onExit(cleanup: () => Promise<void> | void): void {
    this.cleanups.push(cleanup);
  }

  /** The platform's base URL for registry work (publish, install, list): `SVC_REGISTRY_URL`, then `registry.url`. */
  get registryUrl(): string {
    return this.config.string('registry.url')!;
  }

  /** The platform's base URL for everything else: `SVC_API_URL`, else the registry URL. */
  get apiUrl(): string {
    return this.io.env.apiUrl?.replace(/\/+$/, '') ?? this.registryUrl;
  }

  token(): string | undefined {
    return this.config.string('auth.token');
  }

  /** Renews the stored session under the config file's lock (see `session.ts`); a token from SVC_TOKEN is the caller's to renew. */
  async renew(exchange: (refreshToken: string) => Promise<SessionTokens | null>): Promise<boolean> {
    if (this.config.entry('auth.token').source === 'env' || !this.config.string('auth.refresh_token')) return false;
    const before = this.token();
    return withConfigLock(this.config.path, async () => {
      const onDisk = await Config.load(this.config.path, this.io.env);
      const token = onDisk.fileValue('auth.token');
      const refreshToken = onDisk.fileValue('auth.refresh_token');
      // Another svc renewed while this one waited: its tokens are the live ones, and ours are spent.
      if (typeof token === 'string' && token !== before && !isExpiring(token)) {
        this.#adoptSession(onDisk);
        return true;
      }
      if (typeof refreshToken !== 'string') return false;
      const renewed = await exchange(refreshToken);
      if (!renewed) return false;
      setSession(onDisk, renewed);
      await onDisk.save();
      this.#adoptSession(onDisk);
      return true;
    });
  }

  /** Stores a new session (sign-in): the access token, and what renews it when there is one. */
  async saveSession(tokens: SessionTokens): Promise<void> {
    setSession(this.config, tokens);
    await this.config.save();
  }

  #adoptSession(from: Config): void {
    for (const key of SESSION_KEYS) this.config.set(key, from.fileValue(key));
  }

  /** An API client of the platform at `baseUrl` (default: the API URL), with the stored token unless one is given. */
  api(baseUrl: string = this.apiUrl, token?: string): ApiClient {
    const store: TokenStore = token ? { token: () => token, renew: async () => false } : this;
    return new ApiClient({
      baseUrl,
      tokens: store,
      timeoutMs: Number(this.config.get('registry.timeout')) * 1000,
      userAgent: `svc-cli/${this.version} node/${process.versions.node}`,
      debug: (message) => this.out.debug(message),
      // A person at a text terminal sits through a few seconds; scripts and JSON output get the 429 at once.
      rateLimitRetrySeconds: this.options.nonInteractive || this.options.output === 'json' ? 0 : SHORT_RATE_LIMIT_WAIT_SECONDS,
      notice: (message) => this.out.warn(message),
    });
  }

  /** Asks a yes/no question on a terminal; without one, `--force` must be given instead. */
  async confirm(question: string, forceFlag = '--force'): Promise<boolean> {
    if (!this.interactive) throw validationError(`Not asking "${question}" without a terminal: add ${forceFlag} to go ahead`, { code: 'CONFIRMATION_REQUIRED' });
    const answer = await this.ask(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  }

  /** Reads one line from a person; only when interactive. */
  async ask(question: string): Promise<string> {
    const rl = createInterface({ input: this.io.stdin, output: this.io.stderr });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  }

  /** A path the user gave, resolved against the working directory. */
  path(path: string): string {
    return resolve(this.io.cwd, path);
  }
}
