import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesOf, packageOf, tarballByGnuTar, tarballByNpmPack, type TestPack } from '@svc/pack-sdk/testing';
import { MAX_MANIFEST_BYTES } from '@svc/pack-sdk';
import { adminToken, createApiKey, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { connectMcp } from './support/mcp.js';
import { rawTarGz, uploadPackage } from './support/packs.js';

/** Commands that say which version of their pack answered. */
const versioned = (spec: TestPack & { version: string }): TestPack => ({
  ...spec,
  files: Object.fromEntries((spec.commands ?? []).map((c) => [`commands/${c.name}.js`, `export default async () => ({ version: '${spec.version}' });\n`])),
});

describe.each(oneMode('embedded'))('packs as a new user meets them (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  /** A consumer: never turned developer mode on. */
  let consumer: TestUser;
  let stranger: TestUser;

  const publishTarball = (user: TestUser, tarball: Buffer) => uploadPackage(fleet.url, user.token, tarball);
  const release = (user: TestUser, name: string, version = 'latest') => call('/api/v1/packs/install', { token: user.token, body: { name, version } });
  const run = (user: TestUser, ns: string, command: string) => call(`/api/v1/commands/${ns}/${command}`, { token: user.token, body: {} });

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    [dev, consumer, stranger] = [await signUp(call, admin), await signUp(call, admin), await signUp(call, admin)];
    await createOrganization(call, dev);
  });
  afterAll(() => fleet?.stop());

  describe('tarballs made the usual ways', () => {
    const spec = (name: string): TestPack => ({ namespace: dev.slug, name, commands: [{ name: `${name}-run` }] });

    it.each([
      ['GNU tar of a folder (tar czf x.tgz -C dir .)', 'gnu-tar', (files: Record<string, string>) => tarballByGnuTar(files)],
      ['npm pack (everything under package/)', 'npm-pack', (files: Record<string, string>) => tarballByNpmPack(files)],
      ['tar-stream with a ./ root entry and ./ prefixes', 'tar-stream', (files: Record<string, string>) => rawTarGz([{ name: './', type: 'directory' }, ...Object.entries(files).map(([path, content]) => ({ name: `./${path}`, content }))])],
    ])('publishes, installs and runs a pack packed by %s', async (_label, name, archive) => {
      const published = await publishTarball(dev, await archive(filesOf(spec(name))));
      expect(published.status, JSON.stringify(published.body)).toBe(201);
      expect(published.body.data.pack.commands).toEqual([`${name}-run`]);
      expect((await release(dev, `@${dev.slug}/${name}`)).status).toBe(200);
      const ran = await run(dev, dev.slug, `${name}-run`);
      expect(ran.status, JSON.stringify(ran.body)).toBe(200);
      expect(ran.body.data.result).toEqual({ echoed: {} });
    });

    it('still refuses escapes and links, whichever tool made them', async () => {
      for (const entry of [{ name: './../evil.js', content: 'x' }, { name: '/etc/evil.js', content: 'x' }, { name: './commands/link.js', type: 'symlink' as const, linkname: '/etc/passwd' }]) {
        const tarball = await rawTarGz([{ name: './pack.yaml', content: filesOf(spec('evil'))['pack.yaml']! }, entry]);
        expectError(await publishTarball(dev, tarball), 400, 'PACKAGE_PATH_INVALID');
      }
    });

    it(`answers a pack.yaml over ${MAX_MANIFEST_BYTES} bytes with 400 MANIFEST_INVALID`, async () => {
      const files = filesOf(spec('big-manifest'));
      const tarball = await packageOf({ ...spec('big-manifest'), files: { 'pack.yaml': `${files['pack.yaml']}\n#${'x'.repeat(MAX_MANIFEST_BYTES)}\n` } });
      const reply = await publishTarball(dev, tarball);
      expectError(reply, 400, 'MANIFEST_INVALID');
      expect(reply.body.error.details).toMatchObject({ field: 'pack.yaml', limit_bytes: MAX_MANIFEST_BYTES });
    });
  });

  describe('installing as a consumer', () => {
    let packId: string;
    const name = () => `@${dev.slug}/catalogue`;

    beforeAll(async () => {
      const v1 = await uploadPackage(fleet.url, dev.token, await packageOf(versioned({ namespace: dev.slug, name: 'catalogue', version: '1.0.0', commands: [{ name: 'which' }, { name: 'retired' }] })));
      expect(v1.status, JSON.stringify(v1.body)).toBe(201);
      packId = v1.body.data.pack.id;
      expect((await release(dev, name(), '1.0.0')).status).toBe(200);
    });

    it('installs into the consumer’s tenant without developer mode, following the latest release, and lists it', async () => {
      const installed = await call('/api/v1/packs/install', { token: consumer.token, body: { name: name() } });
      expect(installed.status, JSON.stringify(installed.body)).toBe(200);
      expect(installed.body.data.pack).toEqual({ id: packId, namespace: dev.slug, name: 'catalogue', version: '1.0.0', commands: ['retired', 'which'], pinned: false });
      const listed = await call('/api/v1/packs', { token: consumer.token });
      expect(listed.body.data.packs).toEqual([{ id: packId, name: 'catalogue', namespace: dev.slug, version: '1.0.0', visibility: 'public', commands: 2, installed_at: expect.any(String), status: 'active', pinned: false }]);
      expect(Date.parse(listed.body.data.packs[0].installed_at)).toBeGreaterThan(Date.now() - 60_000);
      // Another tenant sees none of it.
      expect((await call('/api/v1/packs', { token: stranger.token })).body.data.packs).toEqual([]);
    });

    it('runs the version each tenant chose: a pin keeps its version when the owner releases the next', async () => {
      await uploadPackage(fleet.url, dev.token, await packageOf(versioned({ namespace: dev.slug, name: 'catalogue', version: '2.0.0', commands: [{ name: 'which' }, { name: 'added' }] })));
      const pinned = await call('/api/v1/packs/install', { token: stranger.token, body: { name: name(), version: '1.0.0' } });
      expect(pinned.body.data.pack).toMatchObject({ version: '1.0.0', pinned: true });
      expect((await release(dev, name(), '2.0.0')).status).toBe(200);

      expect((await run(consumer, dev.slug, 'which')).body.data.result).toEqual({ version: '2.0.0' });
      expect((await run(stranger, dev.slug, 'which')).body.data.result).toEqual({ version: '1.0.0' });
      expect((await run(stranger, dev.slug, 'retired')).body.data.result).toEqual({ version: '1.0.0' });
      expectError(await run(stranger, dev.slug, 'added'), 404, 'NOT_FOUND');
      expectError(await run(consumer, dev.slug, 'retired'), 404, 'NOT_FOUND');
      expect((await call('/api/v1/packs', { token: consumer.token })).body.data.packs[0]).toMatchObject({ version: '2.0.0', pinned: false });
      expect((await call('/api/v1/packs', { token: stranger.token })).body.data.packs[0]).toMatchObject({ version: '1.0.0', pinned: true });
      // The detail view shows each tenant the version it runs.
      const detail = (user: TestUser, command: string) => call(`/api/v1/commands/${dev.slug}/${command}`, { token: user.token });
      expect((await detail(stranger, 'which')).body.data.version).toBe('1.0.0');
      expect((await detail(consumer, 'which')).body.data.version).toBe('2.0.0');
      expect((await detail(stranger, 'retired')).status).toBe(200);
      expectError(await detail(consumer, 'retired'), 404, 'NOT_FOUND');

      // Following the latest again moves the stranger's runs at once.
      expect((await call('/api/v1/packs/install', { token: stranger.token, body: { name: name(), version: 'latest' } })).body.data.pack).toMatchObject({ version: '2.0.0', pinned: false });
      expect((await run(stranger, dev.slug, 'which')).body.data.result).toEqual({ version: '2.0.0' });
    });

    it('offers only the installed packs’ commands as MCP tools when the tenant asks, the whole catalog by default', async () => {
      const other = await uploadPackage(fleet.url, dev.token, await packageOf({ namespace: dev.slug, name: 'not-installed', commands: [{ name: 'elsewhere' }] }));
      expect(other.status).toBe(201);
      expect((await release(dev, `@${dev.slug}/not-installed`)).status).toBe(200);
      const key = (await createApiKey(call, consumer, 'mcp-installed')).key;

      const everything = await connectMcp(fleet.url, key);
      const all = (await everything.listTools()).tools.map((t) => t.name);
      expect(all).toEqual(expect.arrayContaining([`${dev.slug}__catalogue__which`, `${dev.slug}__not-installed__elsewhere`]));
      await everything.close();

      const installedOnly = await connectMcp(fleet.url, key, { tools: 'installed' });
      // The platform's own task tools close every list.
      expect((await installedOnly.listTools()).tools.map((t) => t.name)).toEqual([`${dev.slug}__catalogue__added`, `${dev.slug}__catalogue__which`, 'svc__task_get', 'svc__task_cancel']);
      // The option narrows the list, not what may be run.
      const result = await installedOnly.callTool({ name: `${dev.slug}__not-installed__elsewhere`, arguments: {} });
      expect(result.isError).toBeFalsy();
      await installedOnly.close();
    });

    it('removes a tenant’s installation, leaving the pack published; the owner’s removal takes the pack itself', async () => {
      // Somebody who neither owns nor installed it may not remove it.
      const third = await signUp(call, await adminToken(call));
      expectError(await call(`/api/v1/packs/${packId}`, { method: 'DELETE', token: third.token }), 403, 'PERMISSION_DENIED');
      expect((await call('/api/v1/packs', { token: consumer.token })).body.data.packs).toHaveLength(1);

      const removed = await call(`/api/v1/packs/${packId}`, { method: 'DELETE', token: consumer.token });
      expect(removed.status).toBe(200);
      expect(removed.body.data.message).toContain('stays published');
      expect((await call('/api/v1/packs', { token: consumer.token })).body.data.packs).toEqual([]);
      expect((await call('/api/v1/packs', { token: stranger.token })).body.data.packs).toHaveLength(1);
      expect((await run(consumer, dev.slug, 'which')).status).toBe(200);

      expect((await call(`/api/v1/packs/${packId}`, { method: 'DELETE', token: dev.token })).status).toBe(200);
      expect((await call('/api/v1/packs', { token: stranger.token })).body.data.packs).toEqual([]);
      expectError(await run(stranger, dev.slug, 'which'), 404, 'NOT_FOUND');
    });
  });
});
