/**
 * Node flags of every platform process these scripts start (`npm start`, `npm run fleet`, the
 * benchmarks); the container image's commands pass the same. Source maps, so that stack traces
 * name the TypeScript sources.
 *
 * V8's own young-generation size is kept: 2 MB semi-spaces instead of 16 cost the standalone
 * about a sixth of its request throughput in scavenges (B1 850 → 1,000 req/s back to back), and
 * the memory a busy heap holds is given back by V8's memory reducer once the process idles:
 * mostly within some 40 s, at times only after up to 100 s (BENCHMARKS.md, sixth round).
 */
export const PROCESS_NODE_FLAGS = ['--enable-source-maps'];
