import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBus, typedBus, type Subscription } from '@svc/bus';
import { capturingLogger } from '@svc/testing';
import type { RunnerPool } from '../runners/runner-pool.js';
import type { PackCache } from '../services/pack-cache.js';
import { PackManifests } from '../services/pack-manifests.js';
import type { TaskWorker } from '../services/task-worker.js';
import { consumeBroadcasts } from './broadcast.consumer.js';

const installed = (packId: string) => ({
  pack_id: packId,
  tenant_id: 'tenant-1',
  namespace: 'acme',
  name: 'tools',
  version: '1.0.0',
  commands: ['echo'],
  version_id: `${packId}-v1`,
  user_id: 'user-1',
  previous_version: null,
  visibility: 'public',
});

const PYTHON_MANIFEST = `schema_version: 1
pack: { namespace: acme, name: tools, version: 1.0.0, description: Tools, visibility: public }
runtime: python
commands:
  - name: echo
    entry: tools.echo:run
    input_schema: { type: object }
`;

describe('the worker on pack.installed', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });

  /** A worker's broadcast consumer whose pack cache unpacks every version into `dir`. */
  async function consumerOver(dir: string) {
    const { logger, entries } = capturingLogger();
    const bus = typedBus(createMemoryBus({ logger }));
    const prepared: string[] = [];
    const pool = { prepareSpare: async (runtime: string) => void prepared.push(runtime) } as unknown as RunnerPool;
    const packs = { dirFor: async () => dir } as unknown as PackCache;
    const subscription: Subscription = await consumeBroadcasts(bus, { worker: {} as TaskWorker, pool, packs, manifests: new PackManifests() }, logger);
    cleanups.push(() => subscription.cancel(), () => bus.close());
    return { bus, entries, prepared };
  }

  it('readies a spare of the runtime its manifest names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-installed-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'pack.yaml'), PYTHON_MANIFEST);
    const { bus, prepared } = await consumerOver(dir);
    await bus.publish('pack.installed', installed('pack-python'));
    await vi.waitFor(() => expect(prepared).toEqual(['python']));
  });

  it('only warns when the unpacked version has no readable manifest: nothing rejects unhandled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-installed-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const { bus, entries, prepared } = await consumerOver(dir);
    await bus.publish('pack.installed', installed('pack-broken'));
    await vi.waitFor(() => expect(entries.find((entry) => entry.message === 'spare runner not readied')).toMatchObject({ level: 'warn', pack_id: 'pack-broken' }));
    expect(prepared).toEqual([]);
  });
});
