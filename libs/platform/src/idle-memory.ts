import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleMemoryOptions {
  /**
   * How often the event loop and the heap are looked at (default 6 s). Keep it over 5 s: V8
   * shrinks its young generation in a collection only when little was allocated over the last
   * 5 s of its record, and the pair's second collection must reach past the busy spell.
   */
  everyMs?: number;
  /** Below this share of the last look's time the process is idle (default 2 %). */
  idleBelow?: number;
  /** How far the heap may grow past its size after the last collection (default 8 MB). */
  growthBytes?: number;
}

/** V8's full collection; `--expose-gc` turned on here if the process was not started with it. */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  // The flag takes effect in contexts made after it; a new context hands the function over.
  return runInNewContext('gc') as () => void;
}

const heapSize = () => process.memoryUsage().heapTotal;

/**
 * The looks' default interval. At 5 s the pair's second collection could fall a hair inside
 * V8's 5 s window of allocation (in two of three idle services watched), and a young generation
 * a busy spell had grown to 33 MB stayed until V8's own reducer ran, some 30 s later
 * (BENCHMARKS.md, nineteenth round).
 */
const IDLE_LOOK_MS = 6000;

/**
 * Gives back the memory a busy spell grew soon after the process goes idle. V8's memory reducer
 * does so on its own, but may wait up to 100 s, and an idle fleet meanwhile holds a third more
 * than it needs (BENCHMARKS.md, sixth and seventh rounds). Here, once the process has started
 * and whenever later its heap has grown past `growthBytes`, two full collections run at the
 * next two looks that find the event loop idle: the first frees the objects, the second moves
 * what lives on the pages the first left sparse and gives those pages back (one alone left the
 * worker's old space at 63 MB instead of 35). Each takes some tens of milliseconds, while
 * nothing else runs. Returns a function that stops it.
 *
 * @example
 *   const stopReleasing = releaseMemoryWhenIdle();
 */
export function releaseMemoryWhenIdle(options: IdleMemoryOptions = {}): () => void {
  const { everyMs = IDLE_LOOK_MS, idleBelow = 0.02, growthBytes = 8 * 1024 * 1024 } = options;
  const collect = fullCollection();
  let since = performance.eventLoopUtilization();
  let settledSize = heapSize();
  // Starting is a busy spell too (migrations, modules, first connections).
  let collectionsDue = 2;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, since);
    since = now;
    if (utilization >= idleBelow) {
      // Two idle looks in a row: a pair broken by work starts again.
      if (collectionsDue > 0) collectionsDue = 2;
      return;
    }
    if (collectionsDue === 0 && heapSize() > settledSize + growthBytes) collectionsDue = 2;
    if (collectionsDue === 0) return;
    collect();
    // The collection's own time is not the next look's business.
    since = performance.eventLoopUtilization();
    collectionsDue -= 1;
    if (collectionsDue === 0) settledSize = heapSize();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
