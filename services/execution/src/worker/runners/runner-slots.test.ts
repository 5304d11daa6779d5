import { mkdir, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunnerSlots } from './runner-slots.js';

describe('runner slots: the folders of dead pools', () => {
  let root: string;
  const pools: RunnerSlots[] = [];
  const poolOf = (options?: ConstructorParameters<typeof RunnerSlots>[1]) => {
    const pool = new RunnerSlots(root, options);
    pools.push(pool);
    return pool;
  };
  /** A folder another process left, last marked `ageMs` ago. */
  const leftBehind = async (name: string, ageMs: number) => {
    const dir = join(root, name);
    await mkdir(join(dir, '1'), { recursive: true });
    const then = new Date(Date.now() - ageMs);
    await utimes(dir, then, then);
    return dir;
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-slots-'));
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
    await rm(root, { recursive: true, force: true });
  });

  it("removes this pid's leftovers and another pid's unmarked ones as it makes its folder, and keeps a live pool's", async () => {
    await leftBehind(`${process.pid}-restarted`, 0);
    await leftBehind('1-dead', 11 * 60_000);
    await leftBehind('2-alive', 30_000);
    const slot = await poolOf().create();
    expect((await readdir(root)).sort()).toEqual(['2-alive', basename(dirname(slot))].sort());
  });

  it('keeps the folder of another pool of this process, though it has this pid', async () => {
    const first = await poolOf({ markMs: 20 }).create();
    const second = await poolOf({ markMs: 20 }).create();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await readdir(root)).sort()).toEqual([basename(dirname(first)), basename(dirname(second))].sort());
  });

  it('marks its own folder while it lives, and sweeps a pool that died meanwhile', async () => {
    const slot = await poolOf({ markMs: 50, staleMs: 400 }).create();
    const own = dirname(slot);
    const old = new Date(Date.now() - 60_000);
    await utimes(own, old, old);
    await leftBehind('3-dying', 0);
    await expect.poll(async () => Date.now() - (await stat(own)).mtimeMs, { timeout: 5_000 }).toBeLessThan(30_000);
    await expect.poll(() => readdir(root), { timeout: 5_000 }).toEqual([basename(own)]);
  });

  it('removes its folder whole when it closes, and marks no more', async () => {
    const pool = poolOf({ markMs: 20 });
    const slot = await pool.create();
    await pool.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await readdir(root)).toEqual([]);
    expect(slot.startsWith(root)).toBe(true);
  });
});
