import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantIdsOf, type Identity } from '@svc/auth';
import { RESOLVE_COMMAND_RPC } from '@svc/contracts';
import { org, person, startRegistry, type RegistryHarness } from '../testing/harness.js';
import { packageOf } from '@svc/pack-sdk/testing';

/**
 * Who sees which command: packs of every visibility published by an organization, looked at
 * by one of its owners, another member, a tenant it granted access to (through an organization
 * of theirs) and a stranger, in the list, the detail view and execution's resolve RPC.
 */
describe('command visibility', () => {
  let h: RegistryHarness;
  const acme = org('acme');
  const globex = org('globex');
  const viewers: Record<string, Identity> = {
    owner: person('ada', { orgs: [acme] }),
    member: person('alan', { orgs: [acme] }),
    granted: person('gina', { orgs: [globex] }),
    stranger: person('sam'),
  };
  const packs = ['vis-public', 'vis-unlisted', 'vis-private', 'vis-org-granted', 'vis-org-plain'];
  const visibilityOf: Record<string, string> = {
    'vis-public': 'public',
    'vis-unlisted': 'unlisted',
    'vis-private': 'private',
    'vis-org-granted': 'organization',
    'vis-org-plain': 'organization',
  };

  beforeAll(async () => {
    h = await startRegistry();
    const owner = viewers.owner!;
    for (const name of packs) {
      const reply = await h.http(owner).post('/api/v1/registry/packs').attach('package', await packageOf({ namespace: 'acme', name, visibility: visibilityOf[name] }), 'p.tar.gz');
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect((await h.http(owner).post('/api/v1/packs/install').send({ name: `@acme/${name}` })).status).toBe(200);
    }
    const grant = await h.http(owner).post('/api/v1/registry/grants').send({ pack_namespace: 'acme', pack_name: 'vis-org-granted', grantee_tenant_id: globex.tenantId });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const listed = {
    owner: packs,
    member: packs,
    granted: ['vis-org-granted', 'vis-public'],
    stranger: ['vis-public'],
  };
  const reachable = {
    owner: packs,
    member: packs,
    granted: ['vis-org-granted', 'vis-public', 'vis-unlisted'],
    stranger: ['vis-public', 'vis-unlisted'],
  };

  it.each(Object.entries(listed))('lists for the %s exactly %j', async (viewer, expected) => {
    const reply = await h.http(viewers[viewer]).get('/api/v1/commands?namespace=acme');
    expect(reply.status).toBe(200);
    expect(reply.body.data.commands.map((c: { name: string }) => c.name)).toEqual([...expected].sort());
    expect(reply.body.data.total).toBe(expected.length);
  });

  it.each(Object.entries(reachable))('shows the %s the detail of exactly %j, and 404 for the rest', async (viewer, expected) => {
    for (const name of packs) {
      const reply = await h.http(viewers[viewer]).get(`/api/v1/commands/acme/${name}`);
      expect([name, reply.status]).toEqual([name, expected.includes(name) ? 200 : 404]);
    }
  });

  it.each(Object.entries(reachable))('resolves for execution, on behalf of the %s, exactly %j', async (viewer, expected) => {
    const tenant_ids = tenantIdsOf(viewers[viewer]!);
    for (const name of packs) {
      const outcome = await h.bus.request(RESOLVE_COMMAND_RPC, { namespace: 'acme', name, tenant_ids }).then(
        () => 'found',
        (err: { code?: string }) => err.code,
      );
      expect([name, outcome]).toEqual([name, expected.includes(name) ? 'found' : 'NOT_FOUND']);
    }
  });

  it('hides an organization pack again once its grant is revoked', async () => {
    const body = { pack_namespace: 'acme', pack_name: 'vis-org-granted', grantee_tenant_id: globex.tenantId };
    expect((await h.http(viewers.owner).delete('/api/v1/registry/grants').send(body)).status).toBe(200);
    expect((await h.http(viewers.granted).get('/api/v1/commands/acme/vis-org-granted')).status).toBe(404);
    expect((await h.http(viewers.owner).post('/api/v1/registry/grants').send(body)).status).toBe(200);
    expect((await h.http(viewers.granted).get('/api/v1/commands/acme/vis-org-granted')).status).toBe(200);
  });
});
