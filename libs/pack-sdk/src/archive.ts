import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback, type InputType, type ZlibOptions } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { PackFormatError } from './errors.js';
import { MAX_PACKAGE_BYTES, MAX_PACKAGE_FILES, MAX_UNPACKED_BYTES } from './limits.js';
import { archiveEntry, withoutNpmPackageFolder } from './paths.js';

const gunzip = promisify<InputType, ZlibOptions, Buffer>(gunzipCallback);
const gzip = promisify<InputType, Buffer>(gzipCallback);

export interface ArchiveLimits {
  /** Compressed size. */
  maxPackageBytes: number;
  /** Total size of the files once decompressed. */
  maxUnpackedBytes: number;
  maxFiles: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxPackageBytes: MAX_PACKAGE_BYTES,
  maxUnpackedBytes: MAX_UNPACKED_BYTES,
  maxFiles: MAX_PACKAGE_FILES,
};

/** The files of a package, by normalised path. */
export interface PackArchive {
  files: Map<string, Buffer>;
  /** Sum of the files' sizes. */
  unpackedBytes: number;
}

/**
 * Room for tar's own bytes around the files (a header, padding and perhaps a long-name record
 * per entry), so that decompression stops early on a gzip bomb while a package within the
 * limits always fits.
 */
function decompressionBound(limits: ArchiveLimits): number {
  return limits.maxUnpackedBytes + (limits.maxFiles * 2 + 64) * 2048;
}

const tooLarge = (message: string, details: Record<string, unknown>) => new PackFormatError('PAYLOAD_TOO_LARGE', message, details);

async function decompress(tarball: Buffer, limits: ArchiveLimits): Promise<Buffer> {
  if (tarball.length > limits.maxPackageBytes) {
    throw tooLarge(`The package is ${tarball.length} bytes; at most ${limits.maxPackageBytes} are allowed`, { limit_bytes: limits.maxPackageBytes });
  }
  if (tarball.length < 2 || tarball[0] !== 0x1f || tarball[1] !== 0x8b) {
    throw new PackFormatError('PACKAGE_INVALID', 'The package is not a gzip file; upload a .tar.gz');
  }
  const bound = decompressionBound(limits);
  try {
    return await gunzip(tarball, { maxOutputLength: bound });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw tooLarge(`The package decompresses to more than ${bound} bytes`, { limit_bytes: limits.maxUnpackedBytes });
    }
    throw new PackFormatError('PACKAGE_INVALID', `The package is not a valid gzip stream: ${(err as Error).message}`);
  }
}

/**
 * A file whose path runs through another file (`zz` and `zz/y`) could never be unpacked: one
 * of them would have to be a folder.
 */
function refuseCollisions(files: Map<string, Buffer>): Map<string, Buffer> {
  for (const path of files.keys()) {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      const parent = path.slice(0, slash);
      if (files.has(parent)) throw new PackFormatError('PACKAGE_PATH_INVALID', `Package entry "${path}" lies inside "${parent}", which is a file`, { entry: path, file: parent });
    }
  }
  return files;
}

/**
 * Reads a `.tar.gz` package in memory, never touching the disk, under the platform's archive
 * rules: each entry by `archiveEntry` (regular files and directories only, `./` prefixes and
 * the root directory entry accepted, no path that could leave the folder), `npm pack`'s
 * `package/` folder moved to the root (`withoutNpmPackageFolder`), within the size and
 * file-count limits, no file inside another. Tarballs made by GNU tar (`tar czf x.tgz -C dir .`), `npm pack` and
 * tar-stream all read the same. Dashboard bundles are read with it too (with their own
 * limits). Throws a PackFormatError naming the first problem.
 *
 * @example
 *   const { files } = await readPackArchive(uploadedBuffer);
 *   files.get('pack.yaml')?.toString('utf8');
 */
export async function readPackArchive(tarball: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<PackArchive> {
  const tar = await decompress(tarball, limits);
  const files = new Map<string, Buffer>();
  let unpackedBytes = 0;
  const entries = extract();
  entries.end(tar);
  try {
    for await (const entry of entries) {
      const kept = archiveEntry(entry.header);
      if (kept?.kind !== 'file') {
        entry.resume();
        continue;
      }
      const { path } = kept;
      if (files.has(path)) throw new PackFormatError('PACKAGE_PATH_INVALID', `Package entry "${path}" appears twice`, { entry: entry.header.name });
      if (files.size + 1 > limits.maxFiles) {
        throw tooLarge(`The package has more than ${limits.maxFiles} files`, { limit_files: limits.maxFiles });
      }
      unpackedBytes += entry.header.size ?? 0;
      if (unpackedBytes > limits.maxUnpackedBytes) {
        throw tooLarge(`The package's files add up to more than ${limits.maxUnpackedBytes} bytes`, { limit_bytes: limits.maxUnpackedBytes });
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(path, Buffer.concat(chunks));
    }
  } catch (err) {
    if (err instanceof PackFormatError) throw err;
    throw new PackFormatError('PACKAGE_INVALID', `The package is not a valid tar archive: ${(err as Error).message}`);
  }
  return { files: refuseCollisions(withoutNpmPackageFolder(files)), unpackedBytes };
}

/**
 * Builds a `.tar.gz` package from file contents by path (pack.yaml among them), with fixed
 * timestamps so the same files give the same bytes.
 *
 * @example
 *   const tarball = await createPackArchive({ 'pack.yaml': manifestText, 'commands/echo.js': code });
 */
export async function createPackArchive(files: Record<string, string | Uint8Array>): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const [name, content] of Object.entries(files)) {
    archive.entry({ name: archiveEntry({ name, type: 'file' })!.path, mode: 0o644, mtime: new Date(0), type: 'file' }, typeof content === 'string' ? content : Buffer.from(content));
  }
  archive.finalize();
  await collected;
  return gzip(Buffer.concat(chunks));
}
