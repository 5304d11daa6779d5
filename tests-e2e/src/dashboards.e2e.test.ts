import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralQueueName, type BusMessage, type Subscription } from '@svc/bus';
import { DashboardDeleted, type EventPayload } from '@svc/contracts';
import { adminToken, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { bundleOf, createDashboard, getFile, getRawPath, MAIN_JS, uploadBundle } from './support/dashboards.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

const CSS = 'body { color: rebeccapurple; }\n';

/** Every file under `dir`, recursively; none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

describe.each(oneMode('embedded'))('dashboards through the gateway (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let ada: TestUser;
  let bob: TestUser;
  let consumer: TestUser;
  let org: { id: string; slug: string };
  let deletedEvents: EventPayload<'dashboard.deleted'>[];
  let deletions: Subscription;

  const countRows = async (table: 'versions' | 'files', dashboardId: string) => {
    const where = table === 'versions' ? sql`dashboard_id = ${dashboardId}` : sql`version_id in (select id from dashboard.versions where dashboard_id = ${dashboardId})`;
    const result = (await fleet.infra.database.db.execute(sql`select count(*)::int as n from ${sql.raw(`dashboard.${table}`)} where ${where}`)) as unknown as { rows: Array<{ n: number }> };
    return result.rows[0]!.n;
  };
  const bundleFiles = (dashboardId: string) => filesUnder(join(fleet.dataDir, 'blobs', 'dashboards', dashboardId));
  const uploadsInFlight = () => filesUnder(join(fleet.dataDir, 'tmp', 'dashboard-uploads'));

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    ada = await signUp(call, admin);
    bob = await signUp(call, admin);
    consumer = await signUp(call, admin);
    org = await createOrganization(call, ada);
    await createOrganization(call, bob);
    deletedEvents = [];
    deletions = await fleet.infra.bus.subscribe(ephemeralQueueName('e2e.dashboard-deleted'), ['dashboard.deleted'], async (m: BusMessage) => {
      deletedEvents.push(DashboardDeleted.parse(m.payload));
    }, { ephemeral: true });
  });
  afterAll(async () => {
    await deletions?.cancel();
    await fleet?.stop();
  });

  it('registers a dashboard in the caller\'s scope only, by developers only, once per name', async () => {
    const created = await call('/api/v1/dashboards', { token: ada.token, body: { scope: `@${org.slug}`, name: 'sales-board', description: 'Sales', category: 'business' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(String), scope: org.slug, name: 'sales-board', slug: 'sales-board', visibility: 'private', created_at: expect.any(String) });

    expectError(await call('/api/v1/dashboards', { token: consumer.token, body: { scope: `@${consumer.slug}`, name: 'my-board' } }), 403, 'PERMISSION_DENIED');
    const foreign = await call('/api/v1/dashboards', { token: bob.token, body: { scope: `@${org.slug}`, name: 'bobs-board' } });
    expectError(foreign, 403, 'PERMISSION_DENIED');
    expect(foreign.body.error.details.reason).toBe('scope_mismatch');
    expectError(await call('/api/v1/dashboards', { token: ada.token, body: { scope: `@${org.slug}`, name: 'sales-board' } }), 409, 'CONFLICT');
    // The slug names one dashboard: the name is taken in every scope.
    expectError(await call('/api/v1/dashboards', { token: bob.token, body: { scope: `@${bob.slug}`, name: 'sales-board' } }), 409, 'CONFLICT');
    for (const body of [{ scope: org.slug, name: 'no-at' }, { scope: `@${org.slug}`, name: 'Not_Kebab' }, { scope: `@${org.slug}`, name: 'ab' }, { scope: `@${org.slug}`, name: 'long-desc', description: 'x'.repeat(201) }, { scope: `@${org.slug}`, name: 'bad-vis', visibility: 'secret' }]) {
      expectError(await call('/api/v1/dashboards', { token: ada.token, body }), 400, 'VALIDATION_FAILED');
    }
  });

  it('uploads versions strictly greater than the last, serves each immutable with ETag and Range, and keeps old ones servable', async () => {
    const board = await createDashboard(call, ada.token, `@${ada.slug}`, 'ops-board', 'public');
    const v1 = await uploadBundle(fleet.url, ada.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }, { name: 'assets/app.css', content: CSS }]), { version: '1.0.0' });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    expect(v1.body.data).toMatchObject({ dashboard_id: board.id, version: '1.0.0', entry_point: 'main.js', min_sdk_version: '1.0.0', is_active: true });

    for (const version of ['1.0.0', '0.9.0', '1.0.0-rc.1']) {
      const refused = await uploadBundle(fleet.url, ada.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version });
      expectError(refused, 409, 'CONFLICT');
    }
    expectError(await uploadBundle(fleet.url, ada.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version: 'v2' }), 400, 'VALIDATION_FAILED');
    // Bob sees the public dashboard but does not own it.
    expectError(await uploadBundle(fleet.url, bob.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version: '9.0.0' }), 403, 'PERMISSION_DENIED');

    const main2 = `${MAIN_JS}// v2\n`;
    const deps = JSON.stringify([{ scope: '@acme', name: 'text-tools', version: '>=2.0.0' }]);
    const v2 = await uploadBundle(fleet.url, ada.token, board.id, await bundleOf([{ name: './main.js', content: main2 }]), { version: '1.1.0', min_sdk_version: '2.1.0', pack_dependencies: deps });
    expect(v2.status, JSON.stringify(v2.body)).toBe(201);

    const got = await call(`/api/v1/dashboards/${board.slug}`, { token: bob.token });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      id: board.id,
      slug: 'ops-board',
      name: 'ops-board',
      description: 'The ops-board dashboard',
      version: '1.1.0',
      entryPoint: '/api/v1/dashboards/ops-board/bundle/1.1.0/main.js',
      minSdkVersion: '2.1.0',
      scope: ada.slug,
      category: 'analytics',
      visibility: 'public',
      packDependencies: [{ scope: 'acme', name: 'text-tools', version: '>=2.0.0' }],
      created_at: expect.any(String),
    });
    expect((await countRows('versions', board.id))).toBe(2);

    const auth = { authorization: `Bearer ${bob.token}` };
    const entry = await getFile(fleet.url, got.body.data.entryPoint, auth);
    expect(entry.status).toBe(200);
    expect(entry.bytes.toString()).toBe(main2);
    expect(entry.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect(entry.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const etag = entry.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await getFile(fleet.url, got.body.data.entryPoint, { ...auth, 'if-none-match': etag })).status).toBe(304);

    const css = await getFile(fleet.url, '/api/v1/dashboards/ops-board/bundle/1.0.0/assets/app.css', auth);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(css.bytes.toString()).toBe(CSS);
    const part = await getFile(fleet.url, '/api/v1/dashboards/ops-board/bundle/1.0.0/assets/app.css', { ...auth, range: 'bytes=7-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 7-11/${CSS.length}`);
    expect(part.bytes.toString()).toBe(CSS.slice(7, 12));

    expect((await getFile(fleet.url, '/api/v1/dashboards/ops-board/bundle/1.0.0/main.js')).status).toBe(401);
    for (const path of ['/api/v1/dashboards/ops-board/bundle/1.0.0/nope.js', '/api/v1/dashboards/ops-board/bundle/3.0.0/main.js', '/api/v1/dashboards/no-such-board/bundle/1.0.0/main.js']) {
      const missing = await getFile(fleet.url, path, auth);
      expect(missing.status, path).toBe(404);
      expect(JSON.parse(missing.bytes.toString()).error.code).toBe('NOT_FOUND');
    }
    for (const path of ['/bundle/1.0.0/../1.1.0/main.js', '/bundle/1.0.0/assets/..%2f..%2f1.1.0%2fmain.js', '/bundle/1.0.0/%2e%2e/%2e%2e/%2e%2e/package.json', '/bundle/1.0.0/assets/%2e%2e/main.js', '/bundle/1.0.0/%2fetc%2fpasswd']) {
      const escaped = await getRawPath(fleet.url, `/api/v1/dashboards/ops-board${path}`, bob.token);
      expect(escaped.status, path).toBe(404);
    }
  });

  it.each([
    { case: 'a path traversal', entries: [{ name: 'main.js', content: MAIN_JS }, { name: '../evil.js', content: 'x' }], status: 400 },
    { case: 'an absolute path', entries: [{ name: 'main.js', content: MAIN_JS }, { name: '/tmp/evil.js', content: 'x' }], status: 400 },
    { case: 'a symlink', entries: [{ name: 'main.js', content: MAIN_JS }, { name: 'passwd', type: 'symlink' as const, linkname: '/etc/passwd' }], status: 400 },
    { case: 'a hardlink', entries: [{ name: 'main.js', content: MAIN_JS }, { name: 'again.js', type: 'link' as const, linkname: 'main.js' }], status: 400 },
    { case: 'a device', entries: [{ name: 'main.js', content: MAIN_JS }, { name: 'null', type: 'character-device' as const, devmajor: 1, devminor: 3 }], status: 400 },
    { case: '501 files', entries: [{ name: 'main.js', content: MAIN_JS }, ...Array.from({ length: 500 }, (_, i) => ({ name: `f/${i}.js`, content: `${i}` }))], status: 400 },
    { case: 'a missing main.js', entries: [{ name: 'app/main.js', content: MAIN_JS }], status: 400, reason: 'entry_point_not_found' },
    { case: 'a gzip bomb', entries: [{ name: 'main.js', content: MAIN_JS }, { name: 'zeros.bin', content: Buffer.alloc(201 * 1024 * 1024) }], status: 413 },
  ])('refuses a bundle with $case, leaving nothing on disk or in the database', async ({ entries, status, reason }) => {
    const board = await createDashboard(call, ada.token, `@${ada.slug}`, `hostile-${randomBytes(3).toString('hex')}`);
    const refused = await uploadBundle(fleet.url, ada.token, board.id, await bundleOf(entries), { version: '1.0.0' });
    expectError(refused, status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED');
    expect(refused.body.error.details.reason).toBe(reason ?? (status === 413 ? 'uncompressed_too_large' : 'invalid_tarball'));
    expect(await bundleFiles(board.id)).toEqual([]);
    expect(await countRows('versions', board.id)).toBe(0);
    expect(await countRows('files', board.id)).toBe(0);
    expect(await uploadsInFlight()).toEqual([]);
  });

  it.each([
    { case: 'not gzip', bytes: () => Buffer.from('just some text, not an archive'), status: 400 },
    { case: 'gzip but not tar', bytes: () => Buffer.from(bundleOfText()), status: 400 },
    { case: '51 MB', bytes: () => randomBytes(51 * 1024 * 1024), status: 413 },
  ])('refuses an upload that is $case, leaving nothing behind', async ({ bytes, status }) => {
    const board = await createDashboard(call, ada.token, `@${ada.slug}`, `hostile-${randomBytes(3).toString('hex')}`);
    const refused = await uploadBundle(fleet.url, ada.token, board.id, bytes(), { version: '1.0.0' });
    expectError(refused, status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED');
    expect(await bundleFiles(board.id)).toEqual([]);
    expect(await countRows('versions', board.id)).toBe(0);
    expect(await uploadsInFlight()).toEqual([]);
  });

  it('grants and revokes organization dashboards by tenant id or scope, for owners only', async () => {
    const partner = await createDashboard(call, ada.token, `@${org.slug}`, 'partner-board', 'organization');
    const closed = await createDashboard(call, ada.token, `@${org.slug}`, 'closed-board', 'private');
    const open = await createDashboard(call, ada.token, `@${org.slug}`, 'open-board', 'public');
    expect((await uploadBundle(fleet.url, ada.token, partner.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version: '1.0.0' })).status).toBe(201);

    expect((await call('/api/v1/dashboards/partner-board', { token: bob.token })).status).toBe(404);
    const granted = await call(`/api/v1/dashboards/${partner.id}/grant`, { token: ada.token, body: { tenant_ids: [bob.tenantId, bob.tenantId] } });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.data).toEqual({ granted: 1, dashboard_id: partner.id });
    expect((await call('/api/v1/dashboards/partner-board', { token: bob.token })).status).toBe(200);
    expect((await getFile(fleet.url, '/api/v1/dashboards/partner-board/bundle/1.0.0/main.js', { authorization: `Bearer ${bob.token}` })).status).toBe(200);

    const byScope = await call(`/api/v1/dashboards/${partner.id}/grant`, { token: ada.token, body: { scopes: [`@${consumer.slug}`] } });
    expect(byScope.body.data).toEqual({ granted: 1, dashboard_id: partner.id });

    expectError(await call(`/api/v1/dashboards/${closed.id}/grant`, { token: ada.token, body: { tenant_ids: [bob.tenantId] } }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/dashboards/${partner.id}/grant`, { token: ada.token, body: { tenant_ids: ['00000000-0000-4000-8000-000000000000'] } }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/dashboards/${partner.id}/grant`, { token: ada.token, body: { scopes: ['@no-such-tenant-here'] } }), 400, 'VALIDATION_FAILED');
    expectError(await call(`/api/v1/dashboards/${partner.id}/grant`, { token: ada.token, body: {} }), 400, 'VALIDATION_FAILED');
    // Bob sees the granted and the public dashboard but owns neither; the private one does not exist for him.
    expectError(await call(`/api/v1/dashboards/${partner.id}/grant`, { token: bob.token, body: { tenant_ids: [bob.tenantId] } }), 403, 'PERMISSION_DENIED');
    expectError(await call(`/api/v1/dashboards/${open.id}/grant`, { token: bob.token, body: { tenant_ids: [bob.tenantId] } }), 403, 'PERMISSION_DENIED');
    expectError(await call(`/api/v1/dashboards/${closed.id}/grant`, { token: bob.token, body: { tenant_ids: [bob.tenantId] } }), 404, 'NOT_FOUND');
    expectError(await call('/api/v1/dashboards/00000000-0000-4000-8000-000000000000/grant', { token: ada.token, body: { tenant_ids: [bob.tenantId] } }), 404, 'NOT_FOUND');

    const revoked = await call(`/api/v1/dashboards/${partner.id}/grant`, { method: 'DELETE', token: ada.token, body: { scopes: [`@${bob.slug}`] } });
    expect(revoked.body.data).toEqual({ revoked: 1, dashboard_id: partner.id });
    expect((await call('/api/v1/dashboards/partner-board', { token: bob.token })).status).toBe(404);
    expect((await getFile(fleet.url, '/api/v1/dashboards/partner-board/bundle/1.0.0/main.js', { authorization: `Bearer ${bob.token}` })).status).toBe(404);
    expectError(await call(`/api/v1/dashboards/${partner.id}/grant`, { method: 'DELETE', token: bob.token, body: { tenant_ids: [bob.tenantId] } }), 404, 'NOT_FOUND');
  });

  it('opens a dashboard through a share link without a JWT until the link is revoked; forged links open nothing', async () => {
    const board = await createDashboard(call, ada.token, `@${org.slug}`, 'shared-board', 'private');
    expect((await uploadBundle(fleet.url, ada.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version: '2.0.0' })).status).toBe(201);
    const share = await call(`/api/v1/dashboards/${board.id}/shares`, { token: ada.token, body: { expires: '7d' } });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    const { token, url, id, expires_at } = share.body.data;
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(url).toBe(`/api/v1/shared-dashboards/${token}`);
    expect((await call(`/api/v1/dashboards/${board.id}/shares`, { token: ada.token, body: {} })).status).toBe(201);
    expect((await call(`/api/v1/dashboards/${board.id}/shares`, { token: ada.token })).body.data).toHaveLength(2);
    expectError(await call(`/api/v1/dashboards/${board.id}/shares`, { token: bob.token, body: {} }), 404, 'NOT_FOUND');
    expectError(await call(`/api/v1/dashboards/${board.id}/shares`, { token: ada.token, body: { expires: '2d' } }), 400, 'VALIDATION_FAILED');

    const opened = await call(url);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ id: board.id, version: '2.0.0', entryPoint: `${url}/bundle/2.0.0/main.js` });
    const entry = await getFile(fleet.url, opened.body.data.entryPoint);
    expect(entry.status).toBe(200);
    expect(entry.bytes.toString()).toBe(MAIN_JS);
    expect(entry.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');

    const [body, signature] = token.slice(4).split('.');
    const longer = Buffer.from(Buffer.from(body, 'base64url').toString().replace(/\.\d+$/, '.0')).toString('base64url');
    for (const forged of [`dsh_${longer}.${signature}`, `${token}x`, 'dsh_abc.def', 'nothing']) {
      expectError(await call(`/api/v1/shared-dashboards/${forged}`), 404, 'NOT_FOUND');
    }

    expect((await call(`/api/v1/dashboards/${board.id}/shares/${id}`, { method: 'DELETE', token: bob.token })).status).toBe(404);
    const revoked = await call(`/api/v1/dashboards/${board.id}/shares/${id}`, { method: 'DELETE', token: ada.token });
    expect(revoked.body.data).toEqual({ revoked: true, id, dashboard_id: board.id });
    expectError(await call(url), 404, 'NOT_FOUND');
    expect((await getFile(fleet.url, opened.body.data.entryPoint)).status).toBe(404);
  });

  it('deletes a dashboard with its versions, grants, share links and files, for developers of the owning tenant, and announces it', async () => {
    const board = await createDashboard(call, ada.token, `@${org.slug}`, 'doomed-board', 'organization');
    for (const version of ['1.0.0', '1.2.0']) {
      expect((await uploadBundle(fleet.url, ada.token, board.id, await bundleOf([{ name: 'main.js', content: MAIN_JS }]), { version })).status).toBe(201);
    }
    await call(`/api/v1/dashboards/${board.id}/grant`, { token: ada.token, body: { tenant_ids: [bob.tenantId] } });
    const share = await call(`/api/v1/dashboards/${board.id}/shares`, { token: ada.token, body: {} });
    expect(await bundleFiles(board.id)).toHaveLength(2);

    expectError(await call(`/api/v1/dashboards/${board.id}`, { method: 'DELETE', token: consumer.token }), 403, 'PERMISSION_DENIED');
    // Bob is granted the dashboard and a developer, but his tenant does not own it.
    expectError(await call(`/api/v1/dashboards/${board.id}`, { method: 'DELETE', token: bob.token }), 404, 'NOT_FOUND');
    expectError(await call('/api/v1/dashboards/not-a-uuid', { method: 'DELETE', token: ada.token }), 400, 'VALIDATION_FAILED');

    const deleted = await call(`/api/v1/dashboards/${board.id}`, { method: 'DELETE', token: ada.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.data).toEqual({ message: expect.stringContaining('doomed-board') });
    await expect.poll(() => deletedEvents.filter((e) => e.dashboard_id === board.id), { timeout: 10_000 }).toEqual([
      { dashboard_id: board.id, tenant_id: org.id, scope: org.slug, name: 'doomed-board', versions_removed: 2, occurred_at: expect.any(String) },
    ]);
    expect(await bundleFiles(board.id)).toEqual([]);
    expect(await countRows('versions', board.id)).toBe(0);
    expectError(await call('/api/v1/dashboards/doomed-board', { token: ada.token }), 404, 'NOT_FOUND');
    expect((await getFile(fleet.url, '/api/v1/dashboards/doomed-board/bundle/1.0.0/main.js', { authorization: `Bearer ${ada.token}` })).status).toBe(404);
    expectError(await call(share.body.data.url), 404, 'NOT_FOUND');
    expectError(await call(`/api/v1/dashboards/${board.id}`, { method: 'DELETE', token: ada.token }), 404, 'NOT_FOUND');
    // The name is free again.
    expect((await call('/api/v1/dashboards', { token: ada.token, body: { scope: `@${org.slug}`, name: 'doomed-board' } })).status).toBe(201);
  });
});

/** Gzip-compressed text that is no tar archive. */
function bundleOfText(): Buffer {
  return gzipSync(Buffer.from('this is compressed but is not a tar archive at all; '.repeat(20)));
}
