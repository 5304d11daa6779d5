import type { Bus } from '@svc/bus';
import type { Logger } from '@svc/core';

/** How often the gateway reports which keys it has seen. */
export const API_KEY_USAGE_FLUSH_MS = 30_000;

/**
 * Remembers when each API key was last used and reports the batch to identity now and then,
 * so `last_used_at` stays current without a database write on every request.
 */
export class ApiKeyUsage {
  /** Key id → when it was last seen (ms since the epoch): formatted only when reported. */
  private seen = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly bus: Bus,
    private readonly log: Logger,
    flushMs = API_KEY_USAGE_FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  record(keyId: string): void {
    this.seen.set(keyId, Date.now());
  }

  async flush(): Promise<void> {
    if (this.seen.size === 0) return;
    const batch = this.seen;
    this.seen = new Map();
    const keys = [...batch].map(([id, at]) => ({ id, at: new Date(at).toISOString() }));
    await this.bus.publish('api-key.used', { keys }).catch((err: Error) => {
      this.log.warn('api key usage not reported', { error: err.message, keys: keys.length });
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
