import { createHash } from 'node:crypto';
import { unzipSync, zipSync, type UnzipFileInfo } from 'fflate';
import semver from 'semver';
import type { ArchiveLimits, PackArchive } from './archive.js';
import { PackFormatError } from './errors.js';
import { MANIFEST_FILE, type PackManifest } from './manifest.js';
import { checkPackagePath } from './paths.js';

/**
 * Python packs travel as wheels (PEP 427): a zip of the pack's files at their paths, beside a
 * `<name>-<version>.dist-info/` folder of METADATA, WHEEL, RECORD (every file's SHA-256) and the
 * pack's `pack.yaml`. `pip install --no-deps` installs one like any pure-Python wheel; the
 * platform reads it back into the same files a `.tar.gz` holds, `pack.yaml` at the root.
 */

/** A zip archive's first bytes (a local file header). */
export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
}

/** Timestamps of every entry: zip's epoch is 1980; a fixed one makes a wheel reproducible. */
const FIXED_MTIME = new Date(1980, 0, 2);

/** `svc_acme_text_tools`: the distribution name a wheel's file and dist-info folder carry. */
export function wheelDistribution(manifest: PackManifest): string {
  return `svc_${manifest.pack.namespace}_${manifest.pack.name}`.replace(/-/g, '_');
}

/**
 * A pack's semver version in PEP 440 form, which pip requires: `1.2.0` stays, `1.2.0-rc.1`
 * becomes `1.2.0rc1` (likewise alpha `a`, beta `b`); other pre-releases have no PEP 440 form.
 */
export function wheelVersion(version: string): string {
  const parsed = semver.parse(version);
  if (!parsed) throw new PackFormatError('MANIFEST_INVALID', `pack.version "${version}" is not a semver version`, { field: 'pack.version' });
  const release = `${parsed.major}.${parsed.minor}.${parsed.patch}`;
  if (parsed.prerelease.length === 0) return release;
  const [label, number = 0] = parsed.prerelease;
  const short = { alpha: 'a', a: 'a', beta: 'b', b: 'b', rc: 'rc' }[String(label)];
  if (short === undefined || typeof number !== 'number' || parsed.prerelease.length > 2) {
    throw new PackFormatError('MANIFEST_INVALID', `pack.version "${version}" cannot be a wheel's version: Python pre-releases are alpha, beta or rc with a number (1.0.0-rc.1)`, { field: 'pack.version' });
  }
  return `${release}${short}${number}`;
}

function recordHash(content: Uint8Array): string {
  return `sha256=${createHash('sha256').update(content).digest('base64url')}`;
}

/** A RECORD line's path, quoted when CSV needs it. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A wheel of the pack whose files (by `/`-separated path, `pack.yaml` among them) are given:
 * the file name pip expects and its bytes. Pure Python (`py3-none-any`); `Requires-Python` is the
 * manifest's `python` range.
 *
 * @example
 *   const { fileName, wheel } = createPackWheel(files, manifest); // svc_acme_text_tools-1.2.0-py3-none-any.whl
 */
export function createPackWheel(files: Record<string, Buffer | string>, manifest: PackManifest): { fileName: string; wheel: Buffer } {
  const distribution = wheelDistribution(manifest);
  const version = wheelVersion(manifest.pack.version);
  const distInfo = `${distribution}-${version}.dist-info`;
  const metadata = [
    'Metadata-Version: 2.1',
    `Name: ${distribution.replace(/_/g, '-')}`,
    `Version: ${version}`,
    ...(manifest.pack.description ? [`Summary: ${manifest.pack.description.replace(/\s+/g, ' ')}`] : []),
    ...(manifest.python ? [`Requires-Python: ${manifest.python}`] : []),
    'Classifier: Framework :: svc pack',
    '',
  ].join('\n');
  const wheelFile = ['Wheel-Version: 1.0', 'Generator: svc', 'Root-Is-Purelib: true', 'Tag: py3-none-any', ''].join('\n');
  const entries = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    entries.set(path === MANIFEST_FILE ? `${distInfo}/${MANIFEST_FILE}` : path, typeof content === 'string' ? Buffer.from(content) : content);
  }
  entries.set(`${distInfo}/METADATA`, Buffer.from(metadata));
  entries.set(`${distInfo}/WHEEL`, Buffer.from(wheelFile));
  const record = [...entries].map(([path, content]) => `${csvField(path)},${recordHash(content)},${content.length}`);
  entries.set(`${distInfo}/RECORD`, Buffer.from([...record, `${csvField(`${distInfo}/RECORD`)},,`, ''].join('\n')));
  const zip = zipSync(Object.fromEntries([...entries].map(([path, content]) => [path, [content, { mtime: FIXED_MTIME }]])), { level: 9 });
  return { fileName: `${distribution}-${version}-py3-none-any.whl`, wheel: Buffer.from(zip) };
}

