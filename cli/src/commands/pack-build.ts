import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { createPackWheel, inspectPackage, PackFormatError, type PackManifest } from '@svc/pack-sdk';
import type { BuildFormat } from '../choices.js';
import type { Context } from '../context.js';
import { CliError, validationError } from '../errors.js';
import { findingsOf } from '../pack/check.js';
import { collectPackFiles, findPackDir } from '../pack/project.js';
import { SIGNATURE_SUFFIX, signWithUserKey, type SignedPackage } from '../pack/signing.js';
import { checkOrFail } from './pack-validate.js';

type PackageFormat = Exclude<BuildFormat, 'both'>;

/** A Python pack is built as a wheel unless asked otherwise; a JavaScript pack as a `.tar.gz`. */
function defaultFormat(manifest: PackManifest): PackageFormat {
  return manifest.runtime === 'python' ? 'wheel' : 'tar.gz';
}

/** The formats `--format` asks for; a wheel only for a Python pack. */
function formatsOf(manifest: PackManifest, format: BuildFormat | undefined): PackageFormat[] {
  const formats: PackageFormat[] = format === undefined ? [defaultFormat(manifest)] : format === 'both' ? ['wheel', 'tar.gz'] : [format];
  if (manifest.runtime !== 'python' && formats.includes('wheel')) {
    throw new CliError('general', `--format ${format}: wheels are built for Python packs (runtime: python in pack.yaml); JavaScript packs build tar.gz (the default)`, {
      code: 'FORMAT_UNSUPPORTED',
      details: { format, runtime: manifest.runtime },
    });
  }
  return formats;
}

export function packageFileName(manifest: PackManifest): string {
  return `${manifest.pack.namespace}-${manifest.pack.name}-${manifest.pack.version}.tar.gz`;
}

export interface BuiltPackage {
  manifest: PackManifest;
  format: PackageFormat;
  /** The package's file name: `acme-tools-1.0.0.tar.gz`, `svc_acme_tools-1.0.0-py3-none-any.whl`. */
  fileName: string;
  /** The package's bytes (a wheel's too). */
  tarball: Buffer;
  sha256: string;
  signed: SignedPackage | undefined;
}

/** The pack's wheel, read back the way the registry reads it, so that a wheel the registry would refuse is never written. */
async function wheelOf(packDir: string, manifest: PackManifest): Promise<{ fileName: string; wheel: Buffer }> {
  const { files } = await collectPackFiles(packDir);
  try {
    const built = createPackWheel(files, manifest);
    await inspectPackage(built.wheel);
    return built;
  } catch (err) {
    if (!(err instanceof PackFormatError)) throw err;
    throw validationError(`The pack in ${packDir} cannot be a wheel: ${err.message}`, { code: err.code, details: { path: packDir, issues: findingsOf(err) } });
  }
}

/**
 * Checks the pack in `packDir` (errors stop here) and packages it in `format` (by default its
 * runtime's: a wheel for Python, a `.tar.gz` for JavaScript), signed when asked.
 */
export async function buildPackage(ctx: Context, packDir: string, sign: boolean, format?: PackageFormat): Promise<BuiltPackage> {
  const { manifest, tarball } = await checkOrFail(packDir, false);
  const chosen = format ?? defaultFormat(manifest);
  const { fileName, bytes } = chosen === 'wheel' ? await wheelOf(packDir, manifest).then((built) => ({ fileName: built.fileName, bytes: built.wheel })) : { fileName: packageFileName(manifest), bytes: tarball };
  const signed = sign ? await signWithUserKey(ctx, bytes) : undefined;
  return { manifest, format: chosen, fileName, tarball: bytes, sha256: createHash('sha256').update(bytes).digest('hex'), signed };
}

/** Whether to sign: `--sign`, else `build.sign_packages`. */
export function wantsSignature(ctx: Context, sign: boolean | undefined): boolean {
  return sign ?? Boolean(ctx.config.get('build.sign_packages'));
}

/** Writes one package (and its signature) into `outDir`; what `pack build` reports of it. */
async function writePackage(outDir: string, built: BuiltPackage) {
  const path = join(outDir, built.fileName);
  await writeFile(path, built.tarball);
  if (built.signed) await writeFile(`${path}${SIGNATURE_SUFFIX}`, `${JSON.stringify(built.signed.signature, null, 2)}\n`);
  const { namespace, name, version } = built.manifest.pack;
  return {
    package: path,
    format: built.format,
    pack: { namespace, name, version },
    size_bytes: built.tarball.length,
    sha256: built.sha256,
    signature: built.signed ? { path: `${path}${SIGNATURE_SUFFIX}`, algorithm: 'ed25519', key_fingerprint: built.signed.keyFingerprint } : null,
  };
}

export async function build(ctx: Context, options: { output?: string; format?: BuildFormat; sign?: boolean }): Promise<void> {
  const packDir = await findPackDir(ctx.io.cwd);
  const progress = ctx.out.progress('Building the package');
  const first = await buildPackage(ctx, packDir, wantsSignature(ctx, options.sign));
  let formats: PackageFormat[];
  try {
    formats = formatsOf(first.manifest, options.format);
  } catch (err) {
    progress.fail();
    throw err;
  }
  const outDir = ctx.path(options.output ?? ctx.config.string('build.output_dir')!);
  await mkdir(outDir, { recursive: true });
  const written = [];
  for (const format of formats) {
    const built = format === first.format ? first : await buildPackage(ctx, packDir, wantsSignature(ctx, options.sign), format);
    written.push(await writePackage(outDir, built));
  }
  progress.succeed(`Built ${written.map((item) => relative(ctx.io.cwd, item.package)).join(' and ')}`);
  const lines = written.flatMap((item) => [`${item.package} (${item.size_bytes} bytes, sha256 ${item.sha256.slice(0, 16)}…)`, item.signature ? `signed: ${item.signature.path} (key ${item.signature.key_fingerprint})` : '']);
  ctx.out.result({ ...written[0]!, packages: written }, lines.filter(Boolean).join('\n'));
}
