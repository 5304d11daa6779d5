import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { createClient, type Exchange, type RetryInfo, type SvcClient, type Tokens } from '@svc/client';
import { Config, SESSION_KEYS, setSession } from './config.js';
import type { CliEnv } from './env.js';
import { asCliError, authError, CliError, validationError } from './errors.js';
import { Output, type OutputFormat } from './output.js';
import { API_KEY_PREFIX, isExpiring, isJwt, withConfigLock } from './session.js';
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

/** Waits of a 429 worth sitting through once, in seconds, when a person is watching. */
export const SHORT_RATE_LIMIT_WAIT_SECONDS = 5;

/**
 * What a command works with: the merged options, the config, the output and API clients. One
 * per invocation.
 */
export class Context {
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

  /**
   * Renews the stored session under the config file's lock (see `session.ts`): the tokens
   * another svc renewed to while this one waited, or the stored refresh token spent and the
   * rotated pair saved before the lock is released; null when the session cannot be renewed.
   */
  async renewStored(exchange: Exchange, current: Tokens): Promise<Tokens | null> {
    return withConfigLock(this.config.path, async () => {
      const onDisk = await Config.load(this.config.path, this.io.env);
      const token = onDisk.fileValue('auth.token');
      const refreshToken = onDisk.fileValue('auth.refresh_token');
      // Another svc renewed while this one waited: its tokens are the live ones, and ours are spent.
      if (typeof token === 'string' && token !== current.accessToken && !isExpiring(token)) {
        this.#adoptSession(onDisk);
        return { accessToken: token, refreshToken: typeof refreshToken === 'string' ? refreshToken : undefined };
      }
      if (typeof refreshToken !== 'string') return null;
      const renewed = await exchange(refreshToken);
      if (!renewed) return null;
      setSession(onDisk, renewed);
      await onDisk.save();
      this.#adoptSession(onDisk);
      return renewed;
    });
  }

  /** Stores a new session (sign-in): the access token, and what renews it when there is one. */
  async saveSession(tokens: Tokens): Promise<void> {
    setSession(this.config, tokens);
    await this.config.save();
  }

  #adoptSession(from: Config): void {
    for (const key of SESSION_KEYS) this.config.set(key, from.fileValue(key));
  }

  /**
   * The platform's client at `baseUrl` (default: the API URL) with `token`, else the stored
   * token, which it renews (and rotates in the config file) when a refresh token came with it;
   * a token from SVC_TOKEN is the caller's and is not renewed. Exit 2 when there is none.
   */
  client(baseUrl: string = this.apiUrl, token?: string): SvcClient {
    const credential = token ?? this.token();
    if (!credential) throw authError('Not signed in: run `svc login` (or set SVC_TOKEN)', { code: 'NOT_SIGNED_IN' });
    if (credential.startsWith(API_KEY_PREFIX)) return this.#client(baseUrl, { apiKey: credential });
    const renews = !token && isJwt(credential) && this.config.entry('auth.token').source !== 'env';
    return this.#client(baseUrl, { accessToken: credential, refreshToken: renews ? this.config.string('auth.refresh_token') : undefined });
  }

  /** The platform's client without credentials: health, sign-in. */
  publicClient(baseUrl: string = this.apiUrl): SvcClient {
    return this.#client(baseUrl, {});
  }

  #client(baseUrl: string, credentials: { apiKey?: string; accessToken?: string; refreshToken?: string }): SvcClient {
    // A person at a text terminal sits through a few seconds once; scripts and JSON output get the 429 at once.
    const waits = !this.options.nonInteractive && this.options.output === 'text';
    return createClient({
      baseUrl,
      ...credentials,
      cookies: false,
      renewWith: (exchange, current) => this.renewStored(exchange, current),
      fetch: this.#fetch(baseUrl),
      maxRetries: waits ? 1 : 0,
      maxRetryWaitMs: waits ? SHORT_RATE_LIMIT_WAIT_SECONDS * 1000 : 0,
      onRetry: (info) => this.#retrying(info),
    });
  }

  /** The `fetch` of the client: svc's user agent, `registry.timeout`, `--verbose` lines, and a failure to connect that names the URL and where it came from. */
  #fetch(baseUrl: string): typeof fetch {
    const timeoutMs = Number(this.config.get('registry.timeout')) * 1000;
    const userAgent = `svc-cli/${this.version} node/${process.versions.node}`;
    return async (input, init) => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      headers.set('user-agent', userAgent);
      const { pathname, search } = new URL(request.url);
      this.out.debug(`→ ${request.method} ${pathname}${search}`);
      try {
        const response = await fetch(request, { headers, signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) });
        this.out.debug(`← ${response.status} ${request.method} ${pathname}`);
        return response;
      } catch (err) {
        const failure = asCliError(err);
        if (request.signal.aborted || failure.kind !== 'network') throw err;
        throw new CliError('network', `${failure.message} (the platform at ${baseUrl}: set by SVC_API_URL, SVC_REGISTRY_URL or \`svc config set registry.url <url>\`)`, { code: failure.code, cause: err, details: { url: baseUrl } });
      }
    };
  }

  /** Says why the client waits before sending again: a rate limit by name, anything else on `--verbose`. */
  #retrying(info: RetryInfo): void {
    const seconds = Math.ceil(info.waitMs / 1000);
    if (info.status !== 429) return this.out.debug(`${info.method} ${info.url}: ${info.status || 'no answer'}; trying once more in ${seconds} s`);
    const message = (info.error?.message ?? 'Rate limited').replace(/; retry in \d+ s$/, '');
    this.out.warn(`${message}: waiting ${seconds} s, then trying once more`);
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
