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
  /** While set, the registry's side answers only once it settles, with what was installed when it was asked. */
  let held: Promise<void> | null = null;

  const event = (name: 'pack.installed' | 'pack.uninstalled' | 'pack.grant.changed', namespace: string) =>
    bus.publish(name, { pack_id: packId, tenant_id: caller.tenantId, namespace, name: 'tools', user_id: caller.userId, version: installed, version_id: `v-${installed}`, previous_version: null, visibility: 'public', commands: ['echo'], grantee_tenant_id: caller.tenantId, granted: installed !== null });
  const versionNow = async () => (await catalog.resolve(caller, { namespace: 'acme', name: 'echo' }))?.pack.version ?? null;

  beforeAll(async () => {
    bus = await createBus({ logger: log });
    catalog = new RegistryCatalog(bus);
    subscriptions = [
      await bus.respond(RESOLVE_COMMAND_RPC, async () => {
        asked += 1;
        const version = installed;
        if (held) await held;
        if (failing) throw new Error('the registry could not read its database');
        if (version === null) throw new NotFoundError('No such command');
        return resolved(version);
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

  it('asks the registry once for calls that find no answer while it is being asked for', async () => {
    const newcomer = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'newcomer' });
    installed = '3.1.0';
    const before = asked;
    const answers = await Promise.all(Array.from({ length: 20 }, () => catalog.resolve(newcomer, { namespace: 'acme', name: 'echo' })));
    expect(answers.map((answer) => answer?.pack.version)).toEqual(Array(20).fill('3.1.0'));
    expect(asked - before).toBe(1);
  });

  it('does not keep an answer asked for before an install was heard of', async () => {
    const newcomer = personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'newcomer' });
    const resolveNow = async () => (await catalog.resolve(newcomer, { namespace: 'acme', name: 'echo' }))?.pack.version ?? null;
    installed = '4.0.0';
    let release!: () => void;
    held = new Promise((resolve) => (release = resolve));
    const before = asked;
    try {
      const early = resolveNow();
      await expect.poll(() => asked - before, { timeout: 1000, interval: 5 }).toBe(1);
      installed = '5.0.0';
      catalog.forgetNamespace('acme');
      release();
      // The call that asked gets its answer; the next one asks again and runs the new version.
      expect(await early).toBe('4.0.0');
    } finally {
      held = null;
      release();
    }
    expect(await resolveNow()).toBe('5.0.0');
    expect(asked - before).toBe(2);
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
