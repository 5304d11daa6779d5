import { ValidationError } from './errors.js';

export interface JsonShapeLimits {
  /** Arrays and objects nested at most this deep (`{}` is 1, `{"a": []}` is 2). */
  maxDepth: number;
  /** Longest array; unlimited when absent. */
  maxArrayItems?: number;
}

export interface JsonShapeProblem {
  /** Dotted path of the offending value, `(root)` for the whole. */
  field: string;
  issue: string;
  limit: number;
}

/**
 * The first place where an already parsed `value` breaks `limits`, walked without recursion (so
 * any depth is safe to look at), or undefined, naming the field: for values that did not arrive
 * as one JSON text (whose depth `jsonNestedDeeperThan` checks before parsing), and for the
 * length of arrays, before a schema runs over them.
 *
 * @example
 *   jsonShapeProblem(JSON.parse('[[[1]]]'), { maxDepth: 2 }); // { field: '0.0', issue: 'is nested deeper than 2 levels', limit: 2 }
 */
export function jsonShapeProblem(value: unknown, limits: JsonShapeLimits): JsonShapeProblem | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const field = path || '(root)';
    if (depth + 1 > limits.maxDepth) return { field, issue: `is nested deeper than ${limits.maxDepth} levels`, limit: limits.maxDepth };
    const prefix = path ? `${path}.` : '';
    if (Array.isArray(current)) {
      if (limits.maxArrayItems !== undefined && current.length > limits.maxArrayItems) {
        return { field, issue: `has ${current.length} items; at most ${limits.maxArrayItems} are allowed`, limit: limits.maxArrayItems };
      }
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], depth: depth + 1, path: `${prefix}${index}` });
      continue;
    }
    for (const [key, child] of Object.entries(current)) stack.push({ value: child, depth: depth + 1, path: `${prefix}${key}` });
  }
  return undefined;
}

/**
 * Throws a ValidationError (400 `VALIDATION_FAILED`, `details.field`, `issue`, `limit`) when
 * `value` breaks `limits`; `what` names it in the message ("body", "input").
 *
 * @example
 *   assertJsonShape(input, { maxDepth: MAX_JSON_DEPTH, maxArrayItems: 10_000 }, 'input');
 */
export function assertJsonShape(value: unknown, limits: JsonShapeLimits, what = 'body'): void {
  const problem = jsonShapeProblem(value, limits);
  if (problem) throw new ValidationError(`The ${what} ${problem.field === '(root)' ? '' : `field ${problem.field} `}${problem.issue}`, { ...problem });
}
