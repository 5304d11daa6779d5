import { SvcError } from '@svc/client';
import { clockTime } from './session.js';

/**
 * What can go wrong in `svc`, as one kind per exit code. Every failure the client reports is a
 * CliError; `exitCodeOf` is the only place a kind becomes a process exit code.
 */
export type ErrorKind = 'general' | 'auth' | 'validation' | 'network' | 'server' | 'command' | 'interrupted';

/** The spec's exit codes, one per kind. */
export const EXIT_CODES: Readonly<Record<ErrorKind, number>> = Object.freeze({
  general: 1,
  auth: 2,
  validation: 3,
  network: 4,
  server: 5,
  command: 10,
  interrupted: 130,
});

export interface CliErrorOptions {
  /** A machine code, the platform's `error.code` when it came from an answer (`MANIFEST_INVALID`). */
  code?: string;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: CliErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.code = options.code;
    this.details = options.details;
  }
}

/** How to turn developer mode on, named by every "developer mode required" message. */
export const DEVELOPER_MODE_HINT = 'turn it on with `svc account developer --org-slug <slug> --org-name <name>` (a new organization) or `svc account developer --invite <code>` (join one)';

export const validationError = (message: string, options?: CliErrorOptions) => new CliError('validation', message, options);
export const authError = (message: string, options?: CliErrorOptions) => new CliError('auth', message, options);

/** The kind of an HTTP answer's failure: 401 → auth, 400/409/413/422 → validation, 5xx → server. */
export function kindOfStatus(status: number): ErrorKind {
  if (status === 401) return 'auth';
  if (status >= 500) return 'server';
  if (status === 400 || status === 409 || status === 413 || status === 422) return 'validation';
  return 'general';
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT']);

/** The system error code behind a failed `fetch` (undici wraps it in `cause`, or in an AggregateError's `errors`), if any. */
function systemCodeOf(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 5) return undefined;
  const { code, cause, errors } = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  for (const inner of Array.isArray(errors) ? errors : []) {
    const found = systemCodeOf(inner, depth + 1);
    if (found) return found;
  }
  return systemCodeOf(cause, depth + 1);
}

/** Whether `err` is a connection refused, a DNS failure or a timeout on the way to a server. */
export function isNetworkFailure(err: unknown): boolean {
  if (systemCodeOf(err)) return true;
  const { name, message } = (err ?? {}) as { name?: string; message?: string };
  // undici reports every failure to connect as this TypeError, whatever the cause.
  return name === 'TimeoutError' || (name === 'TypeError' && message === 'fetch failed');
}

/** A problem of a pack or a dashboard, as the checks (and the registry's `details.issues`) list them. */
export interface Problem {
  field: string;
  message: string;
  code: string;
  /** A warning (advice `--strict` enforces) rather than an error. */
  level?: 'error' | 'warning';
}

/** Problems as lines for a person, one each: `  ✗ field: message [CODE]` (`!` for a warning). */
export function problemLines(problems: Problem[]): string[] {
  return problems.map((problem) => `  ${problem.level === 'warning' ? '!' : '✗'} ${problem.field}: ${problem.message} [${problem.code}]`);
}

/** "`subject` has 2 problems:" and a line for each. */
export function problemsMessage(subject: string, problems: Problem[]): string {
  return `${subject} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problemLines(problems).join('\n')}`;
}

/** The problems an answer lists (the registry's `details.issues`), when it lists more than one. */
function listedProblems(details: Record<string, unknown>): Problem[] {
  const issues = Array.isArray(details.issues) ? (details.issues as Problem[]) : [];
  return issues.length > 1 && issues.every((issue) => typeof issue?.field === 'string' && typeof issue.message === 'string') ? issues : [];
}

/** What to add to a platform's refusal so that a person knows what to do next. */
function hintOf(status: number, details: Record<string, unknown>): string {
  if (status === 401) return ' (run `svc login`)';
  if (details.reason === 'developer_mode_required') return `; ${DEVELOPER_MODE_HINT}`;
  if (status === 429 && typeof details.resets_at === 'string') {
    const raise = details.tier === 'free' ? '; a developer_preview access code or a paid plan raises it (`svc status` shows your tier)' : '';
    return ` (at ${clockTime(Date.parse(details.resets_at))})${raise}`;
  }
  return '';
}

/**
 * A failure of `@svc/client` as a CliError: an answer outside 2xx keeps the platform's code,
 * details, correlation id and wait, and gains a hint; no answer is what the failed `fetch` was.
 */
function fromClientError(err: SvcError): CliError {
  if (err.status === 0 && err.cause !== undefined) return asCliError(err.cause);
  const details: Record<string, unknown> = { status: err.status, ...err.details };
  if (err.correlationId) details.correlation_id = err.correlationId;
  if (err.retryAfter !== undefined) details.retry_after = err.retryAfter;
  const listed = problemLines(listedProblems(details));
  const message = [`${err.message}${hintOf(err.status, details)}`, ...listed].join('\n');
  return new CliError(err.status === 0 ? 'general' : kindOfStatus(err.status), message, { code: err.code, details, cause: err });
}

/** Turns anything thrown into a CliError: the client's failures keep the platform's code, network failures become `network`, the rest `general`. */
export function asCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof SvcError) return fromClientError(err);
  if (isNetworkFailure(err)) {
    const code = systemCodeOf(err) ?? ((err as Error).name === 'TimeoutError' ? 'TIMEOUT' : 'NETWORK_ERROR');
    const reason = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
    return new CliError('network', `Could not reach the server (${code}): ${reason}`, { code, cause: err });
  }
  return new CliError('general', err instanceof Error ? err.message : String(err), { cause: err });
}

export function exitCodeOf(err: unknown): number {
  return EXIT_CODES[asCliError(err).kind];
}
