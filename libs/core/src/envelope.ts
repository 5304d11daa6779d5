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
    correlation_id: string;
    timestamp: string;
  };
}

export function errorBody(err: AppError, correlationId: string): ErrorBody {
  return {
    success: false,
    error: {
      type: err.type,
      message: err.message,
      code: err.code,
      details: err.details,
      correlation_id: correlationId,
      timestamp: new Date().toISOString(),
    },
  };
}
