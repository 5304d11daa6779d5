import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '@svc/bus';
import { SSH_EXEC_DEFAULT_TIMEOUT_MS, SSH_EXEC_RPC } from '@svc/contracts';
import { createLogger } from '@svc/core';
import type { HookCall } from '../runners/runner-process.js';
import { PackFolders } from '../runners/runner-test-helpers.js';
import { PackManifests } from './pack-manifests.js';
import { sshHooks } from './ssh-hooks.js';

const log = createLogger({ service: 'test', silent: true });

const manifest = (sshTargets: string) => `schema_version: 1
pack: { namespace: acme, name: ops, version: 1.0.0 }
commands:
  - { name: run, entry: commands/run.js, input_schema: { type: object } }
${sshTargets}
`;

describe('ctx.ssh.exec in the worker', () => {
  let bus: Bus;
  const folders = new PackFolders();
  const asked: unknown[] = [];

  const call = (packDir: string, tenant = randomUUID()): HookCall => ({ tenant, user: randomUUID(), correlationId: 'c', packKey: 'acme/ops@1.0.0', packDir, command: 'run', signal: new AbortController().signal });

  beforeAll(async () => {
    bus = await createBus({ logger: log });
    await bus.respond(SSH_EXEC_RPC, async (request) => {
      asked.push(request);
      return { stdout: 'ok\n', stderr: '', exit_code: 0, truncated: false };
    });
  });

  afterAll(async () => {
    await bus?.close();
    await folders.removeAll();
  });

  it("refuses a target the pack's manifest does not allow, before asking the ssh service", async () => {
    const hook = sshHooks(bus, new PackManifests())['ssh.exec']!;
    const listed = await folders.create({ 'pack.yaml': manifest('ssh_targets: { allowed: [build-box] }') });
    const none = await folders.create({ 'pack.yaml': manifest('') });
    for (const [dir, target] of [[listed, 'db-box'], [none, 'build-box']] as const) {
      await expect(hook(call(dir), { target, command: 'uptime' })).rejects.toMatchObject({ code: 'PERMISSION_DENIED', message: "target not allowed by this pack's manifest", details: { target } });
    }
    expect(asked).toEqual([]);
  });

  it("asks for the caller's tenant (never the pack owner's), with the default timeout when none is given", async () => {
    const hook = sshHooks(bus, new PackManifests())['ssh.exec']!;
    const named = await folders.create({ 'pack.yaml': manifest('ssh_targets: { allowed: [build-box] }') });
    const all = await folders.create({ 'pack.yaml': manifest("ssh_targets: { allowed: ['*'] }") });
    const tenant = randomUUID();
    expect(await hook(call(named, tenant), { target: 'build-box', command: 'uptime' })).toEqual({ stdout: 'ok\n', stderr: '', exit_code: 0, truncated: false });
    await hook(call(all, tenant), { target: 'any-box', command: 'id', timeoutMs: 500 });
    expect(asked).toEqual([
      { tenantId: tenant, target: 'build-box', command: 'uptime', timeoutMs: SSH_EXEC_DEFAULT_TIMEOUT_MS },
      { tenantId: tenant, target: 'any-box', command: 'id', timeoutMs: 500 },
    ]);
  });

  it.each([
    ['no command', { target: 'build-box' }],
    ['a timeout of 0', { target: 'build-box', command: 'id', timeoutMs: 0 }],
    ['a target name not in kebab-case', { target: 'Build Box', command: 'id' }],
  ])('refuses %s as a validation error', async (_label, args) => {
    const dir = await folders.create({ 'pack.yaml': manifest("ssh_targets: { allowed: ['*'] }") });
    await expect(sshHooks(bus, new PackManifests())['ssh.exec']!(call(dir), args)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
