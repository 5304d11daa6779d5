import { describe, expect, it } from 'vitest';
import type { FileRow } from '../repositories/dashboard.repository.js';
import { InventoryCache } from './inventory-cache.js';

const row = (versionId: string, path: string): FileRow => ({ versionId, path, sizeBytes: 1, sha256: '0'.repeat(64) });

describe('the inventory cache of served versions', () => {
  it('loads a version once and answers later requests from memory', async () => {
    const cache = new InventoryCache();
    let loads = 0;
    const load = async () => (loads++, [row('v1', 'main.js'), row('v1', 'assets/app.css')]);
    expect((await cache.get('d1', '1.0.0', load))?.get('assets/app.css')).toEqual(row('v1', 'assets/app.css'));
    expect((await cache.get('d1', '1.0.0', load))?.get('main.js')).toEqual(row('v1', 'main.js'));
    expect(loads).toBe(1);
  });

  it('keeps no answer for a version that does not exist yet, so an upload is served once it commits', async () => {
    const cache = new InventoryCache();
    expect(await cache.get('d1', '2.0.0', async () => [])).toBeUndefined();
    expect((await cache.get('d1', '2.0.0', async () => [row('v2', 'main.js')]))?.has('main.js')).toBe(true);
  });

  it('tells dashboards apart, and drops the least recently used version beyond its capacity', async () => {
    const cache = new InventoryCache(2);
    const loaded: string[] = [];
    const loader = (key: string) => async () => (loaded.push(key), [row(key, 'main.js')]);
    await cache.get('d1', '1.0.0', loader('d1@1'));
    await cache.get('d2', '1.0.0', loader('d2@1'));
    await cache.get('d1', '1.0.0', loader('d1@1'));
    await cache.get('d3', '1.0.0', loader('d3@1'));
    await cache.get('d1', '1.0.0', loader('d1@1'));
    await cache.get('d2', '1.0.0', loader('d2@1'));
    expect(loaded).toEqual(['d1@1', 'd2@1', 'd3@1', 'd2@1']);
  });
});
