import { describe, expect, it } from 'vitest';
import { isPlatformAdmin, tenantRoleOf, type Identity } from './identity.js';
import { personalIdentity } from './testing/identities.js';

const member = personalIdentity({ userId: 'u1', tenantId: 't1', slug: 'ada' });
const withOrg = (role: Identity['role'], orgRole: Identity['role']): Identity => ({
  ...member,
  role,
  memberships: [...member.memberships, { tenantId: 'org', slug: 'acme', kind: 'organization', role: orgRole }],
});

describe('the role model', () => {
  it('makes the platform roles admin and owner platform admins, and nobody else', () => {
    expect([isPlatformAdmin({ role: 'owner' }), isPlatformAdmin({ role: 'admin' }), isPlatformAdmin({ role: 'member' })]).toEqual([true, true, false]);
  });

  it("never makes a tenant role a platform one: an organization's owner stays a member of the platform", () => {
    const orgOwner = withOrg('member', 'owner');
    expect(tenantRoleOf(orgOwner, 'org')).toBe('owner');
    expect(isPlatformAdmin(orgOwner)).toBe(false);
  });

  it('gives every user the owner role in their personal tenant, and none where they are not a member', () => {
    expect(tenantRoleOf(member, 't1')).toBe('owner');
    expect(tenantRoleOf(withOrg('admin', 'member'), 'org')).toBe('member');
    expect(tenantRoleOf(member, 'elsewhere')).toBeUndefined();
  });
});