const invalid = (message: string, details: Record<string, unknown> = {}) => new PackFormatError('PACKAGE_INVALID', message, details);

/** `path,sha256=…,size` lines by path; the path may be CSV-quoted, the hash and size never hold a comma. */
function parseRecord(text: string): Map<string, { hash: string; size: string }> {
  const rows = new Map<string, { hash: string; size: string }>();
  for (const line of text.split(/\r?\n/).filter((row) => row.length > 0)) {
    const sizeAt = line.lastIndexOf(',');
    const hashAt = line.lastIndexOf(',', sizeAt - 1);
    if (hashAt < 0) throw invalid(`The wheel's RECORD has a malformed line: ${line.slice(0, 200)}`);
    let path = line.slice(0, hashAt);
    if (path.startsWith('"') && path.endsWith('"')) path = path.slice(1, -1).replace(/""/g, '"');
    rows.set(path, { hash: line.slice(hashAt + 1, sizeAt), size: line.slice(sizeAt + 1) });
  }
  return rows;
}

/** Reads the zip within the limits: entry count, declared and actual sizes, paths that stay inside. */
function unzipWithin(bytes: Buffer, limits: ArchiveLimits): Map<string, Buffer> {
  let declared = 0;
  let count = 0;
  let refused: PackFormatError | undefined;
  const filter = (file: UnzipFileInfo): boolean => {
    if (refused || file.name.endsWith('/')) return false;
    count += 1;
    declared += file.originalSize;
    const path = checkPackagePath(file.name);
    if (path.problem) refused = new PackFormatError('PACKAGE_PATH_INVALID', `"${file.name}" ${path.problem}`, { path: file.name });
    else if (count > limits.maxFiles) refused = new PackFormatError('PAYLOAD_TOO_LARGE', `The package holds more than ${limits.maxFiles} files`, { limit_files: limits.maxFiles });
    else if (declared > limits.maxUnpackedBytes) refused = new PackFormatError('PAYLOAD_TOO_LARGE', `The package's files add up to more than ${limits.maxUnpackedBytes} bytes`, { limit_bytes: limits.maxUnpackedBytes });
    return !refused;
  };
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, { filter });
  } catch (err) {
    throw refused ?? invalid(`The package is not a valid zip archive: ${(err as Error).message}`);
  }
  if (refused) throw refused;
  const files = new Map<string, Buffer>();
  for (const [name, content] of Object.entries(unzipped)) files.set(checkPackagePath(name).path ?? name, Buffer.from(content));
  return files;
}

/** The one `*.dist-info/` folder at the root that has a WHEEL file. */
function distInfoOf(files: Map<string, Buffer>): string {
  const folders = new Set([...files.keys()].map((path) => path.split('/')[0]!).filter((top) => top.endsWith('.dist-info') && files.has(`${top}/WHEEL`)));
  if (folders.size !== 1) throw invalid(`A wheel holds exactly one *.dist-info folder with a WHEEL file; this one holds ${folders.size}`);
  return [...folders][0]!;
}

/** Every file but RECORD is listed in RECORD with its SHA-256 and size, and nothing listed is missing. */
function checkRecord(files: Map<string, Buffer>, distInfo: string): void {
  const recordPath = `${distInfo}/RECORD`;
  const record = files.get(recordPath);
  if (!record) throw invalid(`The wheel has no ${recordPath}`);
  const rows = parseRecord(record.toString('utf8'));
  for (const [path, content] of files) {
    if (path === recordPath) continue;
    const row = rows.get(path);
    if (!row) throw invalid(`${path} is in the wheel but not in its RECORD`, { path });
    if (row.hash !== recordHash(content) || row.size !== String(content.length)) throw invalid(`${path} does not match its RECORD hash or size`, { path });
  }
  for (const path of rows.keys()) {
    if (path !== recordPath && !files.has(path)) throw invalid(`${path} is in the wheel's RECORD but not in the wheel`, { path });
  }
}

/**
 * The pack files of a wheel: RECORD checked, `pack.yaml` from its dist-info folder put at the
 * root, the rest of the dist-info folder left out. `.data` folders (files pip installs
 * elsewhere) are refused: a pack's files are all beside its code.
 */
