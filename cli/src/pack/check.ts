import { createPackArchive, inspectPackage, PackFormatError, type PackManifest } from '@svc/pack-sdk';
import { collectPackFiles } from './project.js';

export type FindingLevel = 'error' | 'warning';

export interface Finding {
  level: FindingLevel;
  /** The registry's `error.code` for errors; `STYLE_*` for the advice `--strict` enforces. */
  code: string;
  field: string;
  message: string;
}

export interface PackCheck {
  packDir: string;
  manifest: PackManifest | undefined;
  /** The package exactly as `pack build` would write it, when it could be made. */
  tarball: Buffer | undefined;
  findings: Finding[];
  files: number;
}

/** Findings of a PackFormatError: every issue it lists, or itself. */
export function findingsOf(error: PackFormatError): Finding[] {
  const issues = error.details.issues as Array<{ code: string; field: string; message: string }> | undefined;
  if (issues?.length) return issues.map((issue) => ({ level: 'error', code: issue.code, field: issue.field, message: issue.message }));
  return [{ level: 'error', code: error.code, field: String(error.details.field ?? error.details.entry ?? 'package'), message: error.message }];
}

/** Advice beyond what the registry requires; warnings, or errors with `--strict`. */
function styleFindings(manifest: PackManifest, files: Record<string, Buffer>): Finding[] {
  const findings: Finding[] = [];
  const warn = (code: string, field: string, message: string) => findings.push({ level: 'warning', code, field, message });
  if (!manifest.pack.description) warn('STYLE_DESCRIPTION_MISSING', 'pack.description', 'says nothing; people choose packs by it');
  if (!Object.keys(files).some((path) => /^readme(\.md)?$/i.test(path))) warn('STYLE_README_MISSING', 'README.md', 'is missing');
  manifest.commands.forEach((command, index) => {
    const at = `commands.${index}`;
    if (!command.description) warn('STYLE_DESCRIPTION_MISSING', `${at}.description`, `command "${command.name}" has no description (MCP clients show it to models)`);
    if (command.examples.length === 0) warn('STYLE_EXAMPLES_MISSING', `${at}.examples`, `command "${command.name}" has no example`);
    const schema = command.input_schema as { properties?: Record<string, { description?: string }>; additionalProperties?: unknown };
    if (schema.additionalProperties !== false) warn('STYLE_SCHEMA_OPEN', `${at}.input_schema`, 'accepts properties it does not name (set additionalProperties: false)');
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!property || typeof property !== 'object' || !property.description) warn('STYLE_DESCRIPTION_MISSING', `${at}.input_schema.properties.${name}`, 'has no description');
    }
  });
  return findings;
}

/**
 * Checks a pack folder the way the registry checks an upload (the package is built in memory
 * and read back with `inspectPackage` of `@svc/pack-sdk`: archive, manifest, entries), then
 * adds the advice that `--strict` turns into errors.
 */
export async function checkPack(packDir: string): Promise<PackCheck> {
  const collected = await collectPackFiles(packDir);
  const findings: Finding[] = collected.skippedLinks.map((path) => ({ level: 'warning', code: 'STYLE_LINK_SKIPPED', field: path, message: 'is a link and is left out of the package' }));
  let tarball: Buffer | undefined;
  let manifest: PackManifest | undefined;
  try {
    tarball = await createPackArchive(collected.files);
    manifest = (await inspectPackage(tarball)).manifest;
  } catch (err) {
    if (!(err instanceof PackFormatError)) throw err;
    findings.push(...findingsOf(err));
    tarball = undefined;
  }
  if (manifest) findings.push(...styleFindings(manifest, collected.files));
  return { packDir, manifest, tarball, findings, files: Object.keys(collected.files).length };
}

/** Whether the check fails: any error, or any warning under `--strict`. */
export function failed(check: PackCheck, strict: boolean): boolean {
  return check.findings.some((finding) => finding.level === 'error' || strict);
}
