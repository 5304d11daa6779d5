import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantIdsOf, type Identity } from '@svc/auth';
import { ephemeralQueueName, type BusMessage } from '@svc/bus';
import { LIST_COMMANDS_RPC, RESOLVE_COMMAND_RPC } from '@svc/contracts';
import { AppError } from '@svc/core';
import { org, person, startRegistry, type RegistryHarness } from '../testing/harness.js';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';

describe('installed packs: install, upgrade, list, uninstall', () => {
  let h: RegistryHarness;
  const acme = org('acme');
  const ada = person('ada', { orgs: [acme] });
  const alan = person('alan', { orgs: [acme] });
  const bob = person('bob');
  const events: BusMessage[] = [];

  beforeAll(async () => {
    h = await startRegistry();
    await h.bus.subscribe(ephemeralQueueName('test.pack-events'), ['pack.installed', 'pack.uninstalled'], async (message) => {
      events.push(message);
    }, { ephemeral: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function publish(identity: Identity, p: TestPack) {
    const reply = await h.http(identity).post('/api/v1/registry/packs').attach('package', await packageOf(p), 'p.tar.gz');
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data.pack as { id: string; version_id: string };
  }
  const install = (identity: Identity, name: string, version?: string) => h.http(identity).post('/api/v1/packs/install').send(version === undefined ? { name } : { name, version });
  const expectError = (reply: { status: number; body: any }, status: number, code: string) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(status);
    expect(reply.body.error.code).toBe(code);
  };

  it('installs a published version, lists it, upgrades it and uninstalls it with its files', async () => {
    const v1 = await publish(ada, { namespace: 'ada', name: 'text-tools', version: '1.0.0', commands: [{ name: 'echo' }] });
    expect((await h.http(ada).get('/api/v1/packs')).body.data.packs).toEqual([]);

    const installed = await install(ada, '@ada/text-tools', '1.0.0');
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    expect(installed.body.data).toEqual({ pack: { id: v1.id, namespace: 'ada', name: 'text-tools', version: '1.0.0', commands: ['echo'], pinned: false }, message: 'Installed @ada/text-tools 1.0.0' });

    const listed = await h.http(ada).get('/api/v1/packs');
    expect(listed.body.data.packs).toEqual([
      { id: v1.id, name: 'text-tools', namespace: 'ada', version: '1.0.0', visibility: 'public', commands: 1, installed_at: expect.any(String), status: 'active', pinned: false },
    ]);

    const v2 = await publish(ada, { namespace: 'ada', name: 'text-tools', version: '1.1.0', commands: [{ name: 'echo' }, { name: 'shout' }] });
    const upgraded = await install(ada, '@ada/text-tools', 'latest');
    expect(upgraded.body.data.pack).toMatchObject({ version: '1.1.0', commands: ['echo', 'shout'] });
    expect(upgraded.body.data.message).toBe('Installed @ada/text-tools 1.1.0 (was 1.0.0)');
    expect((await h.http(bob).get('/api/v1/commands/ada/shout')).body.data.version).toBe('1.1.0');
    expect((await h.http(ada).get('/api/v1/packs')).body.data.packs[0]).toMatchObject({ version: '1.1.0', commands: 2 });

    const again = await install(ada, '@ada/text-tools', '1.1.0');
    expect(again.body.data.message).toBe('@ada/text-tools 1.1.0 is already installed');

    const removed = await h.http(ada).delete(`/api/v1/packs/${v1.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data.message).toBe('Uninstalled @ada/text-tools');
    expect((await h.http(ada).get('/api/v1/packs')).body.data.packs).toEqual([]);
    expectError(await h.http(bob).get('/api/v1/commands/ada/echo'), 404, 'NOT_FOUND');
    for (const version of [v1, v2]) expect(existsSync(join(h.blobDir, `packs/ada/text-tools/${version.version_id}.tar.gz`))).toBe(false);
    // Uninstalling removed every version, so the same version may be published afresh.
    await publish(ada, { namespace: 'ada', name: 'text-tools', version: '1.0.0' });

    await expect.poll(() => events.map((e) => [e.name, (e.payload as { version: string | null }).version])).toEqual([
      ['pack.installed', '1.0.0'],
      ['pack.installed', '1.1.0'],
      ['pack.uninstalled', '1.1.0'],
    ]);
    expect(events[1]!.payload).toMatchObject({ pack_id: v1.id, tenant_id: ada.tenantId, user_id: ada.userId, previous_version: '1.0.0', commands: ['echo', 'shout'] });
    expect(events[2]!.payload).toMatchObject({ pack_id: v1.id, tenant_id: ada.tenantId, namespace: 'ada', name: 'text-tools', commands: ['echo', 'shout'] });
  });

  it('rolls back to an older version on request', async () => {
    await publish(ada, { namespace: 'ada', name: 'rollback', version: '2.0.0' });
    await publish(ada, { namespace: 'ada', name: 'rollback', version: '2.1.0' });
    expect((await install(ada, '@ada/rollback')).body.data.pack.version).toBe('2.1.0');
    expect((await install(ada, '@ada/rollback', '2.0.0')).body.data.pack.version).toBe('2.0.0');
  });

  it('takes the highest release for latest, prereleases only when there is nothing else', async () => {
    await publish(ada, { namespace: 'ada', name: 'pre', version: '3.0.0-beta.1' });
    expect((await install(ada, '@ada/pre')).body.data.pack.version).toBe('3.0.0-beta.1');
    await publish(ada, { namespace: 'ada', name: 'pre', version: '2.9.0' });
    await publish(ada, { namespace: 'ada', name: 'pre', version: '2.10.0' });
    expect((await install(ada, '@ada/pre', 'latest')).body.data.pack.version).toBe('2.10.0');
  });

  it("lets every member of the owning organization install, list and uninstall the organization's packs", async () => {
    const p = await publish(ada, { namespace: 'acme', name: 'shared', visibility: 'private' });
    expect((await install(alan, '@acme/shared')).status).toBe(200);
    expect((await h.http(alan).get('/api/v1/packs')).body.data.packs.map((x: { name: string }) => x.name)).toContain('shared');
    expect((await h.http(bob).get('/api/v1/packs')).body.data.packs).toEqual([]);
    expect((await h.http(alan).delete(`/api/v1/packs/${p.id}`)).status).toBe(200);
  });

  it('refuses a command name already active in the namespace, at publish and at install, with COMMAND_NAME_TAKEN', async () => {
    await publish(ada, { namespace: 'ada', name: 'first', commands: [{ name: 'unique-cmd' }] });
    await publish(ada, { namespace: 'ada', name: 'second', commands: [{ name: 'unique-cmd' }] });
    expect((await install(ada, '@ada/first')).status).toBe(200);
    const atInstall = await install(ada, '@ada/second');
    expectError(atInstall, 409, 'COMMAND_NAME_TAKEN');
    expect(atInstall.body.error.details.clashes).toEqual([{ command: 'unique-cmd', pack: 'first' }]);
    const atPublish = await h.http(ada).post('/api/v1/registry/packs').attach('package', await packageOf({ namespace: 'ada', name: 'third', commands: [{ name: 'unique-cmd' }] }), 'p.tar.gz');
    expectError(atPublish, 409, 'COMMAND_NAME_TAKEN');
  });

  it('allows the same command name in different namespaces', async () => {
    await publish(bob, { namespace: 'bob', name: 'first', commands: [{ name: 'unique-cmd' }] });
    expect((await install(bob, '@bob/first')).status).toBe(200);
  });

  describe("other tenants' installations", () => {
    const carol = person('carol');
    const dave = person('dave', { developer: false });
    const installEvents: BusMessage[] = [];
    beforeAll(async () => {
      await h.bus.subscribe(ephemeralQueueName('test.installation-events'), ['pack.installation.changed', 'pack.installation.removed'], async (message) => {
        installEvents.push(message);
      }, { ephemeral: true });
    });
    /** The version `who` would run `ada/<name>` in, as execution asks it; null when the registry answers NOT_FOUND (any other failure fails the test). */
    const runs = async (who: Identity, name: string) => {
      const resolved = await h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', name, tenant_ids: tenantIdsOf(who), tenant_id: who.tenantId }).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
        throw err;
      });
      return resolved?.pack.version ?? null;
    };
    const listed = async (who: Identity) => (await h.http(who).get('/api/v1/packs')).body.data.packs as Array<Record<string, unknown>>;

    it('lets a consumer install a pack it can see into its own tenant, following the latest release or pinned to a version', async () => {
      const cat = await publish(ada, { namespace: 'ada', name: 'catalogue', version: '1.0.0', commands: [{ name: 'cat-echo' }, { name: 'cat-old' }] });
      expect((await install(ada, '@ada/catalogue')).status).toBe(200);

      // Developer mode is not needed to install.
      const followed = await install(dave, '@ada/catalogue');
      expect(followed.status, JSON.stringify(followed.body)).toBe(200);
      expect(followed.body.data).toEqual({ pack: { id: cat.id, namespace: 'ada', name: 'catalogue', version: '1.0.0', commands: ['cat-echo', 'cat-old'], pinned: false }, message: 'Installed @ada/catalogue 1.0.0 (following the latest release)' });
      expect(await listed(dave)).toEqual([{ id: cat.id, name: 'catalogue', namespace: 'ada', version: '1.0.0', visibility: 'public', commands: 2, installed_at: expect.any(String), status: 'active', pinned: false }]);

      const pinned = await install(carol, '@ada/catalogue', '1.0.0');
      expect(pinned.body.data.pack).toMatchObject({ version: '1.0.0', pinned: true });
      expect(pinned.body.data.message).toBe('Installed @ada/catalogue 1.0.0 (pinned)');

      // The owner releases 1.1.0, which drops cat-old and adds cat-new.
      await publish(ada, { namespace: 'ada', name: 'catalogue', version: '1.1.0', commands: [{ name: 'cat-echo' }, { name: 'cat-new' }] });
      expect((await install(ada, '@ada/catalogue', '1.1.0')).status).toBe(200);
      expect((await listed(dave))[0]).toMatchObject({ version: '1.1.0', pinned: false });
      expect((await listed(carol))[0]).toMatchObject({ version: '1.0.0', pinned: true });
      // Runs follow the installation: the follower and a tenant without one run 1.1.0; the pin 1.0.0, whole.
      expect([await runs(dave, 'cat-echo'), await runs(bob, 'cat-echo'), await runs(carol, 'cat-echo')]).toEqual(['1.1.0', '1.1.0', '1.0.0']);
      expect([await runs(bob, 'cat-old'), await runs(carol, 'cat-old')]).toEqual([null, '1.0.0']);
      expect([await runs(bob, 'cat-new'), await runs(carol, 'cat-new')]).toEqual(['1.1.0', null]);

      // Installing again moves the pin, or says it is already so.
      expect((await install(carol, '@ada/catalogue', '1.0.0')).body.data.message).toBe('@ada/catalogue 1.0.0 is already installed (pinned)');
      const moved = await install(carol, '@ada/catalogue', 'latest');
      expect(moved.body.data).toMatchObject({ pack: { version: '1.1.0', pinned: false }, message: 'Installed @ada/catalogue 1.1.0 (following the latest release; was 1.0.0)' });
      expect(await runs(carol, 'cat-new')).toBe('1.1.0');

      await expect.poll(() => installEvents.filter((e) => (e.payload as { pack_id: string }).pack_id === cat.id).map((e) => [e.name, (e.payload as { tenant_id: string }).tenant_id, (e.payload as { pinned?: boolean }).pinned])).toEqual([
        ['pack.installation.changed', dave.tenantId, false],
        ['pack.installation.changed', carol.tenantId, true],
        ['pack.installation.changed', carol.tenantId, false],
      ]);
    });

    it('lists only the installed packs’ commands when asked, at the version each installation runs', async () => {
      await publish(ada, { namespace: 'ada', name: 'lister', version: '1.0.0', visibility: 'unlisted', commands: [{ name: 'lst-a' }] });
      await install(ada, '@ada/lister');
      await publish(ada, { namespace: 'ada', name: 'lister', version: '2.0.0', visibility: 'unlisted', commands: [{ name: 'lst-a' }, { name: 'lst-b' }] });
      await install(ada, '@ada/lister');
      const erin = person('erin');
      expect((await install(erin, '@ada/lister', '1.0.0')).status).toBe(200);

      const rest = await h.http(erin).get('/api/v1/commands?installed=true');
      expect(rest.body.data.commands.map((c: { name: string; version: string }) => `${c.name}@${c.version}`)).toEqual(['lst-a@1.0.0']);
      expect(rest.body.data.total).toBe(1);
      const tools = (await h.bus.request(LIST_COMMANDS_RPC, { tenant_ids: tenantIdsOf(erin), tenant_id: erin.tenantId, installed: true })) as { commands: Array<{ name: string }> };
      expect(tools.commands.map((c) => c.name)).toEqual(['lst-a']);
      // The catalog itself is unchanged: unlisted packs stay out of it.
      expect((await h.http(erin).get('/api/v1/commands?namespace=ada&search=lst')).body.data.total).toBe(0);
      expect((await h.http(person('frank')).get('/api/v1/commands?installed=true')).body.data).toEqual({ commands: [], total: 0, page: 1, pages: 0 });
      expectError(await h.http(erin).get('/api/v1/commands?installed=yes'), 400, 'VALIDATION_FAILED');
    });

    it("removes a tenant's installation without touching the pack or other tenants' installations", async () => {
      const rm = await publish(ada, { namespace: 'ada', name: 'removable' });
      await install(ada, '@ada/removable');
      const [gina, hank] = [person('gina'), person('hank')];
      await install(gina, '@ada/removable');
      await install(hank, '@ada/removable');

      // Another tenant's attempt removes nothing of gina's: it is refused as for a pack one does not own.
      expectError(await h.http(bob).delete(`/api/v1/packs/${rm.id}`), 403, 'PERMISSION_DENIED');
      expect((await listed(gina)).map((p) => p.id)).toEqual([rm.id]);
      expect(await listed(bob)).not.toContainEqual(expect.objectContaining({ id: rm.id }));

      const removed = await h.http(gina).delete(`/api/v1/packs/${rm.id}`);
      expect(removed.status).toBe(200);
      expect(removed.body.data.message).toBe('Removed @ada/removable from your installed packs; the pack itself stays published');
      expect(await listed(gina)).toEqual([]);
      expect((await listed(hank)).map((p) => p.id)).toEqual([rm.id]);
      expect((await h.http(gina).get('/api/v1/commands/ada/removable')).status).toBe(200);
      expectError(await h.http(gina).delete(`/api/v1/packs/${rm.id}`), 403, 'PERMISSION_DENIED');
      await expect.poll(() => installEvents.some((e) => e.name === 'pack.installation.removed' && (e.payload as { tenant_id: string }).tenant_id === gina.tenantId)).toBe(true);

      // The owner's uninstall takes every tenant's installation with the pack.
      expect((await h.http(ada).delete(`/api/v1/packs/${rm.id}`)).status).toBe(200);
      expect(await listed(hank)).toEqual([]);
    });

    it('refuses to pin a version the consumer may not reach, and marks an installation it can no longer reach unavailable', async () => {
      const acmeOnly = await publish(ada, { namespace: 'acme', name: 'restricted', version: '1.0.0', visibility: 'organization' });
      await install(ada, '@acme/restricted');
      await publish(ada, { namespace: 'acme', name: 'restricted', version: '1.1.0', visibility: 'private' });
      const ivy = person('ivy');
      expectError(await install(ivy, '@acme/restricted'), 404, 'NOT_FOUND');
      const grant = { pack_namespace: 'acme', pack_name: 'restricted', grantee_tenant_id: ivy.tenantId };
      expect((await h.http(ada).post('/api/v1/registry/grants').send(grant)).status).toBe(200);
      expectError(await install(ivy, '@acme/restricted', '1.1.0'), 404, 'NOT_FOUND');
      expectError(await install(ivy, '@acme/restricted', '9.9.9'), 404, 'NOT_FOUND');
      expect((await install(ivy, '@acme/restricted', '1.0.0')).body.data.pack).toMatchObject({ version: '1.0.0', pinned: true });

      expect((await h.http(ada).delete('/api/v1/registry/grants').send(grant)).status).toBe(200);
      expect(await listed(ivy)).toEqual([expect.objectContaining({ id: acmeOnly.id, status: 'unavailable' })]);
      await expect(h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'acme', name: 'restricted', tenant_ids: tenantIdsOf(ivy), tenant_id: ivy.tenantId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      // Its own installation it may still remove.
      expect((await h.http(ivy).delete(`/api/v1/packs/${acmeOnly.id}`)).status).toBe(200);
    });
  });

  describe('refusals', () => {
    it('refuses install and uninstall in consumer mode with PERMISSION_DENIED', async () => {
      const consumer = { ...ada, developerMode: false };
      const p = await publish(ada, { namespace: 'ada', name: 'consumer-test' });
      expectError(await install(consumer, '@ada/consumer-test'), 403, 'PERMISSION_DENIED');
      expectError(await h.http(consumer).delete(`/api/v1/packs/${p.id}`), 403, 'PERMISSION_DENIED');
    });

    it('refuses to remove a visible pack the caller neither owns nor installed with PERMISSION_DENIED, and a private one with NOT_FOUND', async () => {
      const open = await publish(ada, { namespace: 'ada', name: 'open', visibility: 'public' });
      const hidden = await publish(ada, { namespace: 'ada', name: 'hidden', visibility: 'private' });
      const unreleased = await publish(ada, { namespace: 'ada', name: 'unreleased', visibility: 'public' });
      await install(ada, '@ada/open');
      await install(ada, '@ada/hidden');
      expectError(await h.http(bob).delete(`/api/v1/packs/${open.id}`), 403, 'PERMISSION_DENIED');
      expectError(await install(bob, '@ada/hidden'), 404, 'NOT_FOUND');
      expectError(await h.http(bob).delete(`/api/v1/packs/${hidden.id}`), 404, 'NOT_FOUND');
      // Published but never released: nobody but its owners sees it.
      expectError(await install(bob, '@ada/unreleased'), 404, 'NOT_FOUND');
      expectError(await h.http(bob).delete(`/api/v1/packs/${unreleased.id}`), 404, 'NOT_FOUND');
      expect((await h.http(ada).get('/api/v1/commands/ada/hidden')).status).toBe(200);
    });

    it('answers NOT_FOUND for an unknown pack, version or id', async () => {
      await publish(ada, { namespace: 'ada', name: 'known' });
      expectError(await install(ada, '@ada/unknown'), 404, 'NOT_FOUND');
      expectError(await install(ada, '@ada/known', '9.9.9'), 404, 'NOT_FOUND');
      expectError(await h.http(ada).delete(`/api/v1/packs/${randomUUID()}`), 404, 'NOT_FOUND');
    });

    it.each([
      ['a name without scope', { name: 'text-tools' }],
      ['a name with an uppercase scope', { name: '@Acme/text-tools' }],
      ['a version that is not semver', { name: '@ada/known', version: '1.0' }],
      ['an unknown field', { name: '@ada/known', force: true }],
    ])('refuses %s with VALIDATION_FAILED', async (_label, body) => {
      expectError(await h.http(ada).post('/api/v1/packs/install').send(body), 400, 'VALIDATION_FAILED');
    });

    it('refuses a pack id that is not a uuid with VALIDATION_FAILED', async () => {
      expectError(await h.http(ada).delete('/api/v1/packs/not-a-uuid'), 404, 'NOT_FOUND');
    });
  });
});
