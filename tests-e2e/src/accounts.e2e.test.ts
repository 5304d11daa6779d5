import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, expectError, joinOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

describe.each(oneMode('embedded'))('accounts (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let admin: string;
  const user = () => signUp(call, admin);

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    admin = await adminToken(call);
  });
  afterAll(() => fleet?.stop());

  describe('the role model', () => {
    it('keeps platform roles apart from tenant roles: the operator is owner, everybody else a member who owns their own tenant', async () => {
      const operator = await call('/api/v1/auth/me', { token: admin });
      expect(operator.body.data.role).toBe('owner');
      const ada = await user();
      expect((await call('/api/v1/auth/me', { token: ada.token })).body.data.role).toBe('member');
      // Ada owns the organization she creates, and that opens nothing of the platform's.
      const org = await createOrganization(call, ada);
      expect((await call('/api/v1/account/mode', { token: ada.token })).body.data.organization.role).toBe('owner');
      const refused = await call('/api/v1/access-codes', { token: ada.token });
      expectError(refused, 403, 'PERMISSION_DENIED');
      expect(refused.body.error.details.reason).toBe('platform_admin_required');
      const bob = await user();
      await joinOrganization(call, ada, org.id, bob, 'admin');
      expect((await call(`/api/v1/organizations/${org.id}/members`, { token: ada.token })).body.data.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'owner']);
      expectError(await call('/api/v1/access-codes', { token: bob.token }), 403, 'PERMISSION_DENIED');
    });

    it('lets the owner appoint an admin, who may then reach the admin areas but appoint nobody, and make them a member again', async () => {
      const [carol, dave] = [await user(), await user()];
      const appointed = await call(`/api/v1/users/${carol.id}/role`, { method: 'PUT', token: admin, body: { role: 'admin' } });
      expect(appointed.status, JSON.stringify(appointed.body)).toBe(200);
      expect(appointed.body.data).toMatchObject({ id: carol.id, role: 'admin' });
      await expect.poll(async () => (await call('/api/v1/access-codes', { token: carol.token })).status, { timeout: 5000 }).toBe(200);
      expect((await call('/api/v1/auth/me', { token: carol.token })).body.data.role).toBe('admin');

      // An admin appoints nobody; nobody changes the owner's role; nobody becomes owner here.
      const byAdmin = await call(`/api/v1/users/${dave.id}/role`, { method: 'PUT', token: carol.token, body: { role: 'admin' } });
      expectError(byAdmin, 403, 'PERMISSION_DENIED');
      expect(byAdmin.body.error.details.reason).toBe('platform_owner_required');
      expectError(await call(`/api/v1/users/${dave.id}/role`, { method: 'PUT', token: dave.token, body: { role: 'admin' } }), 403, 'PERMISSION_DENIED');
      const operatorId = (await call('/api/v1/auth/me', { token: admin })).body.data.id;
      expectError(await call(`/api/v1/users/${operatorId}/role`, { method: 'PUT', token: admin, body: { role: 'member' } }), 409, 'CONFLICT');
      expectError(await call(`/api/v1/users/${dave.id}/role`, { method: 'PUT', token: admin, body: { role: 'owner' } }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/users/not-a-uuid/role', { method: 'PUT', token: admin, body: { role: 'admin' } }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/users/00000000-0000-4000-8000-000000000000/role', { method: 'PUT', token: admin, body: { role: 'admin' } }), 404, 'NOT_FOUND');

      expect((await call(`/api/v1/users/${carol.id}/role`, { method: 'PUT', token: admin, body: { role: 'member' } })).body.data.role).toBe('member');
      await expect.poll(async () => (await call('/api/v1/access-codes', { token: carol.token })).status, { timeout: 5000 }).toBe(403);
    });
  });

  describe('developer mode', () => {
    it('starts in consumer mode and switches to developer mode by creating an organization', async () => {
      const ada = await user();
      const before = await call('/api/v1/account/mode', { token: ada.token });
      expect(before.body.data).toEqual({ account_mode: 'consumer', developer_mode_available: true });

      const enabled = await call('/api/v1/account/developer-mode', { token: ada.token, body: { organization: { name: 'Acme', slug: `acme-${mode}` } } });
      expect(enabled.status).toBe(200);
      expect(enabled.body.data.user).toEqual({ id: ada.id, email: ada.email, mode: 'developer' });
      expect(enabled.body.data.organization).toMatchObject({ name: 'Acme', slug: `acme-${mode}`, scope: `@acme-${mode}` });
      expect(typeof enabled.body.data.message).toBe('string');

      const after = await call('/api/v1/account/mode', { token: ada.token });
      expect(after.body.data).toEqual({ account_mode: 'developer', organization: { ...enabled.body.data.organization, role: 'owner' } });
      const me = await call('/api/v1/auth/me', { token: ada.token });
      expect(me.body.data.developerMode).toBe(true);
    });

    it.each([
      ['a personal slug in use', (u: TestUser) => u.slug, 400, 'SLUG_TAKEN'],
      ['a malformed slug', () => '-bad-', 400, 'SLUG_INVALID'],
      ['a one-character slug', () => 'x', 400, 'SLUG_INVALID'],
      ['a reserved slug', () => 'system', 400, 'SLUG_RESERVED'],
    ])('refuses %s for a new organization', async (_label, slugOf, status, code) => {
      const bob = await user();
      const reply = await call('/api/v1/account/developer-mode', { token: bob.token, body: { organization: { name: 'Bad', slug: slugOf(bob) } } });
      expectError(reply, status, code);
      expect((await call('/api/v1/account/mode', { token: bob.token })).body.data.account_mode).toBe('consumer');
    });

    it('refuses an organization slug that another organization has', async () => {
      const [a, b] = [await user(), await user()];
      const org = await createOrganization(call, a);
      expectError(await call('/api/v1/account/developer-mode', { token: b.token, body: { organization: { name: 'Copy', slug: org.slug } } }), 400, 'SLUG_TAKEN');
    });

    it('joins an organization with an invite addressed to the caller, once', async () => {
      const [owner, invitee, stranger] = [await user(), await user(), await user()];
      const org = await createOrganization(call, owner);
      const invite = await call(`/api/v1/organizations/${org.id}/invite`, { token: owner.token, body: { email: invitee.email, role: 'admin' } });
      expect(invite.status).toBe(201);
      expect(invite.body.data.invite).toMatchObject({ email: invitee.email, role: 'admin' });
      expect(Date.parse(invite.body.data.invite.expiresAt)).toBeGreaterThan(Date.now());
      const code = invite.body.data.invite.id;

      expectError(await call('/api/v1/account/developer-mode', { token: stranger.token, body: { access_code: code } }), 404, 'INVITE_NOT_FOUND');
      const joined = await call('/api/v1/account/developer-mode', { token: invitee.token, body: { access_code: code } });
      expect(joined.status).toBe(200);
      expect(joined.body.data.organization.id).toBe(org.id);
      expect((await call('/api/v1/account/mode', { token: invitee.token })).body.data.organization.role).toBe('admin');
      expectError(await call('/api/v1/account/developer-mode', { token: invitee.token, body: { access_code: code } }), 404, 'INVITE_NOT_FOUND');
    });

    it('keeps the existing role when an organization is joined a second time', async () => {
      const [owner, member] = [await user(), await user()];
      const org = await createOrganization(call, owner);
      await joinOrganization(call, owner, org.id, member, 'admin');
      await joinOrganization(call, owner, org.id, member, 'member');
      const members = await call(`/api/v1/organizations/${org.id}/members`, { token: owner.token });
      expect(members.body.data.filter((m: { user_id: string }) => m.user_id === member.id)).toEqual([expect.objectContaining({ role: 'admin' })]);
    });

    it('answers INVITE_NOT_FOUND for unknown and malformed invite ids', async () => {
      const bob = await user();
      expectError(await call('/api/v1/account/developer-mode', { token: bob.token, body: { access_code: '00000000-0000-4000-8000-000000000000' } }), 404, 'INVITE_NOT_FOUND');
      expectError(await call('/api/v1/account/developer-mode', { token: bob.token, body: { access_code: 'SVC-AAAA-BBBB' } }), 404, 'INVITE_NOT_FOUND');
      expectError(await call('/api/v1/account/developer-mode', { token: bob.token, body: {} }), 400, 'VALIDATION_FAILED');
    });
  });

  describe('organizations', () => {
    it('creates organizations in developer mode only', async () => {
      const consumer = await user();
      expectError(await call('/api/v1/organizations', { token: consumer.token, body: { name: 'No', slug: `no-${consumer.slug}` } }), 403, 'PERMISSION_DENIED');
      const dev = await user();
      await createOrganization(call, dev);
      const second = await call('/api/v1/organizations', { token: dev.token, body: { name: 'Second', slug: `second-${dev.slug}` } });
      expect(second.status).toBe(201);
      expect(second.body.data.organization).toMatchObject({ name: 'Second', slug: `second-${dev.slug}`, scope: `@second-${dev.slug}` });
      expect(typeof second.body.data.organization.createdAt).toBe('string');
    });

    it('shows an organization with its counts to members only', async () => {
      const [owner, member, stranger] = [await user(), await user(), await user()];
      const org = await createOrganization(call, owner);
      await joinOrganization(call, owner, org.id, member);
      const detail = await call(`/api/v1/organizations/${org.id}`, { token: member.token });
      expect(detail.body.data.organization).toMatchObject({ id: org.id, slug: org.slug, scope: `@${org.slug}`, members_count: 2, packs_count: 0 });
      expectError(await call(`/api/v1/organizations/${org.id}`, { token: stranger.token }), 404, 'NOT_FOUND');
      expectError(await call(`/api/v1/organizations/${org.id}/members`, { token: stranger.token }), 404, 'NOT_FOUND');
      expectError(await call('/api/v1/organizations/not-a-uuid', { token: owner.token }), 404, 'NOT_FOUND');

      const members = await call(`/api/v1/organizations/${org.id}/members`, { token: member.token });
      expect(members.body.data).toEqual([
        { id: expect.any(String), user_id: owner.id, email: owner.email, role: 'owner', joined_at: expect.any(String) },
        { id: expect.any(String), user_id: member.id, email: member.email, role: 'member', joined_at: expect.any(String) },
      ]);
    });

    it('keeps members of organization A out of organization B', async () => {
      const [ownerA, memberA, ownerB] = [await user(), await user(), await user()];
      const orgA = await createOrganization(call, ownerA);
      const orgB = await createOrganization(call, ownerB);
      await joinOrganization(call, ownerA, orgA.id, memberA, 'admin');
      expectError(await call(`/api/v1/organizations/${orgB.id}`, { token: memberA.token }), 404, 'NOT_FOUND');
      expectError(await call(`/api/v1/organizations/${orgB.id}/invite`, { token: memberA.token, body: { email: memberA.email, role: 'member' } }), 404, 'NOT_FOUND');
      expectError(await call(`/api/v1/organizations/${orgB.id}/members/${ownerB.id}`, { method: 'DELETE', token: memberA.token }), 404, 'NOT_FOUND');
      expect((await call(`/api/v1/organizations/${orgB.id}/members`, { token: ownerB.token })).body.data).toHaveLength(1);
    });

    it('lets only owners and admins invite, with a valid e-mail and role', async () => {
      const [owner, member] = [await user(), await user()];
      const org = await createOrganization(call, owner);
      await joinOrganization(call, owner, org.id, member);
      expectError(await call(`/api/v1/organizations/${org.id}/invite`, { token: member.token, body: { email: 'x@example.test', role: 'member' } }), 403, 'PERMISSION_DENIED');
      expectError(await call(`/api/v1/organizations/${org.id}/invite`, { token: owner.token, body: { email: 'nope', role: 'member' } }), 400, 'VALIDATION_FAILED');
      expectError(await call(`/api/v1/organizations/${org.id}/invite`, { token: owner.token, body: { email: 'x@example.test', role: 'owner' } }), 400, 'VALIDATION_FAILED');
    });

    it('enforces who may remove whom, and keeps the last owner', async () => {
      const [owner, admin1, member1, member2] = [await user(), await user(), await user(), await user()];
      const org = await createOrganization(call, owner);
      await joinOrganization(call, owner, org.id, admin1, 'admin');
      await joinOrganization(call, owner, org.id, member1);
      await joinOrganization(call, owner, org.id, member2);
      const remove = (by: TestUser, target: TestUser) => call(`/api/v1/organizations/${org.id}/members/${target.id}`, { method: 'DELETE', token: by.token });

      expectError(await remove(member1, member2), 403, 'PERMISSION_DENIED');
      expectError(await remove(admin1, owner), 403, 'PERMISSION_DENIED');
      expectError(await remove(owner, owner), 409, 'LAST_OWNER');
      expect((await remove(member2, member2)).status).toBe(200);
      expect((await remove(admin1, member1)).status).toBe(200);
      expect((await remove(owner, admin1)).status).toBe(200);
      expectError(await remove(owner, member1), 404, 'NOT_FOUND');
      const members = await call(`/api/v1/organizations/${org.id}/members`, { token: owner.token });
      expect(members.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([owner.id]);
      // A removed member loses access at once.
      expectError(await call(`/api/v1/organizations/${org.id}`, { token: member1.token }), 404, 'NOT_FOUND');
    });
  });

  describe('API keys', () => {
    const keyBody = { name: 'ci', scopes: ['commands:execute'] };

    it('creates a key shown once, lists it without its secret, and revokes it softly', async () => {
      const ada = await user();
      const created = await call('/api/v1/account/api-keys', { token: ada.token, body: keyBody });
      expect(created.status).toBe(201);
      expect(created.body.data.key).toMatch(/^sk-svc-[0-9a-f]{64}$/);
      expect(created.body.data.key.startsWith(created.body.data.key_prefix)).toBe(true);
      expect(created.body.data).toMatchObject({ name: 'ci', scopes: ['commands:execute'] });

      const list = await call('/api/v1/account/api-keys', { token: ada.token });
      expect(list.body.data).toEqual([
        { id: created.body.data.id, name: 'ci', key_prefix: created.body.data.key_prefix, scopes: ['commands:execute'], last_used_at: null, revoked_at: null, created_at: expect.any(String) },
      ]);
      expect(JSON.stringify(list.body)).not.toContain(created.body.data.key.slice(20));

      const revoked = await call(`/api/v1/account/api-keys/${created.body.data.id}`, { method: 'DELETE', token: ada.token });
      expect(revoked.status).toBe(200);
      const after = await call('/api/v1/account/api-keys', { token: ada.token });
      expect(after.body.data).toHaveLength(1);
      expect(after.body.data[0].revoked_at).not.toBeNull();
    });

    it('holds the limit of 50 live keys against concurrent requests', async () => {
      const ada = await user();
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => call('/api/v1/account/api-keys', { token: ada.token, body: { ...keyBody, name: `k${i}` } })));
      expect(replies.filter((r) => r.status === 201)).toHaveLength(50);
      for (const refused of replies.filter((r) => r.status !== 201)) expectError(refused, 409, 'API_KEY_LIMIT');
      expect((await call('/api/v1/account/api-keys', { token: ada.token })).body.data).toHaveLength(50);
    });

    it('accepts exactly the commands:execute scope', async () => {
      const ada = await user();
      for (const scopes of [[], ['admin'], ['commands:execute', 'admin'], 'commands:execute']) {
        expectError(await call('/api/v1/account/api-keys', { token: ada.token, body: { name: 'x', scopes } }), 400, 'VALIDATION_FAILED');
      }
      expectError(await call('/api/v1/account/api-keys', { token: ada.token, body: { name: 'x' } }), 400, 'VALIDATION_FAILED');
      expectError(await call('/api/v1/account/api-keys', { token: ada.token, body: { name: '', scopes: ['commands:execute'] } }), 400, 'VALIDATION_FAILED');
    });

    it('lets a key manage no keys, and refuses keys where only access tokens are accepted', async () => {
      const ada = await user();
      const key = (await call('/api/v1/account/api-keys', { token: ada.token, body: keyBody })).body.data;
      expectError(await call('/api/v1/account/api-keys', { token: key.key, body: keyBody }), 403, 'PERMISSION_DENIED');
      expectError(await call('/api/v1/account/api-keys', { token: key.key }), 403, 'PERMISSION_DENIED');
      expectError(await call(`/api/v1/account/api-keys/${key.id}`, { method: 'DELETE', token: key.key }), 403, 'PERMISSION_DENIED');
      expectError(await call('/api/v1/auth/me', { token: key.key }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/account/mode', { token: key.key }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/organizations', { token: key.key, body: { name: 'x', slug: 'xyz-abc' } }), 401, 'AUTHENTICATION_FAILED');
    });

    it('rejects a revoked key on its next call, and keys with a forged prefix or one changed digit', async () => {
      const ada = await user();
      const key = (await call('/api/v1/account/api-keys', { token: ada.token, body: keyBody })).body.data;
      // A live key authenticates (and is then refused key management: 403, not 401).
      expectError(await call('/api/v1/account/api-keys', { token: key.key }), 403, 'PERMISSION_DENIED');
      const last = key.key.at(-1) === '0' ? '1' : '0';
      const forgedPrefix = `sk-svx-${key.key.slice(7)}`;
      for (const bad of [`${key.key.slice(0, -1)}${last}`, forgedPrefix, key.key.toUpperCase().replace('SK-SVC-', 'sk-svc-'), `${key.key}0`]) {
        expectError(await call('/api/v1/account/api-keys', { token: bad }), 401, 'AUTHENTICATION_FAILED');
      }
      expect((await call('/api/v1/commands', { token: key.key })).status).toBe(200);
      await call(`/api/v1/account/api-keys/${key.id}`, { method: 'DELETE', token: ada.token });
      expectError(await call('/api/v1/commands', { token: key.key }), 401, 'AUTHENTICATION_FAILED');
      expectError(await call('/api/v1/account/api-keys', { token: key.key }), 401, 'AUTHENTICATION_FAILED');
    });

    it('keeps each user to their own keys', async () => {
      const [ada, bob] = [await user(), await user()];
      const adaKey = (await call('/api/v1/account/api-keys', { token: ada.token, body: keyBody })).body.data;
      expect((await call('/api/v1/account/api-keys', { token: bob.token })).body.data).toEqual([]);
      expectError(await call(`/api/v1/account/api-keys/${adaKey.id}`, { method: 'DELETE', token: bob.token }), 404, 'NOT_FOUND');
      expectError(await call('/api/v1/account/api-keys/not-a-uuid', { method: 'DELETE', token: bob.token }), 404, 'NOT_FOUND');
      expectError(await call('/api/v1/account/api-keys', { token: adaKey.key }), 403, 'PERMISSION_DENIED');
    });

    it('records when a key was last used', async () => {
      const ada = await user();
      const key = (await call('/api/v1/account/api-keys', { token: ada.token, body: keyBody })).body.data;
      await call('/api/v1/account/api-keys', { token: key.key });
      let lastUsed: string | null = null;
      for (let i = 0; i < 50 && !lastUsed; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        lastUsed = (await call('/api/v1/account/api-keys', { token: ada.token })).body.data[0].last_used_at;
      }
      expect(lastUsed).not.toBeNull();
    });
  });

  describe('namespace check', () => {
    it('answers the three outcomes', async () => {
      const [ada, bob] = [await user(), await user()];
      const org = await createOrganization(call, ada);
      const check = (token: string, ns: string) => call(`/api/v1/namespaces/${ns}/check`, { token });
      expect((await check(ada.token, ada.slug)).body.data).toMatchObject({ available: true, owner: 'personal' });
      expect((await check(ada.token, org.slug)).body.data).toMatchObject({ available: true, owner: 'organization' });
      const taken = (await check(bob.token, org.slug)).body.data;
      expect(taken.available).toBe(false);
      expect(taken.error).toMatch(/in use/);
      const free = (await check(bob.token, `nobody-${bob.slug}`)).body.data;
      expect(free.available).toBe(false);
      expect(free.error).toMatch(/create an organization/);
      for (const reserved of ['admin', 'svc-tools']) {
        const refused = (await check(bob.token, reserved)).body.data;
        expect(refused).toMatchObject({ namespace: reserved, available: false });
        expect(refused.error).toMatch(/reserved/);
      }
      expectError(await check(bob.token, 'Bad_Name'), 400, 'SLUG_INVALID');
    });
  });
});
