import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, joinOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { packageOf } from '@svc/pack-sdk/testing';
import { uploadPackage } from './support/packs.js';

/** One pack per visibility, published and installed by an organization; each pack has one command named like it. */
const PACKS = {
  'vis-public': 'public',
  'vis-unlisted': 'unlisted',
  'vis-private': 'private',
  'vis-org-granted': 'organization',
  'vis-org-plain': 'organization',
} as const;
const ALL = Object.keys(PACKS);

/** What each viewer finds in `GET /commands` and reaches with `GET /commands/{namespace}/{name}`. */
const EXPECTED = {
  owner: { listed: ALL, reachable: ALL },
  member: { listed: ALL, reachable: ALL },
  granted: { listed: ['vis-org-granted', 'vis-public'], reachable: ['vis-org-granted', 'vis-public', 'vis-unlisted'] },
  stranger: { listed: ['vis-public'], reachable: ['vis-public', 'vis-unlisted'] },
};

describe.each(oneMode('embedded'))('command visibility matrix (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let namespace: string;
  const viewers = {} as Record<keyof typeof EXPECTED, TestUser>;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    for (const role of Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>) viewers[role] = await signUp(call, admin);
    const org = await createOrganization(call, viewers.owner);
    namespace = org.slug;
    await joinOrganization(call, viewers.owner, org.id, viewers.member);

    for (const [name, visibility] of Object.entries(PACKS)) {
      const published = await uploadPackage(fleet.url, viewers.owner.token, await packageOf({ namespace, name, visibility }));
      expect(published.status, JSON.stringify(published.body)).toBe(201);
      const installed = await call('/api/v1/packs/install', { token: viewers.owner.token, body: { name: `@${namespace}/${name}` } });
      expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    }
    // Any member of the owning organization may grant.
    const grant = await call('/api/v1/registry/grants', {
      token: viewers.member.token,
      body: { pack_namespace: namespace, pack_name: 'vis-org-granted', grantee_tenant_id: viewers.granted.tenantId },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect(grant.body.data).toEqual({ granted: true, timestamp: expect.any(String) });
  });
  afterAll(() => fleet?.stop());

  it.each(Object.entries(EXPECTED))('lists for the %s exactly the packs it may see, and shows their details only', async (role, expected) => {
    const token = viewers[role as keyof typeof EXPECTED].token;
    const listed = await call(`/api/v1/commands?namespace=${namespace}`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.commands.map((c: { name: string }) => c.name)).toEqual([...expected.listed].sort());
    expect(listed.body.data.total).toBe(expected.listed.length);

    const details = await Promise.all(ALL.map(async (name) => [name, (await call(`/api/v1/commands/${namespace}/${name}`, { token })).status]));
    expect(Object.fromEntries(details)).toEqual(Object.fromEntries(ALL.map((name) => [name, expected.reachable.includes(name) ? 200 : 404])));
  });

  it('lets only the owners manage grants, and a revoked grant closes the pack again', async () => {
    const body = { pack_namespace: namespace, pack_name: 'vis-org-granted', grantee_tenant_id: viewers.stranger.tenantId };
    expect((await call('/api/v1/registry/grants', { token: viewers.stranger.token, body })).status).toBe(404);
    expect((await call('/api/v1/registry/grants', { token: viewers.granted.token, body })).status).toBe(403);

    const revoke = { ...body, grantee_tenant_id: viewers.granted.tenantId };
    expect((await call('/api/v1/registry/grants', { method: 'DELETE', token: viewers.owner.token, body: revoke })).status).toBe(200);
    expect((await call(`/api/v1/commands/${namespace}/vis-org-granted`, { token: viewers.granted.token })).status).toBe(404);
  });
});
