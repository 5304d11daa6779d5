import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantIdsOf } from '@svc/auth';
import { FETCH_PACKAGE_RPC, FetchedPackage, LIST_COMMANDS_RPC, RESOLVE_COMMAND_RPC, ResolvedCommand } from '@svc/contracts';
import { inspectPackage } from '@svc/pack-sdk';
import { person, startRegistry, type RegistryHarness } from '../testing/harness.js';
import { packageOf } from '@svc/pack-sdk/testing';

describe('registry RPCs for execution', () => {
  let h: RegistryHarness;
  const ada = person('ada');
  const stranger = person('sam');
  let tarball: Buffer;
  let packId: string;

  beforeAll(async () => {
    h = await startRegistry();
    tarball = await packageOf({
      namespace: 'ada',
      name: 'text-tools',
      version: '1.2.0',
      visibility: 'private',
      commands: [{ name: 'echo', timeout: 120, retries: 1, input_schema: { type: 'object', required: ['text'] } }],
    });
    const published = await h.http(ada).post('/api/v1/registry/packs').attach('package', tarball, 'p.tar.gz');
    packId = published.body.data.pack.id;
    expect((await h.http(ada).post('/api/v1/packs/install').send({ name: '@ada/text-tools' })).status).toBe(200);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('resolves a command to everything a worker needs, then hands over its package', async () => {
    const resolved = ResolvedCommand.parse(await h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', name: 'echo', tenant_ids: tenantIdsOf(ada) }));
    expect(resolved).toEqual({
      namespace: 'ada',
      name: 'echo',
      description: 'The echo command',
      entry: 'commands/echo.js',
      input_schema: { type: 'object', required: ['text'] },
      output_schema: null,
      timeout: 120,
      retries: 1,
      queue: 'medium',
      pack: { id: packId, namespace: 'ada', name: 'text-tools', version: '1.2.0', version_id: expect.any(String), owner_tenant_id: ada.tenantId, visibility: 'private' },
      package: { sha256: createHash('sha256').update(tarball).digest('hex'), size_bytes: tarball.length },
    });

    const fetched = FetchedPackage.parse(await h.bus.request(FETCH_PACKAGE_RPC, { version_id: resolved.pack.version_id }));
    const bytes = Buffer.from(fetched.tarball_base64, 'base64');
    expect(bytes.equals(tarball)).toBe(true);
    expect(fetched.sha256).toBe(resolved.package.sha256);
    expect((await inspectPackage(bytes)).files.has(resolved.entry)).toBe(true);
  });

  it('checks the pack when the caller named one (MCP tool names carry it)', async () => {
    const tenant_ids = tenantIdsOf(ada);
    await expect(h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', pack: 'text-tools', name: 'echo', tenant_ids })).resolves.toMatchObject({ name: 'echo' });
    await expect(h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', pack: 'other', name: 'echo', tenant_ids })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('does not resolve a private command for a stranger', async () => {
    await expect(h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', name: 'echo', tenant_ids: tenantIdsOf(stranger) })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('lists the commands of the caller, as GET /commands does', async () => {
    const mine = await h.bus.request(LIST_COMMANDS_RPC, { tenant_ids: tenantIdsOf(ada) });
    expect(mine.commands.map((c) => c.name)).toEqual(['echo']);
    expect(await h.bus.request(LIST_COMMANDS_RPC, { tenant_ids: tenantIdsOf(stranger), limit: 5 })).toEqual({ commands: [], total: 0, page: 1, pages: 0 });
  });

  it('answers NOT_FOUND for an unknown version and VALIDATION_FAILED for a malformed question', async () => {
    await expect(h.bus.request(FETCH_PACKAGE_RPC, { version_id: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(h.bus.request(FETCH_PACKAGE_RPC, { version_id: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // Malformed on purpose: the contract's type would not let it be sent.
    await expect(h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', name: 'echo' } as never)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('stops resolving an uninstalled pack at once', async () => {
    expect((await h.http(ada).delete(`/api/v1/packs/${packId}`)).status).toBe(200);
    await expect(h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'ada', name: 'echo', tenant_ids: tenantIdsOf(ada) })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
