/**
 * The one error type of the fleet. Every failure a client can provoke is an
 * AppError; the error middleware turns it into the spec's error body.
 *
 * @example
 *   throw new NotFoundError('Pack not found', { pack_id: id });
 *   throw ConflictError.coded('LAST_OWNER', 'The last owner of an organization cannot be removed');
 */

/** Code → HTTP status of Part 1 "Errors", plus the codes the spec leaves to us. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  AUTHENTICATION_FAILED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  INTEGRATION_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

export interface AppErrorOptions {
  status: number;
  /** Machine code: one of ERROR_STATUS or an endpoint-specific one such as SLUG_TAKEN. */
  code: string;
  message: string;
  /** Exception class name shown as error.type; defaults to the class's own name. */
  type?: string;
  details?: ErrorDetails;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly details: ErrorDetails;

  constructor(options: AppErrorOptions) {
    super(options.message, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.type = options.type ?? new.target.name;
    this.details = options.details ?? {};
  }
}

/** What a subclass of AppError may say beyond its message and details. */
export interface CodedErrorOptions {
  /** An endpoint-specific code (`LAST_OWNER`, `SLUG_TAKEN`) in place of the class's own. */
  code?: string;
  /** error.type, where it names something other than the class (a command's own exception). */
  type?: string;
  cause?: unknown;
}

function codedError(code: ErrorCode, name: string) {
  const status = ERROR_STATUS[code];
  const cls = class extends AppError {
    constructor(message: string, details?: ErrorDetails, options: CodedErrorOptions = {}) {
      // The type defaults to the class's name: a subclass (EgressTimeoutError) is named for itself.
      super({ status, code: options.code ?? code, message, details, cause: options.cause, type: options.type });
    }

    /**
     * This class's status and type under an endpoint-specific code.
     *
     * @example
     *   throw ConflictError.coded('LAST_OWNER', 'The last owner of an organization cannot be removed');
     */
    static coded<T extends AppError>(this: new (message: string, details?: ErrorDetails, options?: CodedErrorOptions) => T, specific: string, message: string, details?: ErrorDetails): T {
      return new this(message, details, { code: specific });
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

export const ValidationError = codedError('VALIDATION_FAILED', 'ValidationError');
export const AuthenticationError = codedError('AUTHENTICATION_FAILED', 'AuthenticationError');
export const PermissionError = codedError('PERMISSION_DENIED', 'PermissionError');
export const NotFoundError = codedError('NOT_FOUND', 'NotFoundError');
export const MethodNotAllowedError = codedError('METHOD_NOT_ALLOWED', 'MethodNotAllowedError');
export const TimeoutError = codedError('TIMEOUT', 'TimeoutError');
export const ConflictError = codedError('CONFLICT', 'ConflictError');
export const GoneError = codedError('GONE', 'GoneError');
export const PayloadTooLargeError = codedError('PAYLOAD_TOO_LARGE', 'PayloadTooLargeError');
export const UnsupportedMediaTypeError = codedError('UNSUPPORTED_MEDIA_TYPE', 'UnsupportedMediaTypeError');
export const RateLimitError = codedError('RATE_LIMITED', 'RateLimitError');
export const HeadersTooLargeError = codedError('HEADERS_TOO_LARGE', 'HeadersTooLargeError');
export const InternalError = codedError('INTERNAL_ERROR', 'InternalError');
export const IntegrationError = codedError('INTEGRATION_ERROR', 'IntegrationError');
export const ServiceUnavailableError = codedError('SERVICE_UNAVAILABLE', 'ServiceUnavailableError');
export const GatewayTimeoutError = codedError('GATEWAY_TIMEOUT', 'GatewayTimeoutError');

/** An AppError rebuilt from its serialized form, e.g. after crossing the bus. */
export function appErrorFrom(body: { status: number; code: string; message: string; type?: string; details?: ErrorDetails }): AppError {
  return new AppError(body);
}
