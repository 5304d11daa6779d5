import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { releaseMemoryWhenIdle } from './idle-memory.js';

/** Full collections asked for (`gc()`), as Node reports them. */
function forcedCollections() {
  const seen: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind, flags } = (entry as PerformanceEntry & { detail: { kind: number; flags: number } }).detail;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR && flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) seen.push(entry);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { count: () => seen.length, stop: () => observer.disconnect() };
}

/** Keeps the event loop busy for `ms`, as a burst of requests would. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const EVERY_MS = 200;

describe('releaseMemoryWhenIdle', () => {
  let stopReleasing: () => void;
  let collections: ReturnType<typeof forcedCollections>;
  beforeEach(() => {
    collections = forcedCollections();
    stopReleasing = releaseMemoryWhenIdle({ everyMs: EVERY_MS });
  });
  afterEach(() => {
    stopReleasing();
    collections.stop();
  });

  /**
   * Waits until `count` collections were seen (a loaded machine may run the looks late), looking
   * seldom and cheaply: the waiting must leave the process idle.
   */
  async function collectionsReach(count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (collections.count() < count && Date.now() < deadline) await sleep(EVERY_MS / 2);
    expect(collections.count()).toBe(count);
  }

  it('collects once started until two looks in a row find the process idle, and no more while the heap does not grow', async () => {
    await collectionsReach(2);
    // A look the loaded machine made busy between the two starts the pair again: wait for a
    // pair to complete, known by three looks without a collection.
    const deadline = Date.now() + 10_000;
    let settled = collections.count();
    for (let quiet = 0; quiet < 3 && Date.now() < deadline; ) {
      await sleep(EVERY_MS);
      quiet = collections.count() === settled ? quiet + 1 : 0;
      settled = collections.count();
    }
    await sleep(4 * EVERY_MS);
    expect(collections.count()).toBe(settled);
  });

  it('collects twice more once the heap has grown and the process has gone idle', async () => {
    await collectionsReach(2);
    let junk: { i: number; text: string }[] | undefined = Array.from({ length: 1_000_000 }, (_, i) => ({ i, text: `item ${i}` }));
    busyFor(3 * EVERY_MS);
    const grown = process.memoryUsage().heapUsed;
    expect(junk.length).toBe(1_000_000);
    junk = undefined;
    await collectionsReach(4);
    expect(process.memoryUsage().heapUsed).toBeLessThan(grown - 30_000_000);
  });

  it('waits while the process stays busy', async () => {
    for (let i = 0; i < 5; i++) {
      busyFor(EVERY_MS);
      await sleep(10);
    }
    expect(collections.count()).toBe(0);
  });
});
