import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buffer } from 'node:stream/consumers';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewTokens, type Identity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createFileSystemBlobStore } from '@svc/blobs';
import { createBus, EventOutbox, type Bus } from '@svc/bus';
import { DASHBOARD_APP_MAX_BYTES } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { DASHBOARD_MIGRATIONS, DASHBOARD_SCHEMA } from '../app.js';
import { outbox } from '../db/schema.js';
import { DashboardRepository } from '../repositories/dashboard.repository.js';
import { BundleService } from './bundle.service.js';
import { DashboardAppService } from './dashboard-app.service.js';
import { DashboardService } from './dashboard.service.js';
import { ShareService } from './share.service.js';
import { shareTokens } from './share-token.js';
import { ViewService } from './view.service.js';

const log = createLogger({ service: 'dashboard-service-test', silent: true });
const MAIN_JS = 'export function mount(el) { el.textContent = "hi"; }\nexport function unmount() {}\n';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const SECRET = 'dashboard-service-test-secret-0123456789ab';
const ORIGIN = 'https://dash.example.test';

const developer = (slug: string): Identity => personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug, developerMode: true });

/** The AppError status a call fails with, or 'ok'. */
async function outcome(call: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    return (err as { status: number }).status;
  }
}

describe.each(testDatabaseKinds())('dashboard rules beside the code, on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let events: EventOutbox;
  let dir: string;
  let dashboards: DashboardService;
  let bundles: BundleService;
  let now: Date;
  let shares: ShareService;
  let views: ViewService;
  const owner = developer(`own-${randomUUID().slice(0, 8)}`);
  const granted = developer(`grt-${randomUUID().slice(0, 8)}`);
  const stranger = developer(`oth-${randomUUID().slice(0, 8)}`);

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: DASHBOARD_MIGRATIONS, schema: DASHBOARD_SCHEMA });
    bus = await createBus({ logger: log });
    events = new EventOutbox({ db: db.database.db, table: outbox, bus, log, intervalMs: 50 });
    dir = await mkdtemp(join(tmpdir(), 'svc-dashboard-service-'));
    const blobs = createFileSystemBlobStore(join(dir, 'blobs'));
    dashboards = new DashboardService({ db: db.database.db, blobs, events, bus, log, bundleOrigin: ORIGIN });
    bundles = new BundleService(db.database.db, blobs);
    now = new Date('2026-01-01T00:00:00Z');
    shares = new ShareService(db.database.db, dashboards, shareTokens(SECRET), () => now);
    views = new ViewService(dashboards, viewTokens(SECRET), () => now);
  });
  afterAll(async () => {
    await bus?.close();
    await db?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A bundle of `entries` where multer would leave it. */
  const bundle = async (entries: Record<string, string>) => {
    const archive = pack();
    for (const [name, content] of Object.entries(entries)) archive.entry({ name }, content);
    archive.finalize();
    const path = join(dir, `${randomUUID()}.tar.gz`);
    const bytes = gzipSync(await buffer(archive));
    await writeFile(path, bytes);
    return { path, sizeBytes: bytes.length };
  };
  const create = (name: string, visibility: 'public' | 'unlisted' | 'organization' | 'private') =>
    dashboards.create(owner, { scope: `@${owner.tenantSlug}`, name, description: '', visibility });

  it('lets owners, signed-in callers and granted tenants reach exactly what rule 8 says, on list, metadata and bundle', async () => {
    const suffix = randomUUID().slice(0, 6);
    const names = { public: `pub-${suffix}`, unlisted: `unl-${suffix}`, organization: `org-${suffix}`, private: `prv-${suffix}` } as const;
    for (const [visibility, name] of Object.entries(names) as Array<[keyof typeof names, string]>) {
      const created = await create(name, visibility);
      await dashboards.upload(owner, created.id, await bundle({ 'main.js': MAIN_JS }), { version: '1.0.0', min_sdk_version: '1.0.0' });
    }
    await new DashboardRepository(db.database.db).grant((await dashboards.visibleBySlug(owner, names.organization)).dashboard.id, [granted.tenantId], owner.userId);
    const reach = async (who: Identity) => {
      const seen: Record<string, [number | 'ok', number | 'ok']> = {};
      for (const name of Object.values(names)) {
        seen[name] = [await outcome(dashboards.get(who, name)), await outcome(dashboards.visibleBySlug(who, name).then((found) => bundles.file(found, '1.0.0', 'main.js')))];
      }
      const listed = (await dashboards.list(who)).map((d: { name: string }) => d.name).filter((name: string) => name.endsWith(suffix));
      return { seen, listed: listed.sort() };
    };
    const all = (name: string): [number | 'ok', number | 'ok'] => (name.startsWith('prv') || name.startsWith('org') ? [404, 404] : ['ok', 'ok']);
    expect(await reach(owner)).toEqual({ seen: Object.fromEntries(Object.values(names).map((n) => [n, ['ok', 'ok']])), listed: Object.values(names).sort() });
    expect(await reach(stranger)).toEqual({ seen: Object.fromEntries(Object.values(names).map((n) => [n, all(n)])), listed: [names.public] });
    expect(await reach(granted)).toEqual({
      seen: Object.fromEntries(Object.values(names).map((n) => [n, n === names.organization ? ['ok', 'ok'] : all(n)])),
      listed: [names.organization, names.public].sort(),
    });
  });

  it('takes only versions greater than every earlier one, keeps earlier ones servable, and leaves nothing behind a refused upload', async () => {
    const board = await create(`ver-${randomUUID().slice(0, 6)}`, 'private');
    const upload = async (version: string, entries: Record<string, string> = { 'main.js': MAIN_JS }) =>
      outcome(dashboards.upload(owner, board.id, await bundle(entries), { version, min_sdk_version: '1.0.0' }));
    expect(await upload('1.0.0')).toBe('ok');
    expect(await upload('1.0.0')).toBe(409);
    expect(await upload('0.9.9')).toBe(409);
    expect(await upload('1.0.0-rc.1')).toBe(409);
    expect(await upload('1.1.0', { 'lib.js': MAIN_JS })).toBe(400);
    expect(await upload('1.1.0')).toBe('ok');
    const versions = await new DashboardRepository(db.database.db).versionsOf(board.id);
    expect(versions.map((v) => [v.version, v.isActive]).sort()).toEqual([
      ['1.0.0', false],
      ['1.1.0', true],
    ]);
    expect(await readdir(join(dir, 'blobs', 'dashboards', board.id))).toHaveLength(2);
    const found = await dashboards.visibleBySlug(owner, board.name);
    expect((await bundles.file(found, '1.0.0', 'main.js')).file.sizeBytes).toBe(MAIN_JS.length);
    expect(await outcome(bundles.file(found, '1.0.0', '../1.1.0/main.js'))).toBe(404);
    expect(await outcome(bundles.file(found, '2.0.0', 'main.js'))).toBe(404);
  });

  it('opens a share link until its expiry on the clock, a "never" link always, and neither once revoked', async () => {
    const board = await create(`shr-${randomUUID().slice(0, 6)}`, 'private');
    await dashboards.upload(owner, board.id, await bundle({ 'main.js': MAIN_JS }), { version: '1.0.0', min_sdk_version: '1.0.0' });
    const start = now;
    const day = await shares.create(owner, board.id, '1d');
    const never = await shares.create(owner, board.id, 'never');
    expect(day.expires_at).toBe(new Date(start.getTime() + DAY_MS).toISOString());
    expect(never.expires_at).toBeNull();
    now = new Date(start.getTime() + DAY_MS - 1000);
    expect(await outcome(shares.open(day.token))).toBe('ok');
    now = new Date(start.getTime() + DAY_MS);
    expect(await outcome(shares.open(day.token))).toBe(404);
    now = new Date(start.getTime() + 3650 * DAY_MS);
    expect(await outcome(shares.open(never.token))).toBe('ok');
    await shares.revoke(owner, board.id, never.id);
    expect(await outcome(shares.open(never.token))).toBe(404);
    now = start;
    expect(await outcome(shares.open(day.token))).toBe('ok');
  });

  it('points entry points at the dashboard origin, by slug and through a share link', async () => {
    const board = await create(`ent-${randomUUID().slice(0, 6)}`, 'private');
    await dashboards.upload(owner, board.id, await bundle({ 'main.js': MAIN_JS }), { version: '1.0.0', min_sdk_version: '1.0.0' });
    expect((await dashboards.get(owner, board.name)).entryPoint).toBe(`${ORIGIN}/api/v1/dashboards/${board.name}/bundle/1.0.0/main.js`);
    const share = await shares.create(owner, board.id, '1d');
    expect((await shares.get(share.token)).entryPoint).toBe(`${ORIGIN}/api/v1/shared-dashboards/${share.token}/bundle/1.0.0/main.js`);
  });

  it("mints view tokens for a session that may see the dashboard, which open it for that session alone, for an hour, while it may still see it", async () => {
    const board = await create(`viw-${randomUUID().slice(0, 6)}`, 'organization');
    await dashboards.upload(owner, board.id, await bundle({ 'main.js': MAIN_JS }), { version: '1.0.0', min_sdk_version: '1.0.0' });
    const viewer = { ...granted, sessionId: randomUUID() };
    expect(await outcome(views.mint(viewer, board.name))).toBe(404);
    await new DashboardRepository(db.database.db).grant(board.id, [granted.tenantId], owner.userId);
    expect(await outcome(views.mint({ ...viewer, sessionId: undefined }, board.name))).toBe(403);
    const minted = await views.mint(viewer, board.name);
    const base = `${ORIGIN}/api/v1/dashboard-views/${minted.token}/bundle/1.0.0`;
    expect(minted).toEqual({ token: expect.stringMatching(/^dvt_/), dashboard_id: board.id, version: '1.0.0', base_url: base, entryPoint: `${base}/main.js`, expires_at: new Date(now.getTime() + HOUR_MS).toISOString() });

    const start = now;
    expect((await views.open(viewer, minted.token)).dashboard.id).toBe(board.id);
    expect(await outcome(views.open({ ...viewer, sessionId: randomUUID() }, minted.token))).toBe(404);
    expect(await outcome(views.open({ ...stranger, sessionId: viewer.sessionId }, minted.token))).toBe(404);
    expect(await outcome(views.open(viewer, `${minted.token}x`))).toBe(404);
    now = new Date(start.getTime() + HOUR_MS);
    expect(await outcome(views.open(viewer, minted.token))).toBe(404);
    now = start;
    // Visibility is decided afresh for every file: a revoked grant closes a token already minted.
    await new DashboardRepository(db.database.db).revoke(board.id, [granted.tenantId]);
    expect(await outcome(views.open(viewer, minted.token))).toBe(404);
  });

  it("answers a dashboard's entry module for an MCP App to whoever may see it, and null to anyone else, before any version and past the size limit", async () => {
    const apps = new DashboardAppService(dashboards, bundles);
    const board = await create(`app-${randomUUID().slice(0, 6)}`, 'private');
    expect(await apps.read(owner, board.name)).toEqual({ app: null });
    await dashboards.upload(owner, board.id, await bundle({ 'main.js': MAIN_JS }), { version: '1.0.0', min_sdk_version: '1.0.0' });
    expect(await apps.read(owner, board.name)).toEqual({
      app: { id: board.id, slug: board.name, name: board.name, scope: `@${owner.tenantSlug}`, version: '1.0.0', version_id: expect.any(String), main_js: MAIN_JS },
    });
    expect(await apps.read(stranger, board.name)).toEqual({ app: null });
    expect(await apps.read(owner, 'no-such-board')).toEqual({ app: null });
    const large = `${MAIN_JS}//${'x'.repeat(DASHBOARD_APP_MAX_BYTES)}\n`;
    await dashboards.upload(owner, board.id, await bundle({ 'main.js': large }), { version: '1.1.0', min_sdk_version: '1.0.0' });
    expect(await apps.read(owner, board.name)).toEqual({ app: null });
  });
});
