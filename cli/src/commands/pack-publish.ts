import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dataOf } from '@svc/client';
import { inspectPackage, isZip, PackFormatError, PUBLIC_KEY_FIELD, SIGNATURE_FIELD, keyFingerprint, type PackageSignature, type PackManifest } from '@svc/pack-sdk';
import { parseConfigValue } from '../config.js';
import type { Context } from '../context.js';
import { asCliError, problemsMessage, validationError } from '../errors.js';
import { findingsOf } from '../pack/check.js';
import { findPackDir } from '../pack/project.js';
import { readSignatureFile } from '../pack/signing.js';
import { buildPackage, wantsSignature } from './pack-build.js';

export interface PublishOptions {
  registry?: string;
  token?: string;
  dryRun?: boolean;
}

interface Publishable {
  source: string;
  manifest: PackManifest;
  tarball: Buffer;
  signature: PackageSignature | undefined;
}

/** A package file given on the command line, checked as the registry will check it. */
async function fromFile(ctx: Context, path: string): Promise<Publishable> {
  const full = ctx.path(path);
  const info = await stat(full).catch(() => undefined);
  if (!info?.isFile()) throw validationError(`${path} is not a package file (a .tar.gz or a wheel made by \`svc pack build\`)`, { code: 'PACKAGE_NOT_FOUND', details: { path: full } });
  const tarball = await readFile(full);
  try {
    const { manifest } = await inspectPackage(tarball);
    return { source: full, manifest, tarball, signature: await readSignatureFile(full) };
  } catch (err) {
    if (!(err instanceof PackFormatError)) throw err;
    const issues = findingsOf(err);
    throw validationError(problemsMessage(path, issues), { code: err.code, details: { issues } });
  }
}

/** The pack in this folder, built in memory (signed when `build.sign_packages` says so). */
async function fromFolder(ctx: Context): Promise<Publishable> {
  const packDir = await findPackDir(ctx.io.cwd);
  const built = await buildPackage(ctx, packDir, wantsSignature(ctx, undefined));
  return { source: packDir, manifest: built.manifest, tarball: built.tarball, signature: built.signed?.signature };
}

function describe(item: Publishable, sha256: string) {
  const { namespace, name, version, visibility } = item.manifest.pack;
  return {
    namespace,
    name,
    version,
    visibility,
    commands: item.manifest.commands.map((command) => command.name),
    size_bytes: item.tarball.length,
    sha256,
    signature: item.signature ? { algorithm: 'ed25519', key_fingerprint: keyFingerprint(item.signature.public_key) } : null,
  };
}

/** Whether the caller may publish to the namespace, asked of the platform; null when it cannot be asked. */
async function namespaceCheck(ctx: Context, registry: string, token: string | undefined, namespace: string) {
  try {
    return (await dataOf(ctx.client(registry, token).api.GET('/api/v1/namespaces/{namespace}/check', { params: { path: { namespace } } }))) as { available: boolean; owner?: string; error?: string };
  } catch (err) {
    ctx.out.debug(`namespace not checked: ${asCliError(err).message}`);
    return null;
  }
}

interface NameCheck {
  name: string;
  available: boolean;
  taken_by: string | null;
}

/** Whether the pack's command names are free in its namespace, asked of the platform; null when it cannot be asked. */
async function commandNamesCheck(ctx: Context, registry: string, token: string | undefined, manifest: PackManifest): Promise<NameCheck[] | null> {
  try {
    const body = { namespace: manifest.pack.namespace, pack: manifest.pack.name, commands: manifest.commands.map((command) => command.name) };
    return ((await dataOf(ctx.client(registry, token).api.POST('/api/v1/registry/command-names/check', { body }))) as { commands: NameCheck[] }).commands;
  } catch (err) {
    ctx.out.debug(`command names not checked: ${asCliError(err).message}`);
    return null;
  }
}

/** What a dry run found that would stop the publication, one line each. */
function dryRunProblems(namespace: { available: boolean; error?: string } | null, names: NameCheck[] | null): string[] {
  const problems: string[] = [];
  if (namespace && !namespace.available) problems.push(namespace.error ?? 'the namespace is not yours');
  for (const name of names ?? []) {
    if (!name.available) problems.push(`command "${name.name}" is taken in this namespace by ${name.taken_by ?? 'another pack'}: rename it in pack.yaml`);
  }
  return problems;
}

export async function publish(ctx: Context, packagePath: string | undefined, options: PublishOptions): Promise<void> {
  const registry = options.registry ? String(parseConfigValue('registry.url', options.registry)) : ctx.registryUrl;
  const item = packagePath ? await fromFile(ctx, packagePath) : await fromFolder(ctx);
  const sha256 = createHash('sha256').update(item.tarball).digest('hex');
  const ref = `@${item.manifest.pack.namespace}/${item.manifest.pack.name}`;

  if (options.dryRun) {
    const signedIn = Boolean(ctx.token() || options.token);
    const check = signedIn ? await namespaceCheck(ctx, registry, options.token, item.manifest.pack.namespace) : null;
    const names = signedIn && check?.available ? await commandNamesCheck(ctx, registry, options.token, item.manifest) : null;
    const problems = dryRunProblems(check, names);
    const data = { dry_run: true, registry, source: item.source, pack: describe(item, sha256), namespace: check, command_names: names, publishable: signedIn && check !== null ? problems.length === 0 : null };
    ctx.out.result(data, [`Would publish ${ref} ${item.manifest.pack.version} (${item.tarball.length} bytes) to ${registry}; nothing was uploaded.`, ...problems.map((problem) => `warning: ${problem}`)].join('\n'));
    // A publication the platform would refuse is not a successful dry run.
    if (names?.some((name) => !name.available)) {
      throw validationError(`${ref} would not publish: ${problems.join('; ')}`, { code: 'COMMAND_NAME_TAKEN', details: data });
    }
    return;
  }

  const form = new FormData();
  const wheel = isZip(item.tarball);
  form.append('package', new Blob([item.tarball], { type: wheel ? 'application/zip' : 'application/gzip' }), `${item.manifest.pack.name}-${item.manifest.pack.version}${wheel ? '.whl' : '.tar.gz'}`);
  if (item.signature) {
    form.append(SIGNATURE_FIELD, item.signature.signature);
    form.append(PUBLIC_KEY_FIELD, item.signature.public_key);
  }
  const progress = ctx.out.progress(`Publishing ${ref} ${item.manifest.pack.version}`);
  try {
    const data = await ctx.client(registry, options.token).upload<{ pack: Record<string, unknown>; message: string }>('POST', '/api/v1/registry/packs', form);
    progress.succeed(`Published ${ref} ${item.manifest.pack.version}`);
    ctx.out.result({ dry_run: false, registry, ...data }, `${data.message}.\nNext: svc install ${ref} --version ${item.manifest.pack.version}`);
  } catch (err) {
    progress.fail();
    throw err;
  }
}
