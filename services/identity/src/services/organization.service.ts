import type { Identity } from '@svc/auth';
import type { EventOutbox } from '@svc/bus';
import { ConflictError, isUuid, NotFoundError, PermissionError } from '@svc/core';
import { violatedUniqueConstraint, type Db } from '@svc/db';
import { InviteRepository } from '../repositories/invite.repository.js';
import { OrganizationRepository, type MemberRole, type OrganizationRow } from '../repositories/organization.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { queueEmail } from '../mail/queue-email.js';
import type { PrincipalService } from './principal.service.js';
import { assertSlugAllowed, slugTaken } from './slug.js';

/** An invitation is valid for a week. */
export const INVITE_TTL_DAYS = 7;

export function organizationView(org: OrganizationRow) {
  return { id: org.id, name: org.name, slug: org.slug, scope: `@${org.slug}`, createdAt: org.createdAt.toISOString() };
}

const inviteNotFound = () => NotFoundError.coded('INVITE_NOT_FOUND', 'Invite not found or expired');

/**
 * Organizations, their members and invites. Non-members are told an organization does not
 * exist, so ids cannot be probed.
 */
export class OrganizationService {
  constructor(
    private readonly db: Db,
    private readonly principals: PrincipalService,
    private readonly events: EventOutbox,
  ) {}

  /** Creates an organization with `ownerId` as its owner; the slug must be free across all tenants. */
  async create(ownerId: string, input: { name: string; slug: string }, db: Db = this.db): Promise<OrganizationRow> {
    assertSlugAllowed(input.slug);
    const users = new UserRepository(db);
    if (await users.slugExists(input.slug)) throw slugTaken(input.slug);
    try {
      return await new OrganizationRepository(db).create({ ...input, ownerId });
    } catch (err) {
      if (violatedUniqueConstraint(err) !== undefined) throw slugTaken(input.slug);
      throw err;
    }
  }

  /** Joins the organization of an invite addressed to the user; joining again keeps the existing role. */
  async acceptInvite(user: { id: string; email: string }, inviteId: string, db: Db = this.db): Promise<OrganizationRow> {
    if (!isUuid(inviteId)) throw inviteNotFound();
    const invite = await new InviteRepository(db).accept(inviteId, user.email, user.id);
    if (!invite) throw inviteNotFound();
    const orgs = new OrganizationRepository(db);
    await orgs.addMember(invite.organizationId, user.id, invite.role);
    const org = await orgs.findById(invite.organizationId);
    if (!org) throw inviteNotFound();
    return org;
  }

  async detail(caller: Identity, orgId: string) {
    const orgs = new OrganizationRepository(this.db);
    const org = await this.visible(orgs, caller, orgId);
    const [membersCount, packsCount] = await Promise.all([orgs.countMembers(org.id), orgs.countPacks(org.id)]);
    return { ...organizationView(org), members_count: membersCount, packs_count: packsCount };
  }

  async members(caller: Identity, orgId: string) {
    const orgs = new OrganizationRepository(this.db);
    const org = await this.visible(orgs, caller, orgId);
    return (await orgs.members(org.id)).map((m) => ({ id: m.id, user_id: m.userId, email: m.email, role: m.role, joined_at: m.joinedAt.toISOString() }));
  }

  async invite(caller: Identity, orgId: string, input: { email: string; role: 'admin' | 'member' }) {
    const orgs = new OrganizationRepository(this.db);
    const org = await this.visible(orgs, caller, orgId);
    const role = await orgs.roleOf(org.id, caller.userId);
    if (role !== 'owner' && role !== 'admin') throw new PermissionError('Only owners and admins may invite members');
    const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 86_400_000);
    const invite = await this.events.transaction(async (tx, out) => {
      const created = await new InviteRepository(tx).create({ organizationId: org.id, email: input.email, role: input.role, invitedBy: caller.userId, expiresAt });
      queueEmail(out, input.email, 'organization-invite', { organization: org.name, scope: `@${org.slug}`, invite_id: created.id, role: input.role, expires_at: expiresAt.toISOString() });
      return created;
    });
    return { id: invite.id, email: invite.email, role: invite.role, expiresAt: invite.expiresAt.toISOString() };
  }

  /**
   * Owners and admins remove members; anybody may remove themself. Only an owner removes an
   * owner, and the last owner stays.
   */
  async removeMember(caller: Identity, orgId: string, userId: string): Promise<void> {
    const orgs = new OrganizationRepository(this.db);
    const org = await this.visible(orgs, caller, orgId);
    const callerRole = (await orgs.roleOf(org.id, caller.userId))!;
    const targetRole = isUuid(userId) ? await orgs.roleOf(org.id, userId) : undefined;
    if (!targetRole) throw new NotFoundError('Member not found', { user_id: userId });
    const self = userId === caller.userId;
    if (!self && !canRemove(callerRole, targetRole)) throw new PermissionError(`A ${callerRole} may not remove a ${targetRole}`);
    if (targetRole === 'owner' && (await orgs.countOwners(org.id)) <= 1) {
      throw ConflictError.coded('LAST_OWNER', 'The last owner of an organization cannot be removed');
    }
    await orgs.removeMember(org.id, userId);
    await this.principals.forgetUser(userId);
  }

  private async visible(orgs: OrganizationRepository, caller: Identity, orgId: string): Promise<OrganizationRow> {
    const org = isUuid(orgId) ? await orgs.findById(orgId) : undefined;
    if (!org || !(await orgs.roleOf(org.id, caller.userId))) throw new NotFoundError('Organization not found', { org_id: orgId });
    return org;
  }
}

function canRemove(caller: MemberRole, target: MemberRole): boolean {
  if (caller === 'owner') return true;
  return caller === 'admin' && target === 'member';
}
