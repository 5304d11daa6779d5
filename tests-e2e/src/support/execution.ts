import { expect } from 'vitest';
import type { Call, Reply } from './client.js';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';
import { uploadPackage } from './packs.js';
import type { TestUser } from './accounts.js';

/** Publishes and installs a pack with the given command code files; returns the pack id. */
export async function installPack(baseUrl: string, call: Call, owner: TestUser, spec: TestPack): Promise<string> {
  const published = await uploadPackage(baseUrl, owner.token, await packageOf(spec));
  expect(published.status, JSON.stringify(published.body)).toBe(201);
  const installed = await call('/api/v1/packs/install', { token: owner.token, body: { name: `@${spec.namespace}/${spec.name}`, version: spec.version ?? '1.0.0' } });
  expect(installed.status, JSON.stringify(installed.body)).toBe(200);
  return installed.body.data.pack.id;
}

/** Polls a task until `done(status)` holds (default: a terminal status). */
export async function pollTask(call: Call, token: string, taskId: string, done = (s: string) => ['success', 'failure', 'timeout', 'revoked'].includes(s), withinMs = 20_000): Promise<Reply> {
  const until = Date.now() + withinMs;
  for (;;) {
    const reply = await call(`/api/v1/tasks/${taskId}`, { token });
    if (reply.status !== 200 || done(reply.body.data.status) || Date.now() > until) return reply;
    await new Promise((r) => setTimeout(r, 50));
  }
}
