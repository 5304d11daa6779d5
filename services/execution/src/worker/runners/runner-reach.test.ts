import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertRunnersReach, unsearchableFolder } from './runner-reach.js';
import type { SandboxReport } from './runner-sandbox.js';

const NOBODY = 65534;
const own = { uid: process.getuid!(), gid: process.getgid!() };
const runnersAs = (uid: number, gid = uid): SandboxReport => ({ namespaces: true, rlimits: true, uid, gid, missing: [] });

describe.skipIf(own.uid === NOBODY)('a data folder pack runners must reach', () => {
  const made: string[] = [];
  afterEach(async () => {
    for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function dataDir(mode: number): Promise<string> {
    const parent = await mkdtemp(join(tmpdir(), 'runner-reach-'));
    made.push(parent);
    await chmod(parent, mode);
    const data = join(parent, 'data');
    await mkdir(data, { mode: 0o755 });
    return data;
  }

  it('finds the first folder another uid may not search, and none where every folder lets it through', async () => {
    const closed = await dataDir(0o700);
    expect(unsearchableFolder(join(closed, 'packs'), NOBODY, NOBODY)).toBe(join(closed, '..'));
    const open = await dataDir(0o711);
    expect(unsearchableFolder(join(open, 'packs'), NOBODY, NOBODY)).toBeUndefined();
  });

  it("goes by the owner's and the group's bits for the runners' own uid and gid", async () => {
    const closed = await dataDir(0o700);
    expect(unsearchableFolder(closed, own.uid, NOBODY)).toBeUndefined();
    await chmod(join(closed, '..'), 0o710);
    expect(unsearchableFolder(closed, NOBODY, own.gid)).toBeUndefined();
  });

  it('refuses to start runners as another uid that cannot reach the packs, naming the folder and the fix', async () => {
    const closed = await dataDir(0o700);
    expect(() => assertRunnersReach(join(closed, 'packs'), runnersAs(NOBODY))).toThrow(/SVC_DATA_DIR cannot be reached by pack runners: .* is not searchable by uid 65534 .*chmod o\+x/);
  });

  it('lets runners that run as the worker itself through, whatever the modes', async () => {
    const closed = await dataDir(0o700);
    expect(() => assertRunnersReach(join(closed, 'packs'), runnersAs(own.uid, own.gid))).not.toThrow();
  });
});
