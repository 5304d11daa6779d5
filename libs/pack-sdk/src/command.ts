/**
 * What a command's code receives. A command is the default export of its `entry` file:
 * `async (input, ctx) => result`, where `input` has already been validated against the
 * command's `input_schema` and `result` must be JSON-serialisable.
 */

export interface CommandLog {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** One stored value of the caller's tenant, as `GET /api/v1/storage/{key}` shows it. */
export interface StorageEntry<T = unknown> {
  key: string;
  value: T;
  created_at: string;
  expires_at: string | null;
}

/** The caller's per-tenant key-value storage; the platform checks every call against the caller. */
export interface CommandStorage {
  get<T = unknown>(key: string): Promise<StorageEntry<T> | null>;
  put(key: string, value: unknown, options?: { ttl?: number }): Promise<{ key: string; created: boolean; expires_at: string | null }>;
  delete(key: string): Promise<{ deleted: boolean }>;
  list(options?: { prefix?: string; limit?: number }): Promise<{ keys: string[]; total: number }>;
}

/** What a command run on an SSH target gave: each stream cut at 256 KiB (`truncated` then true); `exit_code` null when it ended on a signal. */
export interface SshExecResult {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  truncated: boolean;
}

/**
 * Commands on the caller's SSH targets that `pack.yaml` allows (`ssh_targets.allowed`), by
 * target name. `timeout` is in milliseconds, as in Node's `child_process.exec` (`timeoutMs`, as
 * `ctx.fetch` names it, is taken too), 30 s by default. Fails with the platform's messages: target not
 * allowed by this pack's manifest, SSH target not found, no host key fingerprint stored,
 * connection failed, command timed out.
 */
export interface CommandSsh {
  exec(target: string, command: string, options?: { timeout?: number; timeoutMs?: number }): Promise<SshExecResult>;
}

/**
 * HTTP(S) requests made by the worker for the pack: only for a pack whose `pack.yaml` declares
 * `network.egress: true`, only to public addresses (and to its `network.hosts` when listed).
 * Redirects come back as they are; bodies are text, at most 1 MiB each way.
 */
export type CommandFetch = (url: string, options?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<{ status: number; headers: Record<string, string>; body: string }>;

/**
 * Usage a command reports for its caller's tenant. `llm` counts the tokens of one call to a
 * language model by `model` (1-100 characters: letters, digits, `.` `_` `:` `/` `-`); `input` and
 * `output` are whole numbers from 0 to 10,000,000. They count toward the tenant's monthly LLM
 * token quota, by model and by pack. With `byok: true` (the call went to the user's own provider
 * key, bring your own key) the call counts as a request only: no platform tokens, no quota.
 * Resolves once the platform has recorded the report.
 *
 * @example
 *   await ctx.usage.llm({ model: 'gpt-4o', input: 1200, output: 300 });
 *   await ctx.usage.llm({ model: 'gpt-4o', input: 1200, output: 300, byok: true }); // the user's key
 */
export interface CommandUsage {
  llm(report: { model: string; input: number; output: number; byok?: boolean }): Promise<void>;
}

export interface CommandContext {
  /** Tenant the command runs for. */
  tenant: string;
  /** User who asked for the run. */
  user: string;
  /** Correlation id of the run, the same as in the platform's logs and error bodies. */
  correlationId: string;
  /**
   * The run's trace as a W3C `traceparent` header value, when the platform records traces
   * (otherwise undefined): send it on with a request (`ctx.fetch(url, { headers: { traceparent } })`)
   * so that what the command calls joins the run's trace.
   */
  traceparent?: string;
  /** Aborted when the run is cancelled or reaches its timeout; pass it to fetch and the like. */
  signal: AbortSignal;
  log: CommandLog;
  storage: CommandStorage;
  ssh: CommandSsh;
  usage: CommandUsage;
  /** Values of the secrets `pack.yaml` declares, of the caller's tenant (`svc secrets set`); never log them. */
  secrets: Readonly<Record<string, string>>;
  fetch: CommandFetch;
  /**
   * Reports how far the run is: `done` of `total` (when known) units, and a short `message`.
   * An MCP client that asked for progress receives it as `notifications/progress`; a task shows
   * the last report as its `progress` (REST) and status message (MCP Tasks). `done` should grow
   * with each report. Resolves once the report is passed on; each counts as a `ctx` call.
   *
   * @example
   *   for (const [i, file] of files.entries()) {
   *     await ctx.progress(i, files.length, `indexing ${file}`);
   *     await index(file);
   *   }
   */
  progress(done: number, total?: number, message?: string): Promise<void>;
}

export type CommandHandler<I = Record<string, unknown>, O = unknown> = (input: I, ctx: CommandContext) => Promise<O> | O;

/**
 * Types a command's handler; at run time it returns the handler unchanged.
 *
 * @example
 *   // commands/echo.ts, compiled to commands/echo.js
 *   import { defineCommand } from '@svc/pack-sdk';
 *
 *   export default defineCommand<{ text: string }, { text: string }>(async (input, ctx) => {
 *     ctx.log.info('echoing', input.text.length);
 *     return { text: input.text };
 *   });
 */
export function defineCommand<I = Record<string, unknown>, O = unknown>(handler: CommandHandler<I, O>): CommandHandler<I, O> {
  return handler;
}
