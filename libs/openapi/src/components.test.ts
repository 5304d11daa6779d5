import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBody, NotFoundError, RateLimitError } from '@svc/core';
import { SHARED_SCHEMAS } from './components.js';
import { constant, dateTime, fromZod, object, string } from './schema.js';

const ajv = addFormats(new Ajv04({ allErrors: true, strict: true }));

describe('shared OpenAPI components', () => {
  it('describe the error body libs/core writes, with the 429 extra', () => {
    const validate = ajv.compile(SHARED_SCHEMAS.Error!);
    const body = errorBody(new NotFoundError('Pack not found', { pack_id: 'x' }), 'req-1');
    expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    const limited = errorBody(new RateLimitError('Slow down', { retry_after: 3 }), 'req-2');
    expect(limited.error.retry_after).toBe(3);
    expect(validate(limited)).toBe(true);
    expect(validate({ ...body, error: { ...body.error, stack: 'at …' } })).toBe(false);
  });

  it('turn a contracts schema into a JSON Schema without its $schema', () => {
    const schema = fromZod(z.strictObject({ name: z.string().min(1), ttl: z.number().int().optional() }));
    expect(schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, ttl: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('write OpenAPI 3.0: null by `nullable`, a fixed value as a one-value enum, a zod null branch likewise', () => {
    const validate = ajv.compile(object({ at: { ...dateTime, nullable: true }, ok: constant(true) }));
    expect(validate({ at: null, ok: true })).toBe(true);
    expect(validate({ at: '2025-01-02T03:04:05.000Z', ok: true })).toBe(true);
    expect(validate({ at: null, ok: false })).toBe(false);
    expect(validate({ at: 3, ok: true })).toBe(false);
    const positive = ajv.compile(fromZod(z.number().int().positive()));
    expect([positive(1), positive(0)]).toEqual([true, false]);
    expect(fromZod(z.strictObject({ ttl: z.number().int().positive().nullable(), kind: z.literal('x') }))).toEqual({
      type: 'object',
      properties: { ttl: { type: 'integer', exclusiveMinimum: true, minimum: 0, maximum: Number.MAX_SAFE_INTEGER, nullable: true }, kind: { type: 'string', enum: ['x'] } },
      required: ['ttl', 'kind'],
      additionalProperties: false,
    });
  });

  it('close objects and require every property not named optional', () => {
    expect(object({ a: string(), b: string() }, { optional: ['b'] })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    });
  });
});
