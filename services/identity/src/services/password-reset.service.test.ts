import { randomUUID } from 'node:crypto';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, EventOutbox, type Bus } from '@svc/bus';
import { createCache, type Cache } from '@svc/cache';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { inbox, outbox } from '../db/schema.js';
import { OAuthGrantRepository } from '../repositories/oauth-grant.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { AuthService } from './auth.service.js';
import { OAuthService } from './oauth.service.js';
import { bcryptHasher } from './password.js';
import { PasswordResetService, RESET_REQUESTS_PER_ADDRESS } from './password-reset.service.js';
import { PrincipalService } from './principal.service.js';

const log = createLogger({ service: 'password-reset-test', silent: true });
const SECRET = 'password-reset-test-secret-0123456789abcdef';
const TTL_SECONDS = 3600;

describe.each(testDatabaseKinds())('forgotten passwords, on $name', (kind) => {
  let db: TestDatabase;
  let cache: Cache;
  let bus: Bus;
  let auth: AuthService;
  let resets: PasswordResetService;
  let now = new Date('2026-11-27T12:00:00.000Z');

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    cache = createCache({});
    bus = await createBus({ logger: log });
    const principals = new PrincipalService(db.database.db, cache, log, SECRET);
    // Not started: what the service queues stays in identity.outbox, where the tests read it.
    const events = new EventOutbox({ db: db.database.db, table: outbox, inbox, bus, log });
    auth = new AuthService({ db: db.database.db, events, hasher: bcryptHasher(4), principals, settings: { jwtSecret: SECRET, internalSecret: SECRET, accessTtlSeconds: 900, refreshTtlSeconds: 3600 }, log });
    const oauth = new OAuthService(db.database.db, principals, { tokens: { secret: SECRET, issuer: 'http://svc.test', audience: 'http://svc.test/mcp' }, accessTtlSeconds: 900, refreshTtlSeconds: 3600 }, log);
    resets = new PasswordResetService({ db: db.database.db, events, cache, auth, oauth, log, settings: { publicUrl: 'https://svc.example.test/', ttlSeconds: TTL_SECONDS, clock: () => now } });
  });

  afterAll(async () => {
    await resets?.stop();
    await bus?.close();
    await cache?.close();
    await db?.dispose();
  });

  async function user(password = 'the-first-password') {
    const slug = `u-${randomUUID().slice(0, 8)}`;
    const passwordHash = await bcryptHasher(4).hash(password);
    const created = await new UserRepository(db.database.db).create({ email: `${slug}@example.test`, passwordHash, slug, name: 'Ada', tier: 'pro' });
    return { ...created, password };
  }

  /** The reset e-mails queued for `address`, oldest first. */
  async function mailsTo(address: string): Promise<{ subject: string; text: string }[]> {
    await resets.stop();
    // Write order: a table without ORDER BY may answer in any order once rows are updated.
    const rows = await db.database.db.select().from(outbox).orderBy(asc(outbox.seq));
    return rows
      .map((row) => row.payload as { to?: string; kind?: string; subject: string; text: string })
      .filter((payload) => payload.to === address && payload.kind === 'password-reset');
  }

  async function linkTokenFor(address: string): Promise<string> {
    const mails = await mailsTo(address);
    const link = /https:\/\/svc\.example\.test\/reset-password\?token=([\w-]+)/.exec(mails.at(-1)?.text ?? '');
    expect(link, 'a link to the console page on the public URL').not.toBeNull();
    return link![1]!;
  }

  it('sends a one-time link to the console page, whose token is kept only as a digest', async () => {
    const ada = await user();
    await resets.request(ada.email);
    const token = await linkTokenFor(ada.email);
    expect((await mailsTo(ada.email))[0]!.subject).toBe('Choose a new svc password');
    const rows = JSON.stringify(await db.database.db.execute('select * from identity.password_resets'));
    expect(rows).not.toContain(token);
  });

  it('sets the new password with the token, ends every session and OAuth authorization, and refuses the token again', async () => {
    const ada = await user();
    const signedIn = await auth.login(ada.email, ada.password);
    const grants = new OAuthGrantRepository(db.database.db);
    await grants.insert({ userId: ada.id, tenantId: ada.tenant.id, clientId: 'https://client.example.test/meta', clientName: 'An agent', redirectUri: 'https://client.example.test/cb', scopes: ['commands:execute'], resource: 'http://svc.test/mcp' });
    await resets.request(ada.email);
    const token = await linkTokenFor(ada.email);
    await resets.confirm(token, 'a-brand-new-password');
    await expect(auth.refresh(signedIn.tokens.refreshToken)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    expect(await grants.liveIdsOf(ada.id)).toEqual([]);
    await expect(auth.login(ada.email, ada.password)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    await expect(auth.login(ada.email, 'a-brand-new-password')).resolves.toBeDefined();
    await expect(resets.confirm(token, 'yet-another-password')).rejects.toMatchObject({ status: 400, code: 'RESET_TOKEN_INVALID', details: { reason: 'used' } });
  });

  it('spends every outstanding link when the password changes', async () => {
    const ada = await user();
    await resets.request(ada.email);
    const first = await linkTokenFor(ada.email);
    await resets.request(ada.email);
    const second = await linkTokenFor(ada.email);
    expect(second).not.toBe(first);
    await resets.confirm(second, 'a-brand-new-password');
    await expect(resets.confirm(first, 'yet-another-password')).rejects.toMatchObject({ code: 'RESET_TOKEN_INVALID', details: { reason: 'used' } });

    await resets.request(ada.email);
    const third = await linkTokenFor(ada.email);
    await auth.changePassword(ada.id, 'a-brand-new-password', 'changed-knowing-it');
    await expect(resets.confirm(third, 'yet-another-password')).rejects.toMatchObject({ details: { reason: 'used' } });
  });

  it('lets one of two confirmations of a link racing win', async () => {
    const ada = await user();
    await resets.request(ada.email);
    const token = await linkTokenFor(ada.email);
    const outcomes = await Promise.allSettled([resets.confirm(token, 'first-new-password'), resets.confirm(token, 'second-new-password')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('refuses an expired link and an unknown one', async () => {
    const ada = await user();
    await resets.request(ada.email);
    const token = await linkTokenFor(ada.email);
    const requestedAt = now;
    now = new Date(requestedAt.getTime() + TTL_SECONDS * 1000);
    try {
      await expect(resets.confirm(token, 'a-brand-new-password')).rejects.toMatchObject({ code: 'RESET_TOKEN_INVALID', details: { reason: 'expired' } });
    } finally {
      now = requestedAt;
    }
    await expect(resets.confirm('no-such-token', 'a-brand-new-password')).rejects.toMatchObject({ code: 'RESET_TOKEN_INVALID', details: { reason: 'unknown' } });
    await expect(auth.login(ada.email, ada.password)).resolves.toBeDefined();
  });

  it('sends nothing for an address without an account, and answers it the same', async () => {
    const address = `nobody-${randomUUID().slice(0, 8)}@example.test`;
    await expect(resets.request(address)).resolves.toBeUndefined();
    expect(await mailsTo(address)).toEqual([]);
  });

  it('limits the requests per address, known or not', async () => {
    const ada = await user();
    const nobody = `nobody-${randomUUID().slice(0, 8)}@example.test`;
    for (const address of [ada.email, nobody]) {
      for (let i = 0; i < RESET_REQUESTS_PER_ADDRESS.points; i++) await resets.request(address);
      await expect(resets.request(address)).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retry_after: expect.any(Number) } });
    }
    expect(await mailsTo(ada.email)).toHaveLength(RESET_REQUESTS_PER_ADDRESS.points);
  });
});
