import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCache, deleteCachePrefix, type Cache } from '@svc/cache';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { UserRepository } from '../repositories/user.repository.js';
import { OAuthService, type PendingAuthorization } from './oauth.service.js';
import { PrincipalService } from './principal.service.js';

const log = createLogger({ service: 'oauth-service-test', silent: true });
const SECRET = 'oauth-service-test-secret-0123456789abcdef';
const ISSUER = 'https://svc.example.test';
const RESOURCE = `${ISSUER}/mcp`;
const CLIENT = randomUUID();

describe.each(testDatabaseKinds())('the OAuth authorization server\'s rules, on $name', (kind) => {
  const url = process.env.REDIS_URL;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  let db: TestDatabase;
  let cache: Cache;
  let oauth: OAuthService;
  let principals: PrincipalService;

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    cache = createCache({ url, prefix });
    while (!(await cache.healthy())) await new Promise((r) => setTimeout(r, 20));
    principals = new PrincipalService(db.database.db, cache, log, SECRET);
    oauth = new OAuthService(db.database.db, principals, { tokens: { secret: SECRET, issuer: ISSUER, audience: RESOURCE }, accessTtlSeconds: 900, refreshTtlSeconds: 3600 }, log);
  });

  afterAll(async () => {
    await cache?.close();
    if (url) await deleteCachePrefix(url, prefix);
    await db?.dispose();
  });

  /** A user who approved CLIENT for their personal tenant: the code and its verifier. */
  async function approved() {
    const slug = `o-${randomUUID().slice(0, 8)}`;
    const user = await new UserRepository(db.database.db).create({ email: `${slug}@example.test`, passwordHash: 'x', slug, name: slug, tier: 'pro' });
    const verifier = randomBytes(32).toString('base64url');
    const pending: PendingAuthorization = {
      clientId: CLIENT,
      clientName: 'Agent',
      redirectUri: 'http://127.0.0.1:9/cb',
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      scopes: ['commands:execute'],
      resource: RESOURCE,
    };
    const code = await oauth.issueCode(user.id, { tenantId: user.tenant.id, slug, kind: 'personal', role: 'owner' }, pending);
    return { user, code, pending };
  }

  it('checks the resource and the scope of a request', () => {
    expect(oauth.checkRequest({})).toEqual({ scopes: ['commands:execute'], resource: RESOURCE });
    expect(oauth.checkRequest({ scopes: ['commands:execute'], resource: new URL(RESOURCE) })).toEqual({ scopes: ['commands:execute'], resource: RESOURCE });
    expect(() => oauth.checkRequest({ resource: new URL('https://elsewhere.example/mcp') })).toThrow(expect.objectContaining({ name: 'InvalidTargetError' }));
    expect(() => oauth.checkRequest({ scopes: ['admin'] })).toThrow(expect.objectContaining({ name: 'InvalidScopeError' }));
  });

  it('exchanges a code once, for its client, redirect URI and resource only; a second use revokes what it gave', async () => {
    const { user, code, pending } = await approved();
    expect(await oauth.challengeFor(CLIENT, code)).toBe(pending.codeChallenge);
    await expect(oauth.challengeFor(randomUUID(), code)).rejects.toMatchObject({ name: 'InvalidGrantError' });
    await expect(oauth.exchangeCode(randomUUID(), code, pending.redirectUri, undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
    const tokens = await oauth.exchangeCode(CLIENT, code, pending.redirectUri, new URL(RESOURCE));
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'commands:execute' });
    const info = await oauth.verifyAccessToken(tokens.access_token);
    expect(info).toMatchObject({ clientId: CLIENT, scopes: ['commands:execute'] });
    const grantId = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).gid as string;
    expect(await principals.resolveOAuthGrant(grantId)).toMatchObject({ userId: user.id, authKind: 'oauth', tenantId: user.tenant.id, memberships: [{ tenantId: user.tenant.id }] });
    await expect(oauth.exchangeCode(CLIENT, code, pending.redirectUri, undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
    expect(await principals.resolveOAuthGrant(grantId)).toBeNull();
    await expect(oauth.verifyAccessToken(tokens.access_token)).rejects.toMatchObject({ name: 'InvalidTokenError' });
  });

  it('refuses a code for another redirect URI or resource', async () => {
    const first = await approved();
    await expect(oauth.exchangeCode(CLIENT, first.code, 'http://127.0.0.1:9/other', undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
    const second = await approved();
    await expect(oauth.exchangeCode(CLIENT, second.code, undefined, new URL('https://elsewhere.example/mcp'))).rejects.toMatchObject({ name: 'InvalidTargetError' });
  });

  it('rotates refresh tokens, and revokes the grant when a used one comes back', async () => {
    const { code, pending } = await approved();
    const first = await oauth.exchangeCode(CLIENT, code, pending.redirectUri, undefined);
    const second = await oauth.refresh(CLIENT, first.refresh_token!, undefined, new URL(RESOURCE));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expect(oauth.refresh(CLIENT, second.refresh_token!, ['admin'], undefined)).rejects.toMatchObject({ name: 'InvalidScopeError' });
    await expect(oauth.refresh(randomUUID(), second.refresh_token!, undefined, undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
    await expect(oauth.refresh(CLIENT, first.refresh_token!, undefined, undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
    // The reuse ended the grant: the newer token is refused too.
    await expect(oauth.refresh(CLIENT, second.refresh_token!, undefined, undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
  });

  it('revokes a grant by either token of its client, and ignores other clients\' and unknown tokens', async () => {
    const a = await approved();
    const tokens = await oauth.exchangeCode(CLIENT, a.code, undefined, undefined);
    await oauth.revoke(randomUUID(), tokens.access_token);
    await oauth.revoke(CLIENT, 'not a token');
    await expect(oauth.verifyAccessToken(tokens.access_token)).resolves.toBeDefined();
    await oauth.revoke(CLIENT, tokens.access_token);
    await expect(oauth.verifyAccessToken(tokens.access_token)).rejects.toMatchObject({ name: 'InvalidTokenError' });
    await expect(oauth.refresh(CLIENT, tokens.refresh_token!, undefined, undefined)).rejects.toMatchObject({ name: 'InvalidGrantError' });
  });
});
