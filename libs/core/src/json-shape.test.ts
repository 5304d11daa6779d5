import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { MAX_JSON_DEPTH as JSON_MAX_DEPTH } from './json-depth.js';
import { assertJsonShape, jsonShapeProblem } from './json-shape.js';

const nested = (depth: number, leaf: unknown = 1): unknown => JSON.parse(`${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`);

describe('jsonShapeProblem', () => {
  it(`accepts ${JSON_MAX_DEPTH} levels and refuses ${JSON_MAX_DEPTH + 1}, naming where`, () => {
    expect(jsonShapeProblem(nested(JSON_MAX_DEPTH), { maxDepth: JSON_MAX_DEPTH })).toBeUndefined();
    const problem = jsonShapeProblem(nested(JSON_MAX_DEPTH, []), { maxDepth: JSON_MAX_DEPTH });
    expect(problem).toEqual({ field: Array(JSON_MAX_DEPTH).fill('a').join('.'), issue: `is nested deeper than ${JSON_MAX_DEPTH} levels`, limit: JSON_MAX_DEPTH });
  });

  it('looks at 1,000,000 levels without overflowing its stack', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(jsonShapeProblem(deep, { maxDepth: JSON_MAX_DEPTH })?.issue).toBe(`is nested deeper than ${JSON_MAX_DEPTH} levels`);
  });

  it('counts arrays and objects alike, and scalars not at all', () => {
    expect(jsonShapeProblem('text', { maxDepth: 0 })).toBeUndefined();
    expect(jsonShapeProblem({}, { maxDepth: 0 })?.field).toBe('(root)');
    expect(jsonShapeProblem({ a: [{ b: 1 }] }, { maxDepth: 3 })).toBeUndefined();
    expect(jsonShapeProblem({ a: [{ b: [] }] }, { maxDepth: 3 })?.field).toBe('a.0.b');
  });

  it('refuses an array longer than the limit, wherever it is', () => {
    expect(jsonShapeProblem({ list: Array(10).fill(0) }, { maxDepth: 64, maxArrayItems: 10 })).toBeUndefined();
    expect(jsonShapeProblem({ list: [Array(11).fill(0)] }, { maxDepth: 64, maxArrayItems: 10 })).toEqual({ field: 'list.0', issue: 'has 11 items; at most 10 are allowed', limit: 10 });
  });
});

describe('assertJsonShape', () => {
  it('throws a 400 VALIDATION_FAILED naming the field and the limit', () => {
    try {
      assertJsonShape({ list: [[[]]] }, { maxDepth: 2 }, 'input');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'The input field list.0 is nested deeper than 2 levels', details: { field: 'list.0', limit: 2 } });
    }
  });
});
