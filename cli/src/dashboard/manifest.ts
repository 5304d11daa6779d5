import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { NAMESPACE_PATTERN } from '@svc/pack-sdk';
import { DASHBOARD_VISIBILITIES, type DashboardVisibility } from '../choices.js';
import { validationError } from '../errors.js';
import type { Finding } from '../pack/check.js';

/** The manifest of a dashboard project. */
export const DASHBOARD_MANIFEST = 'dashboard.json';
/** Version of the front-end SDK the host hands to `mount` (the `context` shape); `min_sdk_version` is checked against it. */
export const DASHBOARD_SDK_VERSION = '1.0.0';

/** Spec Part 2, "Limits": a dashboard bundle holds at most 50 MB and 500 files (checked by the client). */
export const MAX_BUNDLE_BYTES = 50 * 1024 * 1024;
export const MAX_BUNDLE_FILES = 500;
export const MAX_DESCRIPTION_LENGTH = 200;
/** kebab-case, 3-50 characters. */
export const DASHBOARD_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface PackDependency {
  scope: string;
  name: string;
  version: string;
}

export interface DashboardManifest {
  name: string;
  namespace: string;
  version: string;
  description: string;
  category?: string;
  visibility?: DashboardVisibility;
  min_sdk_version?: string;
  pack_dependencies?: PackDependency[];
}

export function dashboardNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'is required';
  if (name.length < 3 || name.length > 50) return `must be 3-50 characters (it has ${name.length})`;
  if (!DASHBOARD_NAME_PATTERN.test(name)) return 'must be kebab-case: lowercase letters and digits joined by single hyphens';
  return undefined;
}

/** The manifest checks of `dashboard validate`: required fields, name, semver versions, limits of the spec. */
export function manifestFindings(raw: Record<string, unknown>): Finding[] {
  const findings: Finding[] = [];
  const error = (field: string, message: string, code = 'MANIFEST_INVALID') => findings.push({ level: 'error', code, field, message });
  for (const field of ['name', 'namespace', 'version', 'description']) {
    if (typeof raw[field] !== 'string' || raw[field] === '') error(field, 'is required');
  }
  const nameProblem = dashboardNameProblem(raw.name);
  if (raw.name && nameProblem) error('name', nameProblem, 'NAME_INVALID');
  if (typeof raw.namespace === 'string' && raw.namespace && !NAMESPACE_PATTERN.test(raw.namespace.replace(/^@/, ''))) error('namespace', 'is not a tenant or organization slug');
  if (typeof raw.version === 'string' && raw.version && semver.valid(raw.version) !== raw.version) error('version', `"${raw.version}" is not a semver version such as 1.0.0`);
  if (typeof raw.description === 'string' && raw.description.length > MAX_DESCRIPTION_LENGTH) error('description', `is longer than ${MAX_DESCRIPTION_LENGTH} characters`);
  if (raw.min_sdk_version !== undefined) {
    if (typeof raw.min_sdk_version !== 'string' || semver.valid(raw.min_sdk_version) !== raw.min_sdk_version) error('min_sdk_version', 'must be a semver version such as 1.0.0');
    else if (semver.gt(raw.min_sdk_version, DASHBOARD_SDK_VERSION)) findings.push({ level: 'warning', code: 'SDK_NEWER', field: 'min_sdk_version', message: `asks for SDK ${raw.min_sdk_version}; this CLI's host provides ${DASHBOARD_SDK_VERSION}` });
  }
  if (raw.visibility !== undefined && !(DASHBOARD_VISIBILITIES as readonly unknown[]).includes(raw.visibility)) error('visibility', `must be one of ${DASHBOARD_VISIBILITIES.join(', ')}`);
  const deps = raw.pack_dependencies;
  if (deps !== undefined) {
    if (!Array.isArray(deps)) error('pack_dependencies', 'must be a list of {scope, name, version}');
    else
      deps.forEach((dep: Partial<PackDependency>, index) => {
        if (typeof dep?.scope !== 'string' || typeof dep.name !== 'string') error(`pack_dependencies.${index}`, 'needs scope and name');
        if (typeof dep?.version !== 'string' || !semver.validRange(dep.version)) error(`pack_dependencies.${index}.version`, 'must be a semver range such as >=2.0.0');
      });
  }
  return findings;
}

export async function readDashboardManifest(dir: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(join(dir, DASHBOARD_MANIFEST), 'utf8');
  } catch {
    throw validationError(`No ${DASHBOARD_MANIFEST} in ${dir}: run \`svc dashboard new NAME\`, or give its folder`, { code: 'DASHBOARD_NOT_FOUND', details: { path: dir } });
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw validationError(`${DASHBOARD_MANIFEST} is not a JSON object`, { code: 'MANIFEST_INVALID' });
}

/** A dashboard's folder: the one given, or its `dashboard/` (a project made by `svc project init`). */
export async function findDashboardDir(dir: string): Promise<string> {
  for (const candidate of [dir, join(dir, 'dashboard')]) {
    try {
      await readFile(join(candidate, DASHBOARD_MANIFEST));
      return candidate;
    } catch {
      // Try the next.
    }
  }
  throw validationError(`No ${DASHBOARD_MANIFEST} in ${dir}: run \`svc dashboard new NAME\`, or give its folder`, { code: 'DASHBOARD_NOT_FOUND', details: { path: dir } });
}
