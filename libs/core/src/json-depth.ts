/**
 * Deepest nesting of objects and arrays a JSON body may have (the body's own object counts as
 * one level). Deeper documents overflow the stack of recursive code further on (serializing,
 * schema checks, Postgres's jsonb), so they are refused where they arrive.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found in one pass over the
 * text, without parsing it or recursing (brackets inside strings do not count).
 *
 * @example
 *   jsonNestedDeeperThan('{"a":[1]}', 1); // true
 *   jsonNestedDeeperThan('{"a":"[[["}', 1); // false
 */
export function jsonNestedDeeperThan(text: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  // Bytes, not characters: every character that matters here is ASCII, and UTF-8 never uses
  // an ASCII byte inside another character.
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}
