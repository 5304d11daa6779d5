import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The home of a person using the `svc` CLI in a test: a scratch folder with `work/` in it. It is
 * searchable by everybody, since `svc pack exec` runs packs locally too, in runners that (started
 * as root) read them as uid 65534.
 */
export async function cliHome(prefix: string): Promise<{ home: string; work: string; remove(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), prefix));
  await chmod(home, 0o755);
  const work = join(home, 'work');
  await mkdir(work);
  return { home, work, remove: () => rm(home, { recursive: true, force: true }) };
}
