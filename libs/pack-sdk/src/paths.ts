import { MAX_PATH_LENGTH } from './limits.js';

/** Control characters, backslashes (a separator on Windows) and colons (drive letters, streams). */
function hasForbiddenCharacter(path: string): boolean {
  for (const char of path) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\' || char === ':') return true;
  }
  return false;
}

/**
 * The normalised form of a path inside a package (`./a/b.js` → `a/b.js`, a directory's trailing
 * slash dropped), or the reason it is refused: absolute paths, `.`/`..` segments, empty
 * segments and characters that mean something else on another system could all place a file
 * outside the pack's folder once extracted.
 *
 * @example
 *   checkPackagePath('./commands/echo.js'); // { path: 'commands/echo.js' }
 *   checkPackagePath('../etc/passwd');      // { problem: 'contains a ".." segment' }
 */
export function checkPackagePath(raw: string): { path: string; problem?: undefined } | { path?: undefined; problem: string } {
  let path = raw;
  while (path.startsWith('./')) path = path.slice(2);
  if (path.endsWith('/')) path = path.slice(0, -1);
  if (path === '' || path === '.') return { problem: 'is empty' };
  if (path.length > MAX_PATH_LENGTH) return { problem: `is longer than ${MAX_PATH_LENGTH} characters` };
  if (path.startsWith('/')) return { problem: 'is absolute' };
  if (hasForbiddenCharacter(path)) return { problem: 'contains a control character, a backslash or a colon' };
  for (const segment of path.split('/')) {
    if (segment === '..') return { problem: 'contains a ".." segment' };
    if (segment === '.' || segment === '') return { problem: 'contains an empty or "." segment' };
  }
  return { path };
}
