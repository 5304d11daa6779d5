import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '@svc/auth';
import { ephemeralQueueName } from '@svc/bus';
import { org, person, startRegistry, type RegistryHarness } from '../testing/harness.js';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';

describe('/api/v1/registry/grants', () => {
  let h: RegistryHarness;
  const acme = org('acme');
  const ada = person('ada', { orgs: [acme] });
  const alan = person('alan', { orgs: [acme] });
  const gina = person('gina');
  const sam = person('sam');
  const body = (pack_name: string, grantee_tenant_id = gina.tenantId) => ({ pack_namespace: 'acme', pack_name, grantee_tenant_id });

  async function publishAndInstall(identity: Identity, p: TestPack) {
    expect((await h.http(identity).post('/api/v1/registry/packs').attach('package', await packageOf(p), 'p.tar.gz')).status).toBe(201);
    expect((await h.http(identity).post('/api/v1/packs/install').send({ name: `@${p.namespace}/${p.name}` })).status).toBe(200);
  }

  beforeAll(async () => {
    h = await startRegistry();
    await publishAndInstall(ada, { namespace: 'acme', name: 'restricted', visibility: 'organization' });
    await publishAndInstall(ada, { namespace: 'acme', name: 'open', visibility: 'public' });
    await publishAndInstall(ada, { namespace: 'acme', name: 'secret', visibility: 'private' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("grants a tenant access to an organization pack, by any member of the owner, idempotently", async () => {
    expect((await h.http(gina).get('/api/v1/commands/acme/restricted')).status).toBe(404);
    const granted = await h.http(alan).post('/api/v1/registry/grants').send(body('restricted'));
    expect(granted.status).toBe(200);
    expect(granted.body.data).toEqual({ granted: true, timestamp: expect.any(String) });
    const again = await h.http(ada).post('/api/v1/registry/grants').send(body('restricted'));
    expect(again.body.data.timestamp).toBe(granted.body.data.timestamp);
    expect((await h.http(gina).get('/api/v1/commands/acme/restricted')).status).toBe(200);
    expect((await h.http(sam).get('/api/v1/commands/acme/restricted')).status).toBe(404);

    const revoked = await h.http(ada).delete('/api/v1/registry/grants').send(body('restricted'));
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ revoked: true, timestamp: expect.any(String) });
    expect((await h.http(gina).get('/api/v1/commands/acme/restricted')).status).toBe(404);
    expect((await h.http(ada).delete('/api/v1/registry/grants').send(body('restricted'))).body.error.code).toBe('NOT_FOUND');
  });

  it('announces each grant given or taken, so that cached answers about the pack end at once', async () => {
    const heard: { name: string; payload: unknown }[] = [];
    const subscription = await h.bus.subscribe(ephemeralQueueName('registry-test.grants'), ['pack.grant.changed'], async (message) => {
      heard.push({ name: message.name, payload: message.payload });
    }, { ephemeral: true });
    try {
      expect((await h.http(ada).post('/api/v1/registry/grants').send(body('restricted', sam.tenantId))).status).toBe(200);
      expect((await h.http(ada).delete('/api/v1/registry/grants').send(body('restricted', sam.tenantId))).status).toBe(200);
      expect((await h.http(ada).delete('/api/v1/registry/grants').send(body('restricted', sam.tenantId))).status).toBe(404);
      const change = (granted: boolean) => ({ name: 'pack.grant.changed', payload: { pack_id: expect.any(String), tenant_id: acme.tenantId, namespace: 'acme', name: 'restricted', grantee_tenant_id: sam.tenantId, granted, user_id: ada.userId } });
      await expect.poll(() => heard).toEqual([change(true), change(false)]);
    } finally {
      await subscription.cancel();
    }
  });

  it('does not open a private pack: grants count for organization visibility only', async () => {
    expect((await h.http(ada).post('/api/v1/registry/grants').send(body('secret'))).status).toBe(200);
    expect((await h.http(gina).get('/api/v1/commands/acme/secret')).status).toBe(404);
  });

  it('refuses non-owners: 403 when they can see the pack, 404 when they cannot', async () => {
    expect((await h.http(sam).post('/api/v1/registry/grants').send(body('open', sam.tenantId))).body.error.code).toBe('PERMISSION_DENIED');
    expect((await h.http(sam).post('/api/v1/registry/grants').send(body('restricted', sam.tenantId))).body.error.code).toBe('NOT_FOUND');
    expect((await h.http(sam).delete('/api/v1/registry/grants').send(body('secret'))).body.error.code).toBe('NOT_FOUND');
  });

  it('answers NOT_FOUND for an unknown pack', async () => {
    expect((await h.http(ada).post('/api/v1/registry/grants').send(body('missing'))).body.error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['a grantee that is not a tenant id', { ...body('restricted'), grantee_tenant_id: 'gina' }],
    ['a namespace with "@"', { ...body('restricted'), pack_namespace: '@acme' }],
    ['a missing pack name', { pack_namespace: 'acme', grantee_tenant_id: randomUUID() }],
  ])('refuses %s with VALIDATION_FAILED', async (_label, payload) => {
    expect((await h.http(ada).post('/api/v1/registry/grants').send(payload)).body.error.code).toBe('VALIDATION_FAILED');
  });
});
