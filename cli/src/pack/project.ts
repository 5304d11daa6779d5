import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { MANIFEST_FILE, MAX_PACKAGE_FILES, MAX_UNPACKED_BYTES } from '@svc/pack-sdk';
import { validationError } from '../errors.js';

/** Lines of glob patterns naming what a package leaves out, like `.gitignore`. */
export const IGNORE_FILE = '.svcignore';
/** Never packaged, whatever `.svcignore` says: version control, dependencies, build output, local state, the ignore file itself. */
export const ALWAYS_IGNORED = ['.git', 'node_modules', '.svc', 'dist', 'coverage', '.DS_Store', IGNORE_FILE];

/** A pack's folder: where `pack.yaml` is, either the folder given or its `pack/` (a project made by `svc project init`). */
export async function findPackDir(dir: string): Promise<string> {
  for (const candidate of [dir, join(dir, 'pack')]) {
    if (await isFile(join(candidate, MANIFEST_FILE))) return candidate;
  }
  throw validationError(`No ${MANIFEST_FILE} in ${dir}: run \`svc pack new NAME\` to make a pack, or give its folder`, { code: 'PACK_NOT_FOUND', details: { path: dir } });
}

export async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

export async function readManifestText(packDir: string): Promise<string> {
  return readFile(join(packDir, MANIFEST_FILE), 'utf8');
}

/** One `.svcignore` pattern as a test of a relative path (`/`-separated). */
function patternTest(pattern: string): (path: string, isDir: boolean) => boolean {
  const dirOnly = pattern.endsWith('/');
  const body = pattern.replace(/^\/|\/$/g, '');
  const anchored = pattern.startsWith('/') || body.includes('/');
  const source = body
    .split('')
    .map((char) => (char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
    .replace(/\[\^\/\]\*\[\^\/\]\*/g, '.*');
  const regex = new RegExp(anchored ? `^${source}$` : `(^|/)${source}$`);
  return (path, isDir) => (!dirOnly || isDir) && regex.test(path);
}

export async function ignoreTests(packDir: string): Promise<Array<(path: string, isDir: boolean) => boolean>> {
  const patterns = [...ALWAYS_IGNORED];
  try {
    const text = await readFile(join(packDir, IGNORE_FILE), 'utf8');
    patterns.push(...text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#')));
  } catch {
    // No .svcignore: the defaults only.
  }
  return patterns.map(patternTest);
}

export interface CollectedFiles {
  files: Record<string, Buffer>;
  /** Paths left out because they are links (a package holds regular files only). */
  skippedLinks: string[];
  bytes: number;
}

/**
 * The files a package of `packDir` holds: every regular file not ignored, by `/`-separated path.
 * Stops at the registry's limits so that a stray folder fails early with a clear message.
 */
export async function collectPackFiles(packDir: string): Promise<CollectedFiles> {
  const ignored = await ignoreTests(packDir);
  const isIgnored = (path: string, isDir: boolean) => ignored.some((test) => test(path, isDir));
  const collected: CollectedFiles = { files: {}, skippedLinks: [], bytes: 0 };
  let count = 0;

  async function walk(dir: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      const path = relative(packDir, full).split(sep).join('/');
      if (isIgnored(path, entry.isDirectory())) continue;
      if (entry.isSymbolicLink()) {
        collected.skippedLinks.push(path);
        continue;
      }
      if (entry.isDirectory()) {
        await walk(full);
        continue;
      }
      if (!entry.isFile()) continue;
      count += 1;
      if (count > MAX_PACKAGE_FILES) throw validationError(`${packDir} holds more than ${MAX_PACKAGE_FILES} files to package; list what to leave out in ${IGNORE_FILE}`, { code: 'PAYLOAD_TOO_LARGE' });
      const bytes = await readFile(full);
      collected.bytes += bytes.length;
      if (collected.bytes > MAX_UNPACKED_BYTES) throw validationError(`The files of ${packDir} add up to more than ${MAX_UNPACKED_BYTES} bytes; list what to leave out in ${IGNORE_FILE}`, { code: 'PAYLOAD_TOO_LARGE' });
      collected.files[path] = bytes;
    }
  }

  await walk(packDir);
  return collected;
}
