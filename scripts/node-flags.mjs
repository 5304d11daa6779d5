/**
 * Node flags of every platform process these scripts start (`npm start`, `npm run fleet`, the
 * benchmarks, the processes the e2e suites start); the container image's commands pass the same.
 * Source maps, so that stack traces name the TypeScript sources. They cost the idle standalone
 * some 4 MB (172 → 168 MB without them, 50 s after start); the bundles' maps hold no copy of the
 * sources (`tsup.config.ts`), which took 1.7 MB more.
 *
 * V8's own young-generation size is kept: 2 MB semi-spaces instead of 16 cost the standalone
 * about a sixth of its request throughput in scavenges (B1 850 → 1,000 req/s back to back), and
 * the memory a busy heap holds is given back once the process idles: within some 20 s by
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

/**
 * Further environment of a process that opens the embedded database (PGlite: no `DATABASE_URL`):
 * glibc serves allocations of 32 KB and more with their own mappings, given back when freed.
 * Compiling PGlite's WebAssembly at start takes 55-105 MB of V8's compiler zones, in 32 KB
 * pieces that otherwise stayed in malloc's heap for the process's life, scattered among what
 * lives on: the idle standalone 261 → 192 MB, with no CPU per run B2 could tell apart. Not for
 * every process: the gateway then paid a mapping per 64 KB socket read relaying dashboard files
 * (B8's gateway 0.37 → 0.47 ms per request) for 21 MB off the whole idle fleet (BENCHMARKS.md,
 * fourteenth round).
 */
export const EMBEDDED_DATABASE_ENV = { MALLOC_MMAP_THRESHOLD_: '32768' };

/**
 * The environment a platform process is started with: `PROCESS_ENV`, `EMBEDDED_DATABASE_ENV` when
 * it opens the embedded database, then `env` itself, so that what the operator set wins.
 */
export const platformEnv = (env) => ({ ...PROCESS_ENV, ...(env.DATABASE_URL ? {} : EMBEDDED_DATABASE_ENV), ...env });

/** The flags that make a process write a V8 CPU profile into `dir` when it exits. */
export const cpuProfileFlags = (dir) => ['--cpu-prof', `--cpu-prof-dir=${dir}`];
