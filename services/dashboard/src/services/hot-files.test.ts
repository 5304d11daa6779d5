import { describe, expect, it } from 'vitest';
import { HotFiles } from './hot-files.js';

const bytes = (n: number, fill = 'x') => Buffer.alloc(n, fill);

describe('the hot bundle files kept in memory', () => {
  it('reads a file once, sharing the load among concurrent first reads, and answers later reads from memory', async () => {
    const hot = new HotFiles();
    let loads = 0;
    const load = async () => (loads++, bytes(10));
    const first = await Promise.all([hot.get('d1/v1/main.js', 10, load), hot.get('d1/v1/main.js', 10, load)]);
    expect(first.map((b) => b?.length)).toEqual([10, 10]);
    expect((await hot.get('d1/v1/main.js', 10, load))?.length).toBe(10);
    expect(loads).toBe(1);
  });

  it('serves but does not keep bytes whose length differs from the inventory, nor a file the store does not have', async () => {
    const hot = new HotFiles();
    let loads = 0;
    expect((await hot.get('d1/v1/main.js', 10, async () => (loads++, bytes(4))))?.length).toBe(4);
    expect((await hot.get('d1/v1/main.js', 10, async () => (loads++, bytes(10))))?.length).toBe(10);
    expect(await hot.get('d1/v1/gone.js', 10, async () => (loads++, undefined))).toBeUndefined();
    expect(await hot.get('d1/v1/gone.js', 10, async () => (loads++, undefined))).toBeUndefined();
    expect(loads).toBe(4);
  });

  it('drops the least recently read files once the kept bytes pass the capacity', async () => {
    const hot = new HotFiles(25);
    const loaded: string[] = [];
    const load = (key: string) => async () => (loaded.push(key), bytes(10));
    await hot.get('a', 10, load('a'));
    await hot.get('b', 10, load('b'));
    await hot.get('a', 10, load('a'));
    await hot.get('c', 10, load('c'));
    await hot.get('a', 10, load('a'));
    await hot.get('b', 10, load('b'));
    expect(loaded).toEqual(['a', 'b', 'c', 'b']);
  });
});
