/** How long one Redis command may take before it fails, unless a caller says otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 500;

/** Delay before reconnect attempt `attempt` (1, 2, …): 200 ms more each time, at most 2 s. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 200, 2000);
}
