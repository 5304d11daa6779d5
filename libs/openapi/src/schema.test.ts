import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataResponse } from './operation.js';
import { componentSchemas, fromZod } from './schema.js';

const Owner = z.object({ id: z.uuid(), since: z.iso.datetime() }).meta({ id: 'TestOwner', description: 'Who owns it.' });
const Thing = z.object({ name: z.string(), owner: Owner, previous: Owner.nullable() }).meta({ id: 'TestThing' });

describe('answers described by their zod contracts', () => {
  it('name each component by its id and refer to the components it contains', () => {
    expect(componentSchemas(Thing)).toEqual({
      TestThing: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          owner: { $ref: '#/components/schemas/TestOwner' },
          previous: { nullable: true, allOf: [{ $ref: '#/components/schemas/TestOwner' }] },
        },
        required: ['name', 'owner', 'previous'],
        additionalProperties: false,
      },
      // A named format stands for itself, without zod's regular expression for it.
      TestOwner: {
        type: 'object',
        description: 'Who owns it.',
        properties: { id: { type: 'string', format: 'uuid' }, since: { type: 'string', format: 'date-time' } },
        required: ['id', 'since'],
        additionalProperties: false,
      },
    });
  });

  it('refuse a component without a name', () => {
    expect(() => componentSchemas(z.object({ a: z.string() }))).toThrow(/needs a name/);
  });

  it('answer a named schema in the envelope by reference, an unnamed one inline', () => {
    const named = dataResponse('The thing.', Thing).content!['application/json']!.schema as { properties: Record<string, unknown> };
    expect(named.properties.data).toEqual({ $ref: '#/components/schemas/TestThing' });
    const inline = dataResponse('Things.', z.object({ things: z.array(Thing) })).content!['application/json']!.schema as { properties: Record<string, unknown> };
    expect(inline.properties.data).toEqual({
      type: 'object',
      properties: { things: { type: 'array', items: { $ref: '#/components/schemas/TestThing' } } },
      required: ['things'],
      additionalProperties: false,
    });
  });

  it('write what OpenAPI 3.0 needs said: null in a nullable enum, an exact count as an integer, no default in an answer', () => {
    const answer = z.object({ reason: z.enum(['paused', 'stopped']).nullable(), runs: z.literal(1000), tags: z.array(z.string()).default([]) });
    expect(fromZod(answer, 'output').properties).toEqual({
      reason: { type: 'string', enum: ['paused', 'stopped', null], nullable: true },
      runs: { type: 'integer', enum: [1000] },
      tags: { type: 'array', items: { type: 'string' } },
    });
  });

  it('keep the patterns of what a client sends', () => {
    expect(fromZod(z.object({ id: z.uuid() })).properties?.id).toHaveProperty('pattern');
  });
});
