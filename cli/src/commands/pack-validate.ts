import { relative } from 'node:path';
import type { Context } from '../context.js';
import { problemLines, problemsMessage, validationError } from '../errors.js';
import { checkPack, failed, type PackCheck } from '../pack/check.js';
import { fixManifest } from '../pack/fix.js';
import { findPackDir } from '../pack/project.js';

/** Checks the pack and throws a validation error (exit 3) listing every problem when it fails. */
export async function checkOrFail(packDir: string, strict: boolean): Promise<PackCheck & { manifest: NonNullable<PackCheck['manifest']>; tarball: Buffer }> {
  const check = await checkPack(packDir);
  if (!failed(check, strict) && check.manifest && check.tarball) return check as PackCheck & { manifest: NonNullable<PackCheck['manifest']>; tarball: Buffer };
  const errors = check.findings.filter((finding) => finding.level === 'error' || strict);
  throw validationError(problemsMessage(`The pack in ${packDir}`, errors), {
    code: errors[0]?.code ?? 'PACK_INVALID',
    details: { path: packDir, issues: check.findings },
  });
}

function summary(check: PackCheck, strict: boolean, where: string): string {
  const lines = problemLines(check.findings);
  const pack = check.manifest?.pack;
  const name = pack ? `@${pack.namespace}/${pack.name} ${pack.version}` : where;
  lines.push(`${name}: valid${strict ? ' (strict)' : ''}, ${check.manifest?.commands.length ?? 0} commands, ${check.files} files, ${check.tarball?.length ?? 0} bytes packaged`);
  return lines.join('\n');
}

export async function validate(ctx: Context, path: string, options: { strict?: boolean; fix?: boolean }): Promise<void> {
  const strict = options.strict ?? false;
  const packDir = await findPackDir(ctx.path(path));
  const fixes = options.fix ? await fixManifest(packDir) : [];
  for (const fix of fixes) ctx.out.note(`fixed ${fix.field}: ${JSON.stringify(fix.from)} → ${JSON.stringify(fix.to)}`);
  const check = await checkOrFail(packDir, strict);
  const { pack, commands } = check.manifest;
  ctx.out.result(
    {
      valid: true,
      strict,
      path: packDir,
      pack: { namespace: pack.namespace, name: pack.name, version: pack.version, visibility: pack.visibility },
      commands: commands.map((command) => ({ name: command.name, queue: command.queue, timeout: command.timeout })),
      files: check.files,
      size_bytes: check.tarball.length,
      warnings: check.findings,
      fixed: fixes,
    },
    summary(check, strict, relative(ctx.io.cwd, packDir) || '.'),
  );
}
