import { describe, expect, it } from 'vitest';
import { AppError, appErrorFrom, ConflictError, ERROR_STATUS, IntegrationError, NotFoundError, RateLimitError, ValidationError } from './errors.js';
import { errorBody } from './envelope.js';

describe('errors', () => {
  it('maps each code of the spec to its HTTP status', () => {
    expect(ERROR_STATUS).toMatchObject({
      VALIDATION_FAILED: 400,
      AUTHENTICATION_FAILED: 401,
      PERMISSION_DENIED: 403,
      NOT_FOUND: 404,
      TIMEOUT: 408,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
      INTEGRATION_ERROR: 502,
      SERVICE_UNAVAILABLE: 503,
    });
    expect(new ValidationError('x').status).toBe(400);
    expect(new RateLimitError('x').status).toBe(429);
  });

  it('names the error type after its class', () => {
    expect(new NotFoundError('gone').type).toBe('NotFoundError');
    expect(new AppError({ status: 400, code: 'SLUG_TAKEN', message: 'taken' }).type).toBe('AppError');
  });

  it('keeps its class, status and type under an endpoint-specific code', () => {
    const error = ConflictError.coded('LAST_OWNER', 'The last owner cannot leave', { org_id: 'o' });
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'LAST_OWNER', type: 'ConflictError', message: 'The last owner cannot leave', details: { org_id: 'o' } });
    expect(new ValidationError('x')).toMatchObject({ code: 'VALIDATION_FAILED', type: 'ValidationError' });
  });

  it('names a subclass for itself, and takes a type and a cause as options', () => {
    class EgressTimeoutError extends IntegrationError {}
    expect(new EgressTimeoutError('late')).toMatchObject({ status: 502, code: 'INTEGRATION_ERROR', type: 'EgressTimeoutError' });
    const cause = new Error('socket closed');
    const error = new IntegrationError('Command failed', {}, { type: 'ValueError', cause });
    expect(error).toMatchObject({ type: 'ValueError', code: 'INTEGRATION_ERROR', cause });
  });

  it('survives a round trip through its serialized form', () => {
    const original = ConflictError.coded('LAST_OWNER', 'no', { a: 1 });
    const copy = appErrorFrom(JSON.parse(JSON.stringify({ status: original.status, code: original.code, type: original.type, message: original.message, details: original.details })));
    expect(copy).toMatchObject({ status: 409, code: 'LAST_OWNER', type: 'ConflictError', message: 'no', details: { a: 1 } });
  });

  it('renders the spec error body', () => {
    const body = errorBody(new NotFoundError('Pack not found', { pack_id: 'p' }), 'req-1');
    expect(body).toEqual({
      success: false,
      error: { type: 'NotFoundError', message: 'Pack not found', code: 'NOT_FOUND', details: { pack_id: 'p' }, correlation_id: 'req-1', timestamp: expect.any(String) },
    });
  });
});
