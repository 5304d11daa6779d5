import { randomBytes } from 'node:crypto';
import { chmod, copyFile, link, mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';

/** Link errors that mean "not this way" (another filesystem, links refused), not a missing file. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'EMLINK', 'ENOTSUP', 'EOPNOTSUPP']);

/** How often a pool marks its folder as in use (its modification time). */
const MARK_MS = 60_000;
/** A folder of another process not marked for this long is a dead pool's (ten missed marks). */
const STALE_MS = 10 * MARK_MS;

/** The folders of this process's live pools: a folder of this pid not among them is a dead process's. */
const held = new Set<string>();

export interface RunnerSlotsOptions {
  markMs?: number;
  staleMs?: number;
}

/**
 * Removes what dead pools left under `root`: a folder of this pid that no pool of this process
 * holds (a restarted container has the same pid), and a folder of another pid not marked for
 * `staleMs`. A pid alone cannot tell a live process from a dead one: replicas sharing the data
 * folder from containers of their own may have the same pids, so another pid's folder goes by its mark.
 */
async function sweep(root: string, staleMs: number): Promise<void> {
  const mine = `${process.pid}-`;
  const names = await readdir(root).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : Promise.reject(err)));
  const now = Date.now();
  await Promise.all(
    names.map(async (name) => {
      const dir = join(root, name);
      if (held.has(dir)) return;
      if (!name.startsWith(mine)) {
        const marked = await stat(dir).then(
          (entry) => entry.mtimeMs,
          () => now,
        );
        if (now - marked < staleMs) return;
      }
      await rm(dir, { recursive: true, force: true });
    }),
  );
}

/**
 * Folders a spare runner is started on before its pack is known (`RunnerPool`): each is empty
 * until `fill` puts a pack version's files in it, so the spare's sandbox (which lets it read
 * that folder and nothing else) needs nothing the pack decides. The files are hard links to the
 * unpacked version's, made in a few milliseconds and costing no space; copies where links cannot
 * be made (another filesystem). A pool's folders live under `<root>/<pid>-<random>`, removed
 * whole when it closes. While it lives the pool marks that folder every `markMs`, and sweeps
 * (`sweep`) what dead pools left: when it makes its folder, and at each mark.
 */
export class RunnerSlots {
  readonly #root: string;
  readonly #markMs: number;
  readonly #staleMs: number;
  #dir: Promise<string> | undefined;
  #marks: NodeJS.Timeout | undefined;
  #last = 0;

  constructor(root: string, { markMs = MARK_MS, staleMs = STALE_MS }: RunnerSlotsOptions = {}) {
    this.#root = root;
    this.#markMs = markMs;
    this.#staleMs = staleMs;
  }

  /** A new empty folder a runner may read (mode 0755: runners run as another uid). */
  async create(): Promise<string> {
    this.#dir ??= mkdir(this.#root, { recursive: true, mode: 0o755 })
      .then(() => sweep(this.#root, this.#staleMs))
      .then(async () => {
        // Held before it exists, so that no other pool of this process sweeps it away meanwhile.
        const dir = join(this.#root, `${process.pid}-${randomBytes(6).toString('hex')}`);
        held.add(dir);
        await mkdir(dir, { mode: 0o755 });
        await chmod(dir, 0o755);
        this.#marks = setInterval(() => void this.#mark(dir), this.#markMs).unref();
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
    if (!this.#dir) return;
    const dir = await this.#dir;
    clearInterval(this.#marks);
    held.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }

  /** Marks the pool's folder as in use, then sweeps; a failure waits for the next mark. */
  async #mark(dir: string): Promise<void> {
    const now = new Date();
    await utimes(dir, now, now)
      .then(() => sweep(this.#root, this.#staleMs))
      .catch(() => undefined);
  }
}
