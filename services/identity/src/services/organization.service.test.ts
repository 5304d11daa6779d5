import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, EventOutbox, type Bus } from '@svc/bus';
import { createCache, type Cache } from '@svc/cache';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { inbox, outbox } from '../db/schema.js';
import { InviteRepository } from '../repositories/invite.repository.js';
import { OrganizationRepository, type MemberRole } from '../repositories/organization.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { OrganizationService } from './organization.service.js';
import { PrincipalService } from './principal.service.js';
import { RoleService } from './role.service.js';

const log = createLogger({ service: 'organization-service-test', silent: true });

describe.each(testDatabaseKinds())("identity's rules for organizations and roles, on $name", (kind) => {
  let db: TestDatabase;
  let cache: Cache;
  let bus: Bus;
  let organizations: OrganizationService;
  let roles: RoleService;

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    cache = createCache({});
    bus = await createBus({ logger: log });
    const principals = new PrincipalService(db.database.db, cache, log, 'organization-service-test-secret-0123456789');
    // Not started: what the service queues stays in identity.outbox, where the tests read it.
    const events = new EventOutbox({ db: db.database.db, table: outbox, inbox, bus, log });
    organizations = new OrganizationService(db.database.db, principals, events);
    roles = new RoleService(db.database.db, principals);
  });

  afterAll(async () => {
    await bus?.close();
    await cache?.close();
    await db?.dispose();
  });

  /** A registered user, and the identity the gateway would sign for them. */
  async function user(): Promise<{ id: string; email: string; identity: Identity }> {
    const slug = `u-${randomUUID().slice(0, 8)}`;
    const created = await new UserRepository(db.database.db).create({ email: `${slug}@example.test`, passwordHash: 'x', slug, name: slug, tier: 'pro' });
    return { id: created.id, email: created.email, identity: personalIdentity({ userId: created.id, tenantId: created.tenant.id, slug, email: created.email }) };
  }

  /** An organization of a new owner, with a new user in each of `roles`. */
  async function organization(...memberRoles: MemberRole[]) {
    const owner = await user();
    const org = await organizations.create(owner.id, { name: 'Acme', slug: `o-${randomUUID().slice(0, 8)}` });
    const members = [];
    for (const role of memberRoles) {
      const member = await user();
      await new OrganizationRepository(db.database.db).addMember(org.id, member.id, role);
      members.push(member);
    }
    return { org, owner, members };
  }

  const roleIn = (orgId: string, userId: string) => new OrganizationRepository(db.database.db).roleOf(orgId, userId);

  describe('creating', () => {
    it('makes its creator the owner', async () => {
      const { org, owner } = await organization();
      expect(await roleIn(org.id, owner.id)).toBe('owner');
    });

    it("refuses a slug another tenant holds, a user's included", async () => {
      const someone = await user();
      const owner = await user();
      await expect(organizations.create(owner.id, { name: 'Clash', slug: someone.identity.tenantSlug })).rejects.toMatchObject({ status: 400, code: 'SLUG_TAKEN' });
    });

    it('refuses a reserved slug', async () => {
      const owner = await user();
      await expect(organizations.create(owner.id, { name: 'Admin', slug: 'admin' })).rejects.toMatchObject({ status: 400, code: 'SLUG_RESERVED' });
    });
  });

  describe('the last owner', () => {
    it('cannot leave, and cannot be removed', async () => {
      const { org, owner } = await organization();
      await expect(organizations.removeMember(owner.identity, org.id, owner.id)).rejects.toMatchObject({ status: 409, code: 'LAST_OWNER', type: 'ConflictError' });
      expect(await roleIn(org.id, owner.id)).toBe('owner');
    });

    it('may leave once another owner remains', async () => {
      const { org, owner, members } = await organization('owner');
      await organizations.removeMember(owner.identity, org.id, owner.id);
      expect(await roleIn(org.id, owner.id)).toBeUndefined();
      await expect(organizations.removeMember(members[0]!.identity, org.id, members[0]!.id)).rejects.toMatchObject({ code: 'LAST_OWNER' });
    });
  });

  describe('removing members', () => {
    it('lets an admin remove a member but not an admin or an owner', async () => {
      const { org, owner, members } = await organization('admin', 'admin', 'member');
      const [admin, otherAdmin, member] = [members[0]!, members[1]!, members[2]!];
      await expect(organizations.removeMember(admin.identity, org.id, otherAdmin.id)).rejects.toMatchObject({ status: 403 });
      await expect(organizations.removeMember(admin.identity, org.id, owner.id)).rejects.toMatchObject({ status: 403 });
      await organizations.removeMember(admin.identity, org.id, member.id);
      expect(await roleIn(org.id, member.id)).toBeUndefined();
    });

    it('lets a member leave, and remove nobody else', async () => {
      const { org, members } = await organization('member', 'member');
      const [member, other] = [members[0]!, members[1]!];
      await expect(organizations.removeMember(member.identity, org.id, other.id)).rejects.toMatchObject({ status: 403 });
      await organizations.removeMember(member.identity, org.id, member.id);
      expect(await roleIn(org.id, member.id)).toBeUndefined();
    });

    it('answers 404 for a user who is not a member, and for an organization the caller is not in', async () => {
      const { org, owner } = await organization();
      const stranger = await user();
      await expect(organizations.removeMember(owner.identity, org.id, stranger.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
      await expect(organizations.removeMember(stranger.identity, org.id, owner.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('answers 404 for a user id or organization id that cannot be an id', async () => {
      const { org, owner } = await organization();
      for (const id of ['not-an-id', '-'.repeat(36), '\u{1D6BA}c']) {
        await expect(organizations.removeMember(owner.identity, org.id, id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
        await expect(organizations.removeMember(owner.identity, id, owner.id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
      }
    });
  });

  describe('invites', () => {
    it('are sent by owners and admins, with the e-mail queued in the same transaction', async () => {
      const { org, members } = await organization('admin');
      const invitee = await user();
      const invite = await organizations.invite(members[0]!.identity, org.id, { email: invitee.email, role: 'member' });
      const queued = (await db.database.db.select().from(outbox)).filter((row) => JSON.stringify(row.payload).includes(invite.id));
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({ kind: 'event', name: 'email.requested', payload: { to: invitee.email, kind: 'organization-invite' } });
    });

    it('are refused to a plain member, and hide the organization from outsiders', async () => {
      const { org, members } = await organization('member');
      const stranger = await user();
      await expect(organizations.invite(members[0]!.identity, org.id, { email: stranger.email, role: 'member' })).rejects.toMatchObject({ status: 403 });
      await expect(organizations.invite(stranger.identity, org.id, { email: stranger.email, role: 'member' })).rejects.toMatchObject({ status: 404 });
    });

    it('make the invitee a member with the role invited, once', async () => {
      const { org, owner } = await organization();
      const invitee = await user();
      const invite = await organizations.invite(owner.identity, org.id, { email: invitee.email, role: 'admin' });
      await organizations.acceptInvite(invitee, invite.id);
      expect(await roleIn(org.id, invitee.id)).toBe('admin');
      await expect(organizations.acceptInvite(invitee, invite.id)).rejects.toMatchObject({ status: 404, code: 'INVITE_NOT_FOUND', type: 'NotFoundError' });
    });

    it('are not found by anybody else, nor once expired, nor by a malformed id', async () => {
      const { org, owner } = await organization();
      const invitee = await user();
      const other = await user();
      const invite = await organizations.invite(owner.identity, org.id, { email: invitee.email, role: 'member' });
      await expect(organizations.acceptInvite(other, invite.id)).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
      const expired = await new InviteRepository(db.database.db).create({ organizationId: org.id, email: invitee.email, role: 'member', invitedBy: owner.id, expiresAt: new Date(Date.now() - 1000) });
      await expect(organizations.acceptInvite(invitee, expired.id)).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
      await expect(organizations.acceptInvite(invitee, 'not-an-id')).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
      expect(await roleIn(org.id, other.id)).toBeUndefined();
    });

    it('keep the role of a member who joins again', async () => {
      const { org, owner, members } = await organization('admin');
      const invite = await organizations.invite(owner.identity, org.id, { email: members[0]!.email, role: 'member' });
      await organizations.acceptInvite(members[0]!, invite.id);
      expect(await roleIn(org.id, members[0]!.id)).toBe('admin');
    });
  });

  describe('platform roles', () => {
    it('are set by the platform owner only', async () => {
      const target = await user();
      const admin = await user();
      await expect(roles.setPlatformRole({ ...admin.identity, role: 'admin' }, target.id, 'admin')).rejects.toMatchObject({ status: 403 });
      const operator = await user();
      expect(await roles.setPlatformRole({ ...operator.identity, role: 'owner' }, target.id, 'admin')).toMatchObject({ role: 'admin' });
      expect((await new UserRepository(db.database.db).findById(target.id))?.role).toBe('admin');
    });

    it("leave the owner's own role to the bootstrap, and answer 404 for an unknown user", async () => {
      const operator = await user();
      await new UserRepository(db.database.db).update(operator.id, { role: 'owner' });
      const caller = { ...operator.identity, role: 'owner' as const };
      await expect(roles.setPlatformRole(caller, operator.id, 'member')).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
      await expect(roles.setPlatformRole(caller, randomUUID(), 'admin')).rejects.toMatchObject({ status: 404 });
    });
  });
});
