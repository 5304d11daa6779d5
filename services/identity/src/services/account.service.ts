import type { z } from 'zod';
import type { DeveloperModeBody } from '@svc/contracts';
import { NotFoundError } from '@svc/core';
import type { EventOutbox } from '@svc/bus';
import type { Db } from '@svc/db';
import { OrganizationRepository, type OrganizationRow } from '../repositories/organization.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { organizationView, type OrganizationService } from './organization.service.js';
import type { PrincipalService } from './principal.service.js';

/**
 * Consumer and developer mode. Developer mode is switched on by creating an organization or
 * by joining one with an invite, and stays on for the user from then on.
 */
export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly organizations: OrganizationService,
    private readonly principals: PrincipalService,
    private readonly events: EventOutbox,
  ) {}

  async mode(userId: string) {
    const user = await new UserRepository(this.db).findById(userId);
    if (!user) throw new NotFoundError('User not found');
    const [primary] = await new OrganizationRepository(this.db).membershipsOf(userId);
    if (!user.developerMode || !primary) return { account_mode: 'consumer' as const, developer_mode_available: true };
    const { createdAt: _created, ...organization } = organizationView(primary.organization);
    return { account_mode: 'developer' as const, organization: { ...organization, role: primary.role } };
  }

  /** Every organization the user belongs to, with their role there, in the order they joined. */
  async organizationsOf(userId: string) {
    const memberships = await new OrganizationRepository(this.db).membershipsOf(userId);
    const organizations = memberships.map(({ organization, role, joinedAt }) => {
      const { createdAt: _created, ...view } = organizationView(organization);
      return { ...view, role, joined_at: joinedAt.toISOString() };
    });
    return { organizations };
  }

  async enableDeveloperMode(userId: string, body: z.infer<typeof DeveloperModeBody>) {
    const user = await new UserRepository(this.db).findById(userId);
    if (!user) throw new NotFoundError('User not found');
    const org: OrganizationRow = await this.events.transaction(async (tx, out) => {
      const joined = 'organization' in body ? await this.organizations.create(user.id, body.organization, tx) : await this.organizations.acceptInvite(user, body.access_code, tx);
      await new UserRepository(tx).update(user.id, { developerMode: true });
      if (!user.developerMode) out.publish('user.developer-mode.enabled', { user_id: user.id, organization_id: joined.id });
      return joined;
    });
    await this.principals.forgetUser(user.id);
    const { createdAt: _created, ...organization } = organizationView(org);
    const message = 'organization' in body ? `Developer mode enabled; organization @${org.slug} created` : `Developer mode enabled; joined @${org.slug}`;
    return { user: { id: user.id, email: user.email, mode: 'developer' as const }, organization, message };
  }
}
