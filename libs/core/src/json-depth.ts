/**
 * Deepest nesting of objects and arrays a JSON body may have (the body's own object counts as
 * one level). Deeper documents overflow the stack of recursive code further on (serializing,
 * schema checks, Postgres's jsonb), so they are refused where they arrive.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found in one pass over the
 * text, without parsing it or recursing (brackets inside strings do not count).
 *
 * @example
 *   jsonNestedDeeperThan('{"a":[1]}', 1); // true
 *   jsonNestedDeeperThan('{"a":"[[["}', 1); // false
 */
export function jsonNestedDeeperThan(text: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPENERS.has(c)) {
      depth += 1;
      if (depth > max) return true;
    } else if (CLOSERS.has(c)) depth -= 1;
  }
  return false;
}
