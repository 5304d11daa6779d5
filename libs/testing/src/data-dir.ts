import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh `SVC_DATA_DIR` under the system's temporary folder that pack runners can reach:
 * `mkdtemp` makes it 0700, and a worker running as root starts runners as uid 65534, which
 * must be able to search it to read the unpacked packs.
 *
 * @example
 *   const dataDir = makeDataDir('svc-e2e-');
 */
export function makeDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}
