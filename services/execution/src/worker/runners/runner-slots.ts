import { chmod, copyFile, link, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Link errors that mean "not this way" (another filesystem, links refused), not a missing file. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP']);

const swept = new Map<string, Promise<void>>();

/** Once per process and root: removes what an earlier process of this pid left there (a restarted container has the same pid). */
function sweepOnce(root: string): Promise<void> {
  let sweeping = swept.get(root);
  if (!sweeping) {
    const mine = `${process.pid}-`;
    sweeping = mkdir(root, { recursive: true, mode: 0o755 })
      .then(() => readdir(root))
      .then((names) => Promise.all(names.filter((name) => name.startsWith(mine)).map((name) => rm(join(root, name), { recursive: true, force: true }))))
      .then(() => undefined);
    swept.set(root, sweeping);
  }
  return sweeping;
}

/**
 * Folders a spare runner is started on before its pack is known (`RunnerPool`): each is empty
 * until `fill` puts a pack version's files in it, so the spare's sandbox (which lets it read
 * that folder and nothing else) needs nothing the pack decides. The files are hard links to the
 * unpacked version's, made in a few milliseconds and costing no space; copies where links cannot
 * be made (another filesystem). A pool's folders live under `<root>/<pid>-<random>`, removed
 * whole when it closes; what a process left there when it died is removed by the next process
 * of the same pid (a restarted container) as it makes its first.
 */
export class RunnerSlots {
  readonly #root: string;
  #dir: Promise<string> | undefined;
  #last = 0;

  constructor(root: string) {
    this.#root = root;
  }

  /** A new empty folder a runner may read (mode 0755: runners run as another uid). */
  async create(): Promise<string> {
    this.#dir ??= sweepOnce(this.#root)
      .then(() => mkdtemp(join(this.#root, `${process.pid}-`)))
      .then(async (dir) => {
        await chmod(dir, 0o755);
        return dir;
      });
    const number = (this.#last += 1);
    const slot = join(await this.#dir, String(number));
    await mkdir(slot, { mode: 0o755 });
    return slot;
  }

  /** Puts the files of the folder `packDir` into `slot`, links where it can. */
  async fill(slot: string, packDir: string): Promise<void> {
    const entries = await readdir(packDir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const from = join(packDir, entry.name);
        const to = join(slot, entry.name);
        if (entry.isDirectory()) {
          await mkdir(to, { mode: 0o755 });
          return this.fill(to, from);
        }
        // Archives hold files and folders only (`archiveEntry`): anything else is not the pack's.
        if (!entry.isFile()) return;
        await link(from, to).catch((err: NodeJS.ErrnoException) => {
          if (!CANNOT_LINK.has(err.code ?? '')) throw err;
          return copyFile(from, to);
        });
      }),
    );
  }

  remove(slot: string): Promise<void> {
    return rm(slot, { recursive: true, force: true });
  }

  async close(): Promise<void> {
    if (this.#dir) await rm(await this.#dir, { recursive: true, force: true });
  }
}
