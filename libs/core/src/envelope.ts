import type { AppError } from './errors.js';

/** The success envelope of Part 1 "Conventions": clients unwrap `data`. */
export function ok<T>(data: T): { data: T } {
  return { data };
}

export interface ErrorBody {
  success: false;
  error: {
    type: string;
    message: string;
    code: string;
    details: Record<string, unknown>;
    /** Seconds until the refusing limit frees up: on RATE_LIMITED only (Part 1 "Errors", note 2). */
    retry_after?: number;
    correlation_id: string;
    timestamp: string;
  };
}

export function errorBody(err: AppError, correlationId: string): ErrorBody {
  const retryAfter = err.code === 'RATE_LIMITED' ? err.details.retry_after : undefined;
  return {
    success: false,
    error: {
      type: err.type,
      message: err.message,
      code: err.code,
      details: err.details,
      ...(typeof retryAfter === 'number' ? { retry_after: retryAfter } : {}),
      correlation_id: correlationId,
      timestamp: new Date().toISOString(),
    },
  };
}

/** The reduced error body of Part 1 "Errors", note 1: only a message (an invalid access code). */
export interface ReducedErrorBody {
  success: false;
  error: { message: string };
}

/**
 * `{success: false, error: {message}}`, the reduced form the spec gives some answers (an
 * access code that does not validate); every other failure has the full `errorBody`.
 *
 * @example
 *   res.status(400).json(reducedErrorBody('Access code is invalid, inactive or used up'));
 */
export function reducedErrorBody(message: string): ReducedErrorBody {
  return { success: false, error: { message } };
}
