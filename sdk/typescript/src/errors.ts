/** The platform's error body (`error` of `{success: false, error}`); reduced bodies carry only `message`. */
export interface ErrorBody {
  type?: string;
  message?: string;
  code?: string;
  details?: Record<string, unknown>;
  correlation_id?: string;
  timestamp?: string;
  retry_after?: number;
}

export interface SvcErrorInit {
  status: number;
  code?: string;
  type?: string;
  details?: Record<string, unknown>;
  correlationId?: string;
  retryAfter?: number;
  cause?: unknown;
}

/**
 * Every failure the client reports: an answer outside 2xx (with the platform's `code`,
 * `details` and `correlation_id`), no answer at all, or a task that did not succeed. Catch
 * `SvcError` for all of them, or a subclass for one kind.
 *
 * @example
 *   try { await svc.storage.get('missing'); } catch (err) { if (err instanceof NotFoundError) … }
 */
export class SvcError extends Error {
  /** The HTTP status; 0 when no answer came (network error, client-side timeout). */
  readonly status: number;
  /** The platform's machine code (`VALIDATION_FAILED`, `IDEMPOTENCY_CONFLICT`, …). */
  readonly code: string;
  /** The platform's `error.type` (the class name on its side), when it gave one. */
  readonly type: string | undefined;
  readonly details: Record<string, unknown>;
  readonly correlationId: string | undefined;
  /** Seconds the platform asked to wait (`Retry-After`, `error.retry_after`). */
  readonly retryAfter: number | undefined;

  constructor(message: string, init: SvcErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code ?? 'UNKNOWN';
    this.type = init.type;
    this.details = init.details ?? {};
    this.correlationId = init.correlationId;
    this.retryAfter = init.retryAfter;
  }
}

/** 400: the request's body, query or path was refused (`details.field` names what). */
export class ValidationError extends SvcError {}
/** 401: no credentials, or ones that are wrong, expired or revoked (after a refresh was tried). */
export class AuthenticationError extends SvcError {}
/** 403: signed in, but not allowed. */
export class PermissionError extends SvcError {}
/** 404: no such thing for this caller (another tenant's look the same as none). */
export class NotFoundError extends SvcError {}
/** 408: the command ran past its timeout; also a client-side `timeoutMs` (status 0, code `CLIENT_TIMEOUT`). */
export class TimeoutError extends SvcError {}
/** 409: a conflict (`IDEMPOTENCY_CONFLICT`, `TASK_REVOKED`, a task already finished, a name taken…). */
export class ConflictError extends SvcError {}
/** 410: the thing existed and is gone (a task's result past retention). */
export class GoneError extends SvcError {}
/** 413: the body is over its limit. */
export class PayloadTooLargeError extends SvcError {}
/** 429: a rate limit or quota, after the retries the client was allowed. */
export class RateLimitError extends SvcError {}
/** 502 `INTEGRATION_ERROR`: the command threw (`type` is its error class) or its runner died. */
export class CommandError extends SvcError {}
/** 503: the platform cannot serve now (its database, or the caller's share of the workers); try again. */
export class ServiceUnavailableError extends SvcError {}
/** Any other 5xx. */
export class ServerError extends SvcError {}
/** No answer: the connection failed or was cut. */
export class NetworkError extends SvcError {}
/** A task `run()` or `tasks.wait()` waited for ended in `failure`, `timeout` or `revoked`; `task` is its last state. */
export class TaskFailedError extends SvcError {
  constructor(
    message: string,
    init: SvcErrorInit,
    readonly task: { task_id: string; status: string; error?: unknown },
  ) {
    super(message, init);
  }
}

const BY_STATUS: Record<number, typeof SvcError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  408: TimeoutError,
  409: ConflictError,
  410: GoneError,
  413: PayloadTooLargeError,
  429: RateLimitError,
  502: CommandError,
  503: ServiceUnavailableError,
};

const DEFAULT_CODES: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'AUTHENTICATION_FAILED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'TIMEOUT',
  429: 'RATE_LIMITED',
  502: 'INTEGRATION_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), if it has a usable one. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The error of an answer outside 2xx, from its body (full, reduced, or not JSON at all). */
export function errorOfResponse(response: Response, body: unknown, what: string): SvcError {
  const error: ErrorBody = body && typeof body === 'object' && 'error' in body && typeof body.error === 'object' && body.error ? (body.error as ErrorBody) : {};
  const status = response.status;
  const Kind = BY_STATUS[status] ?? (status >= 500 ? ServerError : SvcError);
  const text = typeof body === 'string' && body ? body.slice(0, 200) : undefined;
  const message = error.message ?? text ?? `${what} answered ${status}`;
  return new Kind(message, {
    status,
    code: error.code ?? DEFAULT_CODES[status] ?? `HTTP_${status}`,
    type: error.type,
    details: error.details,
    correlationId: error.correlation_id ?? response.headers.get('x-request-id') ?? undefined,
    retryAfter: error.retry_after ?? retryAfterSeconds(response.headers),
  });
}
