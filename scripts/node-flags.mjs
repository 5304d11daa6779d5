/**
 * Node flags of every platform process these scripts start (`npm start`, `npm run fleet`, the
 * benchmarks); the container image's commands pass the same. Source maps, so that stack traces
 * name the TypeScript sources.
 *
 * V8's own young-generation size is kept: 2 MB semi-spaces instead of 16 cost the standalone
 * about a sixth of its request throughput in scavenges (B1 850 → 1,000 req/s back to back), and
 * the memory a busy heap holds is given back once the process idles: within some 10 s by
 * `releaseMemoryWhenIdle` (`@svc/platform`), where V8's memory reducer alone took up to 100 s
 * (BENCHMARKS.md, sixth and seventh rounds).
 */
export const PROCESS_NODE_FLAGS = ['--enable-source-maps'];

/**
 * Environment every platform process these scripts start gets, unless the operator set it: two
 * glibc malloc arenas instead of one per thread that allocates (up to 16 on two cores). Node's
 * threads (V8's helpers, libuv's pool) each kept an arena of their own with memory freed in it
 * but not given back: two arenas took 25-30 MB off the idle fleet's proportional sets (584 → 556
 * MB) and off the idle standalone (288 → 261 MB), with no CPU per run the benchmark could tell
 * apart; one arena saved no more (BENCHMARKS.md, thirteenth round). The container image sets the same.
 */
export const PROCESS_ENV = { MALLOC_ARENA_MAX: '2' };

/** The flags that make a process write a V8 CPU profile into `dir` when it exits. */
export const cpuProfileFlags = (dir) => ['--cpu-prof', `--cpu-prof-dir=${dir}`];
