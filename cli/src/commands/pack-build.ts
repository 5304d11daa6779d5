import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Option, type Command } from 'commander';
import type { PackManifest } from '@svc/pack-sdk';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { findPackDir } from '../pack/project.js';
import { SIGNATURE_SUFFIX, signWithUserKey, type SignedPackage } from '../pack/signing.js';
import { action } from '../program.js';
import { checkOrFail } from './pack-validate.js';

export const BUILD_FORMATS = ['wheel', 'tar.gz', 'both'] as const;
type BuildFormat = (typeof BUILD_FORMATS)[number];

export function packageFileName(manifest: PackManifest): string {
  return `${manifest.pack.namespace}-${manifest.pack.name}-${manifest.pack.version}.tar.gz`;
}

/** A JavaScript pack builds a `.tar.gz`; a wheel is a Python pack's, and Python packs do not exist yet. */
function requireFormat(format: BuildFormat | undefined): void {
  if (format === undefined || format === 'tar.gz') return;
  throw new CliError('general', `--format ${format}: wheels are built for Python packs, which the platform does not run yet; JavaScript packs build tar.gz (the default)`, {
    code: 'PYTHON_UNSUPPORTED',
    details: { format },
  });
}

export interface BuiltPackage {
  manifest: PackManifest;
  tarball: Buffer;
  sha256: string;
  signed: SignedPackage | undefined;
}

/** Checks the pack in `packDir` (errors stop here) and packages it, signed when asked. */
export async function buildPackage(ctx: Context, packDir: string, sign: boolean): Promise<BuiltPackage> {
  const { manifest, tarball } = await checkOrFail(packDir, false);
  const signed = sign ? await signWithUserKey(ctx, tarball) : undefined;
  return { manifest, tarball, sha256: createHash('sha256').update(tarball).digest('hex'), signed };
}

/** Whether to sign: `--sign`, else `build.sign_packages`. */
export function wantsSignature(ctx: Context, sign: boolean | undefined): boolean {
  return sign ?? Boolean(ctx.config.get('build.sign_packages'));
}

async function build(ctx: Context, options: { output?: string; format?: BuildFormat; sign?: boolean }): Promise<void> {
  requireFormat(options.format);
  const packDir = await findPackDir(ctx.io.cwd);
  const progress = ctx.out.progress('Building the package');
  const built = await buildPackage(ctx, packDir, wantsSignature(ctx, options.sign));
  const outDir = ctx.path(options.output ?? ctx.config.string('build.output_dir')!);
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, packageFileName(built.manifest));
  await writeFile(path, built.tarball);
  if (built.signed) await writeFile(`${path}${SIGNATURE_SUFFIX}`, `${JSON.stringify(built.signed.signature, null, 2)}\n`);
  progress.succeed(`Built ${relative(ctx.io.cwd, path)}`);
  const { namespace, name, version } = built.manifest.pack;
  ctx.out.result(
    {
      package: path,
      format: 'tar.gz',
      pack: { namespace, name, version },
      size_bytes: built.tarball.length,
      sha256: built.sha256,
      signature: built.signed ? { path: `${path}${SIGNATURE_SUFFIX}`, algorithm: 'ed25519', key_fingerprint: built.signed.keyFingerprint } : null,
    },
    [`${path} (${built.tarball.length} bytes, sha256 ${built.sha256.slice(0, 16)}…)`, built.signed ? `signed: ${path}${SIGNATURE_SUFFIX} (key ${built.signed.keyFingerprint})` : ''].filter(Boolean).join('\n'),
  );
}

export function registerPackBuild(pack: Command): void {
  pack
    .command('build')
    .description('check the pack in this folder and write its package')
    .option('--output <dir>', 'where to write it (default: build.output_dir, ./dist)')
    .addOption(new Option('--format <format>', 'tar.gz for JavaScript packs (the default); wheel and both are for Python packs').choices(BUILD_FORMATS))
    .option('--sign', 'sign the package with your Ed25519 key (default: build.sign_packages)')
    .action(action<{ output?: string; format?: BuildFormat; sign?: boolean }>((ctx, _args, options) => build(ctx, options)));
}
