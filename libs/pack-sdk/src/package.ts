import { DEFAULT_ARCHIVE_LIMITS, readPackArchive, type ArchiveLimits, type PackArchive } from './archive.js';
import { PackFormatError } from './errors.js';
import { parseDocument } from 'yaml';
import { entryFiles, MANIFEST_FILE, manifestFailure, parseManifest, type ManifestIssue, type PackManifest } from './manifest.js';
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
 * The commands `pack.yaml` declares with a name and an entry, read without the manifest's checks:
 * so that a package whose manifest has problems is told of its missing entries at once too.
 */
function declaredCommands(text: string): Array<{ name: string; entry: string }> {
  const document = parseDocument(text);
  if (document.errors.length > 0) return [];
  let commands: unknown;
  try {
    commands = (document.toJS({ maxAliasCount: 0 }) as { commands?: unknown } | null)?.commands;
  } catch {
    return [];
  }
  if (!Array.isArray(commands)) return [];
  return commands.filter((command): command is { name: string; entry: string } => typeof command?.name === 'string' && typeof command?.entry === 'string');
}

/** A problem for each command whose entry is not a file of the package. */
function missingEntries(commands: Array<{ name: string; entry: string }>, files: Map<string, Buffer>): ManifestIssue[] {
  return commands.flatMap((command, index) =>
    entryFiles(command.entry).some((path) => files.has(path))
      ? []
      : [{ code: 'ENTRY_MISSING' as const, field: `commands.${index}.entry`, message: `"${command.entry}" of command "${command.name}" is not in the package`, command: command.name, entry: command.entry }],
  );
}

/**
 * Everything the platform checks in a package before accepting it: the archive
 * (`readPackage`: a `.tar.gz`, or a wheel), the manifest (`parseManifest`) and that every command's `entry` is a
 * file in the package. An archive it cannot read is refused as such; the manifest's problems and
 * the missing entries are reported together, in one PackFormatError whose `details.issues` lists them all.
 *
 * @example
 *   const { manifest } = await inspectPackage(await readFile('text-tools-1.2.0.tar.gz'));
 */
export async function inspectPackage(tarball: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<InspectedPackage> {
  const { files, unpackedBytes } = await readPackage(tarball, limits);
  const text = manifestText(files);
  const issues: ManifestIssue[] = [];
  let manifest: PackManifest | undefined;
  try {
    manifest = parseManifest(text);
  } catch (err) {
    if (!(err instanceof PackFormatError) || !Array.isArray(err.details.issues)) throw err;
    issues.push(...(err.details.issues as ManifestIssue[]));
  }
  issues.push(...missingEntries(manifest?.commands ?? declaredCommands(text), files));
  if (issues.length > 0 || !manifest) throw manifestFailure(issues);
  return { manifest, files, unpackedBytes };
}
