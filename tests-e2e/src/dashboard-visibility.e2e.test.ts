import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createOrganization, joinOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { bundleOf, createDashboard, getFile, MAIN_JS, uploadBundle } from './support/dashboards.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

/** One dashboard per visibility, owned by an organization; the organization one is granted to `granted`. */
const BOARDS = { 'vis-public': 'public', 'vis-unlisted': 'unlisted', 'vis-organization': 'organization', 'vis-private': 'private' } as const;
type Board = keyof typeof BOARDS;
const ALL = Object.keys(BOARDS) as Board[];

/** What each caller finds in `GET /dashboards`, and reaches by slug (metadata and bundle alike). 401: refused before any rule. */
const EXPECTED: Record<string, { listed: Board[] | 401; reachable: Board[] | 401 }> = {
  owner: { listed: ALL, reachable: ALL },
  granted: { listed: ['vis-organization', 'vis-public'], reachable: ['vis-public', 'vis-unlisted', 'vis-organization'] },
  stranger: { listed: ['vis-public'], reachable: ['vis-public', 'vis-unlisted'] },
  anonymous: { listed: 401, reachable: 401 },
};

describe.each(oneMode('real'))('dashboard visibility matrix (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  const users = {} as Record<'owner' | 'member' | 'granted' | 'stranger', TestUser>;
  const shares = {} as Record<Board, string>;
  const ids = {} as Record<Board, string>;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    for (const role of ['owner', 'member', 'granted', 'stranger'] as const) users[role] = await signUp(call, admin);
    const org = await createOrganization(call, users.owner);
    await joinOrganization(call, users.owner, org.id, users.member);
    for (const [name, visibility] of Object.entries(BOARDS) as Array<[Board, string]>) {
      const board = await createDashboard(call, users.owner.token, `@${org.slug}`, name, visibility);
      ids[name] = board.id;
      expect((await uploadBundle(fleet.url, users.owner.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version: '1.0.0' })).status).toBe(201);
      const share = await call(`/api/v1/dashboards/${board.id}/shares`, { token: users.owner.token, body: { expires: '1d' } });
      expect(share.status).toBe(201);
      shares[name] = share.body.data.url;
    }
    // Any member of the owning organization may grant.
    const granted = await call(`/api/v1/dashboards/${ids['vis-organization']}/grant`, { token: users.member.token, body: { tenant_ids: [users.granted.tenantId] } });
    expect(granted.body.data).toEqual({ granted: 1, dashboard_id: ids['vis-organization'] });
  });
  afterAll(() => fleet?.stop());

  const tokenOf = (role: string) => (role === 'anonymous' ? undefined : users[role as keyof typeof users].token);

  it.each(Object.entries({ ...EXPECTED, member: EXPECTED.owner! }))('lists for the %s exactly what it may see, and lets it reach that only, metadata and bundle alike', async (role, expected) => {
    const token = tokenOf(role);
    const listed = await call('/api/v1/dashboards', { token });
    if (expected.listed === 401) expect(listed.status).toBe(401);
    else expect(listed.body.data.map((d: { slug: string }) => d.slug).filter((slug: string) => slug.startsWith('vis-')).sort()).toEqual([...expected.listed].sort());

    const reached = await Promise.all(
      ALL.map(async (name) => {
        const meta = await call(`/api/v1/dashboards/${name}`, { token });
        const file = await getFile(fleet.url, `/api/v1/dashboards/${name}/bundle/1.0.0/main.js`, token ? { authorization: `Bearer ${token}` } : {});
        return [name, { meta: meta.status, bundle: file.status }];
      }),
    );
    const status = (name: Board) => (expected.reachable === 401 ? 401 : expected.reachable.includes(name) ? 200 : 404);
    expect(Object.fromEntries(reached)).toEqual(Object.fromEntries(ALL.map((name) => [name, { meta: status(name), bundle: status(name) }])));
  });

  it('opens every dashboard, whatever its visibility, through its share link without a JWT, and lists nothing for a link holder', async () => {
    for (const name of ALL) {
      const meta = await call(shares[name]);
      expect(meta.status, name).toBe(200);
      expect(meta.body.data.slug).toBe(name);
      const file = await getFile(fleet.url, meta.body.data.entryPoint);
      expect(file.status, name).toBe(200);
      expect(file.bytes.toString()).toBe(MAIN_JS);
    }
    // A link opens its own dashboard only.
    const other = shares['vis-public'].replace(/\/api\/v1\/shared-dashboards\//, '');
    expect((await getFile(fleet.url, `/api/v1/dashboards/vis-private/bundle/1.0.0/main.js`, { authorization: `Bearer ${other}` })).status).toBe(401);
  });
});
