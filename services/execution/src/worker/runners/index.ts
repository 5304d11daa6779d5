/**
 * The pack runner pool as other packages use it (`@svc/execution/runners`): the `svc` CLI runs
 * commands locally (`svc pack dev`, `svc pack exec`) in the same runners as a worker does.
 */
export { RunnerPool, RESULT_LIMIT_BYTES, type PoolRunRequest, type RunnerPoolOptions, type RunnerPoolStats } from './runner-pool.js';
export type { Hook, HookCall, Hooks, RunOutcome } from './runner-process.js';
export { CommandCancelledError, CommandError, CommandTimeoutError, PythonVersionError, ResultTooLargeError, RunnerCrashedError } from './runner-errors.js';