export function readPackWheel(bytes: Buffer, limits: ArchiveLimits): PackArchive {
  const files = unzipWithin(bytes, limits);
  const distInfo = distInfoOf(files);
  checkRecord(files, distInfo);
  const data = [...files.keys()].find((path) => path.split('/')[0]!.endsWith('.data'));
  if (data) throw invalid(`The wheel installs files outside its package (${data}); a pack's files sit beside its code`, { path: data });
  const pack = new Map<string, Buffer>();
  for (const [path, content] of files) {
    if (path.startsWith(`${distInfo}/`)) continue;
    if (path === MANIFEST_FILE) throw invalid(`A wheel keeps ${MANIFEST_FILE} in ${distInfo}/, not at its root`, { path });
    pack.set(path, content);
  }
  const manifest = files.get(`${distInfo}/${MANIFEST_FILE}`);
  if (manifest) pack.set(MANIFEST_FILE, manifest);
  let unpackedBytes = 0;
  for (const content of pack.values()) unpackedBytes += content.length;
  return { files: pack, unpackedBytes };
}

/** Wheels vendored in a Python pack: directly in `vendor/`. */
const VENDORED_WHEEL = /^vendor\/[^/]+\.whl$/;

/** Where a Python pack runs: the interpreter's version and the machine (`uname -m`). */
export interface PythonTarget {
  /** `3.11.2`. */
  version: string;
  /** `x86_64`, `aarch64`. */
  machine: string;
}

/** Whether one of a wheel's compressed tag sets (`py3-none-any`, `cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64`) runs on `target`. */
function tagsFit(python: string, abi: string, platform: string, target: PythonTarget): boolean {
  const [major = '', minor = ''] = target.version.split('.');
  const stable = abi.split('.').includes('abi3');
  // A wheel of CPython's stable ABI (abi3) built for 3.8 runs on every later 3.x.
  const interpreterFits = (tag: string) =>
    [`py${major}`, `py${major}${minor}`, `cp${major}${minor}`].includes(tag) || (stable && tag.startsWith(`cp${major}`) && Number(tag.slice(2 + major.length)) <= Number(minor));
  const abiFits = (tag: string) => ['none', 'abi3', `cp${major}${minor}`].includes(tag);
  const platformFits = (tag: string) => tag === 'any' || ((tag.startsWith('manylinux') || tag.startsWith('linux')) && tag.endsWith(`_${target.machine}`));
  return python.split('.').some(interpreterFits) && abi.split('.').some(abiFits) && platform.split('.').some(platformFits);
}

/**
 * Vendored wheels (`vendor/*.whl`) that cannot run on `target`, with why: nothing is fetched at
 * install or run time, so a pack brings its dependencies, and a wheel of native code must be
 * built for the workers' Python and machine. Pure-Python wheels (`py3-none-any`) fit anywhere.
 */
export function unfitVendoredWheels(files: Map<string, Buffer>, target: PythonTarget): Array<{ path: string; message: string }> {
  const unfit: Array<{ path: string; message: string }> = [];
  for (const path of [...files.keys()].filter((name) => VENDORED_WHEEL.test(name))) {
    const parts = path.slice('vendor/'.length, -'.whl'.length).split('-');
    const [python = '', abi = '', platform = ''] = parts.slice(-3);
    if (parts.length < 5 || !tagsFit(python, abi, platform, target)) {
      unfit.push({
        path,
        message: `${path} is built for ${parts.length < 5 ? 'no platform a wheel names' : `${python}-${abi}-${platform}`}; this platform runs Python ${target.version} on linux ${target.machine}: vendor a pure-Python wheel (py3-none-any) or one built for it`,
      });
    }
  }
  return unfit;
}

/**
 * A Python pack's files as a worker runs them: each vendored wheel unpacked into `vendor/`, as
 * pip would install it there, so that native code in a wheel built for the worker can load
 * (Python imports pure wheels from the archive too, which is how local runs use them).
 */
export function expandVendoredWheels(files: Map<string, Buffer>, limits: ArchiveLimits): Map<string, Buffer> {
  const expanded = new Map<string, Buffer>();
  for (const [path, content] of files) {
    if (!VENDORED_WHEEL.test(path)) {
      expanded.set(path, content);
      continue;
    }
    for (const [inner, innerContent] of unzipWithin(content, limits)) {
      const target = `vendor/${inner}`;
      if (files.has(target) || expanded.has(target)) throw new PackFormatError('PACKAGE_PATH_INVALID', `${path} holds ${inner}, which another file of vendor/ holds too`, { path: target });
      expanded.set(target, innerContent);
    }
  }
  return expanded;
}
