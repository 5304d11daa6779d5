/**
 * Node flags of every platform process these scripts start (`npm start`, `npm run fleet`, the
 * benchmarks); the container image sets the same through NODE_OPTIONS.
 * - Source maps, so that stack traces name the TypeScript sources.
 * - Semi-spaces of 2 MB instead of 16: V8 keeps a busy process's young generation at its largest
 *   for good, which made up most of an idle fleet's growth after load (1,079 → 914 MB over eight
 *   processes, standalone 418 → 293 MB); request throughput did not measurably change.
 */
export const PROCESS_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=2'];
