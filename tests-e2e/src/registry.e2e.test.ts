import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralQueueName, type BusMessage } from '@svc/bus';
import { PACKAGE_UPLOAD_BODY_LIMIT_BYTES, RESOLVE_COMMAND_RPC } from '@svc/contracts';
import { MAX_PACKAGE_BYTES } from '@svc/pack-sdk';
import { adminToken, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';
import { rawTarGz, uploadPackage } from './support/packs.js';

describe.each(oneMode('embedded'))('pack registry (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  let other: TestUser;
  let consumer: TestUser;
  const events: BusMessage[] = [];

  const publish = async (user: TestUser, spec: TestPack) => uploadPackage(fleet.url, user.token, await packageOf(spec));

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    [dev, other, consumer] = [await signUp(call, admin), await signUp(call, admin), await signUp(call, admin)];
    // Developer mode comes with creating an organization.
    await createOrganization(call, dev);
    await createOrganization(call, other);
    await fleet.infra.bus.subscribe(ephemeralQueueName(`e2e.registry-${mode}`), ['pack.installed', 'pack.uninstalled'], async (message) => {
      events.push(message);
    }, { ephemeral: true });
  });
  afterAll(() => fleet?.stop());

  it('publishes, installs, lists, shows, upgrades and uninstalls a pack', async () => {
    const ns = dev.slug;
    const v1 = await publish(dev, {
      namespace: ns,
      name: 'text-tools',
      version: '1.0.0',
      commands: [{ name: 'echo', description: 'Returns its input', retries: 1, tags: ['text'], examples: [{ description: 'Say hi', input: { text: 'hi' } }] }],
    });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    const packId = v1.body.data.pack.id;

    const installed = await call('/api/v1/packs/install', { token: dev.token, body: { name: `@${ns}/text-tools`, version: '1.0.0' } });
    expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    expect(installed.body.data).toMatchObject({ pack: { id: packId, name: 'text-tools', version: '1.0.0', commands: ['echo'] }, message: expect.any(String) });

    const listed = await call('/api/v1/packs', { token: dev.token });
    expect(listed.body.data.packs).toEqual([{ id: packId, name: 'text-tools', namespace: ns, version: '1.0.0', visibility: 'public', commands: 1, installed_at: expect.any(String), status: 'active', pinned: false }]);

    const detail = await call(`/api/v1/commands/${ns}/echo`, { token: consumer.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ namespace: ns, name: 'echo', version: '1.0.0', retries: 1, tags: ['text'], examples: [{ description: 'Say hi', input: { text: 'hi' } }], output_format: 'json' });
    const catalog = await call(`/api/v1/commands?namespace=${ns}`, { token: consumer.token });
    expect(catalog.body.data).toMatchObject({ total: 1, page: 1, pages: 1 });
    expect(catalog.body.data.commands[0]).not.toHaveProperty('retries');

    const v2 = await publish(dev, { namespace: ns, name: 'text-tools', version: '1.1.0', commands: [{ name: 'echo' }, { name: 'shout' }] });
    expect(v2.status).toBe(201);
    const upgraded = await call('/api/v1/packs/install', { token: dev.token, body: { name: `@${ns}/text-tools`, version: 'latest' } });
    expect(upgraded.body.data.pack).toMatchObject({ version: '1.1.0', commands: ['echo', 'shout'] });
    expect((await call(`/api/v1/commands/${ns}/echo`, { token: consumer.token })).body.data.version).toBe('1.1.0');

    const removed = await call(`/api/v1/packs/${packId}`, { method: 'DELETE', token: dev.token });
    expect(removed.status).toBe(200);
    expect(typeof removed.body.data.message).toBe('string');
    expect((await call('/api/v1/packs', { token: dev.token })).body.data.packs).toEqual([]);
    expectError(await call(`/api/v1/commands/${ns}/shout`, { token: consumer.token }), 404, 'NOT_FOUND');
    // Execution asks the registry before every run, so a worker no longer finds the command.
    await expect(fleet.infra.bus.request(RESOLVE_COMMAND_RPC, { namespace: ns, name: 'shout', tenant_ids: [dev.tenantId] })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await expect
      .poll(() => events.filter((e) => (e.payload as { pack_id: string }).pack_id === packId).map((e) => e.name))
      .toEqual(['pack.installed', 'pack.installed', 'pack.uninstalled']);
  });

  it('serves the catalog to API keys, and nothing else of the registry', async () => {
    const key = await call('/api/v1/account/api-keys', { token: consumer.token, body: { name: 'ci', scopes: ['commands:execute'] } });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    expect((await call('/api/v1/commands', { token: key.body.data.key })).status).toBe(200);
    expectError(await call('/api/v1/packs', { token: key.body.data.key }), 401, 'AUTHENTICATION_FAILED');
  });

  describe('every rejection names its cause', () => {
    it.each([
      ['a bad manifest', 400, 'MANIFEST_INVALID', (ns: string) => ({ namespace: ns, name: 'Not_Valid' })],
      ['a missing entry', 400, 'ENTRY_MISSING', (ns: string) => ({ namespace: ns, name: 'no-entry', files: { 'commands/no-entry.js': null } })],
      ['a bad input schema', 400, 'INPUT_SCHEMA_INVALID', (ns: string) => ({ namespace: ns, name: 'bad-schema', commands: [{ name: 'bad-schema', input_schema: { type: 'object', properties: { a: { type: 'strin' } } } }] })],
      ['an entry outside the package', 400, 'PACKAGE_PATH_INVALID', (ns: string) => ({ namespace: ns, name: 'escape', commands: [{ name: 'escape', entry: '../escape.js' }], files: { '../escape.js': null } })],
    ] as const)('refuses %s with %i %s', async (_label, status, code, spec) => {
      expectError(await publish(dev, spec(dev.slug) as TestPack), status, code);
    });

    it('refuses a tar entry that escapes the package with 400 PACKAGE_PATH_INVALID', async () => {
      const tarball = await rawTarGz([{ name: 'pack.yaml', content: 'schema_version: 1' }, { name: '../../outside.js', content: 'x' }]);
      expectError(await uploadPackage(fleet.url, dev.token, tarball), 400, 'PACKAGE_PATH_INVALID');
    });

    it('refuses an upload that is not a gzip with 400 PACKAGE_INVALID', async () => {
      expectError(await uploadPackage(fleet.url, dev.token, Buffer.from('this is plain text')), 400, 'PACKAGE_INVALID');
    });

    it('refuses a package over the size limit with 413 PAYLOAD_TOO_LARGE, in the registry and at the gateway', async () => {
      const overPackage = await uploadPackage(fleet.url, dev.token, Buffer.alloc(MAX_PACKAGE_BYTES + 1));
      expectError(overPackage, 413, 'PAYLOAD_TOO_LARGE');
      expect(overPackage.body.error.details.limit_bytes).toBe(MAX_PACKAGE_BYTES);
      const overBody = await uploadPackage(fleet.url, dev.token, Buffer.alloc(PACKAGE_UPLOAD_BODY_LIMIT_BYTES));
      expectError(overBody, 413, 'PAYLOAD_TOO_LARGE');
      expect(overBody.body.error.details.limit_bytes).toBe(PACKAGE_UPLOAD_BODY_LIMIT_BYTES);
    });

    it("refuses someone else's namespace with 403 PERMISSION_DENIED", async () => {
      const reply = await publish(dev, { namespace: other.slug, name: 'squatter' });
      expectError(reply, 403, 'PERMISSION_DENIED');
      expect(reply.body.error.details.reason).toBe('namespace_not_owned');
    });

    it('refuses to publish from an account in consumer mode with 403 PERMISSION_DENIED', async () => {
      const reply = await publish(consumer, { namespace: consumer.slug, name: 'consumer-pack' });
      expectError(reply, 403, 'PERMISSION_DENIED');
      expect(reply.body.error.details.reason).toBe('developer_mode_required');
      // Installing needs no developer mode: a pack that does not exist is simply not found.
      expectError(await call('/api/v1/packs/install', { token: consumer.token, body: { name: `@${consumer.slug}/x` } }), 404, 'NOT_FOUND');
    });

    it('refuses the same version twice with 409 VERSION_EXISTS', async () => {
      expect((await publish(dev, { namespace: dev.slug, name: 'once' })).status).toBe(201);
      expectError(await publish(dev, { namespace: dev.slug, name: 'once' }), 409, 'VERSION_EXISTS');
    });

    it('refuses a command name already active in the namespace with 409 COMMAND_NAME_TAKEN', async () => {
      expect((await publish(dev, { namespace: dev.slug, name: 'holder', commands: [{ name: 'taken' }] })).status).toBe(201);
      expect((await call('/api/v1/packs/install', { token: dev.token, body: { name: `@${dev.slug}/holder` } })).status).toBe(200);
      expectError(await publish(dev, { namespace: dev.slug, name: 'clasher', commands: [{ name: 'taken' }] }), 409, 'COMMAND_NAME_TAKEN');
    });

    it("refuses to uninstall another tenant's pack with 403, and an unknown one with 404", async () => {
      const published = await publish(dev, { namespace: dev.slug, name: 'kept', visibility: 'public' });
      await call('/api/v1/packs/install', { token: dev.token, body: { name: `@${dev.slug}/kept` } });
      expectError(await call(`/api/v1/packs/${published.body.data.pack.id}`, { method: 'DELETE', token: other.token }), 403, 'PERMISSION_DENIED');
      expectError(await call('/api/v1/packs/00000000-0000-4000-8000-000000000000', { method: 'DELETE', token: other.token }), 404, 'NOT_FOUND');
    });
  });
});
