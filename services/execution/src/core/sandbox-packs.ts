/**
 * How a sandbox run names its pack on the way to the worker: pack id `sandbox-<user id>`, version
 * id `sandbox-<sha256 of the package>`. The worker unpacks it from `execution.sandbox_packages`
 * instead of asking the registry, and a version id that names its bytes never goes stale.
 */
const PREFIX = 'sandbox-';

export const sandboxPackId = (userId: string): string => `${PREFIX}${userId}`;
export const sandboxVersionId = (sha256: string): string => `${PREFIX}${sha256}`;

export function isSandboxPack(packId: string): boolean {
  return packId.startsWith(PREFIX);
}

/** The user and package a sandbox run's ids name. */
export function sandboxPackageOf(packId: string, versionId: string): { userId: string; sha256: string } {
  return { userId: packId.slice(PREFIX.length), sha256: versionId.slice(PREFIX.length) };
}
