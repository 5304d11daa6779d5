/** Postgres's SQLSTATE for unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * The constraint (or unique index) a Postgres unique_violation names, whichever driver raised it
 * (node-postgres or PGlite; drizzle wraps the driver's error as `cause`): `''` when the driver did
 * not name it, `undefined` for any other error.
 *
 * @example
 *   try {
 *     await versions.create(row);
 *   } catch (err) {
 *     if (violatedUniqueConstraint(err) === 'pack_versions_pack_version_unique') throw versionExists(ref, version);
 *     throw err;
 *   }
 */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: string; constraint?: string };
    if (code === UNIQUE_VIOLATION) return constraint ?? '';
  }
  return undefined;
}
