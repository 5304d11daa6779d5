import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus, type Subscription } from '@svc/bus';
import { RESOLVE_COMMAND_RPC, type ResolvedCommand } from '@svc/contracts';
import { createLogger, NotFoundError } from '@svc/core';
import { consumePackChanges } from '../events/pack.consumer.js';
import { InputValidator } from './input-validator.js';
import { RegistryCatalog } from './registry-catalog.js';

const log = createLogger({ service: 'registry-catalog-test', silent: true });
const caller = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'caller' });
const packId = randomUUID();

function resolved(version: string): ResolvedCommand {
  return {
    namespace: 'acme',
    name: 'echo',
    description: '',
    entry: 'commands/echo.js',
    input_schema: { type: 'object' },
    output_schema: null,
    timeout: 30,
    retries: 0,
    queue: 'fast',
    pack: { id: packId, namespace: 'acme', name: 'tools', version, version_id: `v-${version}`, owner_tenant_id: caller.tenantId, visibility: 'public' },
    package: { sha256: 'x', size_bytes: 1 },
  };
}

/**
 * The API side's cached resolutions, with the registry's side of the bus played by a
 * responder that answers whatever version is "installed".
 */
describe('resolved commands, and the installs and uninstalls that change them', () => {
  let bus: Bus;
  let catalog: RegistryCatalog;
  let subscriptions: Subscription[];
  let installed: string | null = '1.0.0';
  let asked = 0;
  /** The registry's side failing as when its database is away. */
  let failing = false;

  const event = (name: 'pack.installed' | 'pack.uninstalled' | 'pack.grant.changed', namespace: string) =>
    bus.publish(name, { pack_id: packId, tenant_id: caller.tenantId, namespace, name: 'tools', user_id: caller.userId, version: installed, version_id: `v-${installed}`, previous_version: null, visibility: 'public', commands: ['echo'], grantee_tenant_id: caller.tenantId, granted: installed !== null });
  const versionNow = async () => (await catalog.resolve(caller, { namespace: 'acme', name: 'echo' }))?.pack.version ?? null;

  beforeAll(async () => {
    bus = await createBus({ logger: log });
    catalog = new RegistryCatalog(bus);
    subscriptions = [
      await bus.respond(RESOLVE_COMMAND_RPC, async () => {
        asked += 1;
        if (failing) throw new Error('the registry could not read its database');
        if (installed === null) throw new NotFoundError('No such command');
        return resolved(installed);
      }),
      await consumePackChanges(bus, { catalog, validator: new InputValidator() }),
    ];
  });

  afterAll(async () => {
    await Promise.all(subscriptions.map((s) => s.cancel()));
    await bus.close();
  });

  it('reuses an answer for a moment, and runs the version installed since as soon as the install is heard of', async () => {
    expect(await versionNow()).toBe('1.0.0');
    installed = '2.0.0';
    expect(await versionNow()).toBe('1.0.0');
    expect(asked).toBe(1);
    await event('pack.installed', 'other');
    await new Promise((r) => setTimeout(r, 50));
    expect(await versionNow()).toBe('1.0.0');
    await event('pack.installed', 'acme');
    await expect.poll(versionNow, { timeout: 1000, interval: 20 }).toBe('2.0.0');
  });

  it.each([
    ['an uninstall', 'pack.uninstalled', 'a new install', 'pack.installed'],
    ['a grant taken', 'pack.grant.changed', 'given again', 'pack.grant.changed'],
  ] as const)('finds no command after %s, and finds it after %s, each as soon as heard of', async (_taken, takenEvent, _given, givenEvent) => {
    installed = '3.0.0';
    await event('pack.installed', 'acme');
    await expect.poll(versionNow, { timeout: 1000, interval: 20 }).toBe('3.0.0');
    installed = null;
    await event(takenEvent, 'acme');
    await expect.poll(versionNow, { timeout: 1000, interval: 20 }).toBeNull();
    installed = '3.0.0';
    await event(givenEvent, 'acme');
    await expect.poll(versionNow, { timeout: 1000, interval: 20 }).toBe('3.0.0');
  });

  it('answers 503 with a retry_after when the registry cannot answer, as for a run that cannot be queued', async () => {
    const stranger = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'stranger' });
    failing = true;
    try {
      await expect(catalog.resolve(stranger, { namespace: 'acme', name: 'echo' })).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', details: { retry_after: 2 } });
    } finally {
      failing = false;
    }
  });
});
