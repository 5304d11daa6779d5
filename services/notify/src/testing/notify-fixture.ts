import { randomUUID } from 'node:crypto';
import type { Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import type { Bus } from '@svc/bus';
import type { Logger } from '@svc/core';
import type { Database } from '@svc/db';
import { createNotifyService, type NotifyConfig, type NotifyServiceHandle, type WebhookSettings } from '../app.js';

/** Settings for tests: loopback receivers over http allowed, and pauses in milliseconds. */
export const TEST_WEBHOOKS: WebhookSettings = {
  allowedCidrs: ['127.0.0.0/8'],
  allowHttp: true,
  timeoutMs: 2000,
  maxAttempts: 5,
  retry: { baseMs: 250, capMs: 10_000 },
  disableAfterMs: 3_600_000,
  intervalMs: 25,
};

export async function startNotify(deps: { database: Database; bus: Bus; log: Logger }, config: Partial<NotifyConfig> = {}): Promise<NotifyServiceHandle> {
  const service = createNotifyService({ ...deps, config: { webhooks: TEST_WEBHOOKS, emailRetry: { baseMs: 50, capMs: 200 }, mailIntervalMs: 25, ...config } });
  await service.start();
  return service;
}

/** The owner of a new personal tenant. */
export function tenantOwner(slug: string): Identity {
  return personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug, email: `${slug}@example.test` });
}

export async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
