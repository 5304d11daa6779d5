import { DEFAULT_ARCHIVE_LIMITS, readPackArchive, type ArchiveLimits, type PackArchive } from './archive.js';
import { PackFormatError } from './errors.js';
import { entryFiles, MANIFEST_FILE, parseManifest, type PackManifest } from './manifest.js';
import { isZip, readPackWheel } from './wheel.js';

export interface InspectedPackage {
  manifest: PackManifest;
  files: Map<string, Buffer>;
  unpackedBytes: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function manifestText(files: Map<string, Buffer>): string {
  const bytes = files.get(MANIFEST_FILE);
  if (!bytes) {
    const nested = [...files.keys()].find((path) => path.endsWith(`/${MANIFEST_FILE}`));
    const hint = nested ? ` (found ${nested}; it must be at the root, not in a folder)` : '';
    throw new PackFormatError('MANIFEST_INVALID', `${MANIFEST_FILE} was not found at the root of the package${hint}`, { field: MANIFEST_FILE });
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PackFormatError('MANIFEST_INVALID', `${MANIFEST_FILE} is not UTF-8 text`, { field: MANIFEST_FILE });
  }
}

/**
 * The files of a package: a `.tar.gz` (`readPackArchive`) or a wheel (`readPackWheel`, Python
 * packs), told apart by their first bytes.
 *
 * @example
 *   const { files } = await readPackage(await readFile('svc_acme_tools-1.0.0-py3-none-any.whl'));
 */
export async function readPackage(bytes: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<PackArchive> {
  if (!isZip(bytes)) return readPackArchive(bytes, limits);
  if (bytes.length > limits.maxPackageBytes) {
    throw new PackFormatError('PAYLOAD_TOO_LARGE', `The package is ${bytes.length} bytes; at most ${limits.maxPackageBytes} are allowed`, { limit_bytes: limits.maxPackageBytes });
  }
  return readPackWheel(bytes, limits);
}

/**
 * Everything the platform checks in a package before accepting it: the archive
 * (`readPackage`: a `.tar.gz`, or a wheel), the manifest (`parseManifest`) and that every command's `entry` is a
 * file in the package. Throws the first PackFormatError found.
 *
 * @example
 *   const { manifest } = await inspectPackage(await readFile('text-tools-1.2.0.tar.gz'));
 */
export async function inspectPackage(tarball: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<InspectedPackage> {
  const { files, unpackedBytes } = await readPackage(tarball, limits);
  const manifest = parseManifest(manifestText(files));
  manifest.commands.forEach((command, index) => {
    if (entryFiles(command.entry).some((path) => files.has(path))) return;
    throw new PackFormatError('ENTRY_MISSING', `${MANIFEST_FILE}: commands.${index}.entry: "${command.entry}" of command "${command.name}" is not in the package`, {
      field: `commands.${index}.entry`,
      command: command.name,
      entry: command.entry,
    });
  });
  return { manifest, files, unpackedBytes };
}
