import { DEFAULT_ARCHIVE_LIMITS, readPackArchive, type ArchiveLimits } from './archive.js';
import { PackFormatError } from './errors.js';
import { MANIFEST_FILE, parseManifest, type PackManifest } from './manifest.js';

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
 * Everything the platform checks in a package before accepting it: the archive
 * (`readPackArchive`), the manifest (`parseManifest`) and that every command's `entry` is a
 * file in the package. Throws the first PackFormatError found.
 *
 * @example
 *   const { manifest } = await inspectPackage(await readFile('text-tools-1.2.0.tar.gz'));
 */
export async function inspectPackage(tarball: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<InspectedPackage> {
  const { files, unpackedBytes } = await readPackArchive(tarball, limits);
  const manifest = parseManifest(manifestText(files));
  manifest.commands.forEach((command, index) => {
    if (files.has(command.entry)) return;
    throw new PackFormatError('ENTRY_MISSING', `${MANIFEST_FILE}: commands.${index}.entry: "${command.entry}" of command "${command.name}" is not in the package`, {
      field: `commands.${index}.entry`,
      command: command.name,
      entry: command.entry,
    });
  });
  return { manifest, files, unpackedBytes };
}
