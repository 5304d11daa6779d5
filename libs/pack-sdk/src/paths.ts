import { PackFormatError } from './errors.js';
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

/** The folder `npm pack` puts every file of a package under. */
export const NPM_PACKAGE_FOLDER = 'package';

/** An archive entry the platform keeps: a regular file or a directory, at its normalised path. */
export interface ArchiveEntry {
  kind: 'file' | 'directory';
  path: string;
}

/**
 * The rule for one entry of any archive the platform unpacks (pack packages and dashboard
 * bundles alike): regular files and directories only, never links, devices or FIFOs; `./`
 * prefixes dropped, as `tar czf x.tgz -C dir .` writes them; the archive's own root directory
 * (`./`) skipped (null); every other path checked by `checkPackagePath`. Throws a
 * PackFormatError (`PACKAGE_PATH_INVALID`) naming the entry.
 *
 * @example
 *   archiveEntry({ name: './', type: 'directory' });              // null
 *   archiveEntry({ name: './commands/echo.js', type: 'file' });   // { kind: 'file', path: 'commands/echo.js' }
 *   archiveEntry({ name: 'evil', type: 'symlink' });              // throws PACKAGE_PATH_INVALID
 */
export function archiveEntry(header: { name: string; type?: string | null }): ArchiveEntry | null {
  const { name, type } = header;
  if (type !== 'file' && type !== 'directory') {
    throw new PackFormatError('PACKAGE_PATH_INVALID', `Package entry "${name}" is a ${type ?? 'entry of unknown type'}; only regular files and directories are allowed`, { entry: name, type });
  }
  if (type === 'directory' && isArchiveRoot(name)) return null;
  const checked = checkPackagePath(name);
  if (checked.problem !== undefined) throw new PackFormatError('PACKAGE_PATH_INVALID', `Package entry "${name}" ${checked.problem}`, { entry: name });
  return { kind: type, path: checked.path };
}

/** `.`, `./`, `././`: the folder the archive was made from. */
function isArchiveRoot(name: string): boolean {
  return /^(\.\/?)+$/.test(name);
}

/**
 * The files of an archive made by `npm pack`, whose every file is under `package/`, moved to
 * the root; any other archive unchanged. Only an archive with nothing at its root is moved, so
 * a package that has a `package/` folder of its own beside other files keeps it.
 *
 * @example
 *   withoutNpmPackageFolder(new Map([['package/pack.yaml', yaml]])); // Map { 'pack.yaml' => yaml }
 */
export function withoutNpmPackageFolder<T>(files: Map<string, T>): Map<string, T> {
  const prefix = `${NPM_PACKAGE_FOLDER}/`;
  if (files.size === 0 || ![...files.keys()].every((path) => path.startsWith(prefix))) return files;
  return new Map([...files].map(([path, content]) => [path.slice(prefix.length), content]));
}
