import { randomUUID } from 'node:crypto';
import { verifyPrincipalEntry } from '@svc/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCache, deleteCachePrefix, type Cache } from '@svc/cache';
import { principalCacheKey } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { PrincipalService } from './principal.service.js';

const log = createLogger({ service: 'principal-service-test', silent: true });
const SECRET = 'principal-service-test-secret-0123456789ab';

/** The JSON of a principal entry identity signed for `sessionId`. */
async function entryOf(cache: Cache, sessionId: string): Promise<unknown> {
  const key = principalCacheKey(sessionId);
  const text = await cache.get(key);
  return text === null ? null : JSON.parse(verifyPrincipalEntry(SECRET, key, text) ?? 'null');
}

/** `cache` with its writes of principal entries held back until `release()`, as a slow network or a busy Redis may. */
function holdingWrites(cache: Cache) {
  let held: { reached: () => void; gate: Promise<void> } | undefined;
  let open = () => {};
  const holding: Cache = {
    ...cache,
    async set(key, value, ttlSeconds) {
      if (held && key.startsWith('principal:') && !key.endsWith(':changed')) {
        held.reached();
        await held.gate;
      }
      return cache.set(key, value, ttlSeconds);
    },
  };
  return {
    cache: holding,
    /** Holds the next entry write; resolves once one is held. */
    hold(): Promise<void> {
      return new Promise((reached) => {
        held = { reached, gate: new Promise<void>((resolve) => (open = resolve)) };
      });
    },
    release() {
      held = undefined;
      open();
    },
  };
}

describe.each(testDatabaseKinds())('principals cached for the gateway, on $name', (kind) => {
  const url = process.env.REDIS_URL;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;
  let db: TestDatabase;
  let cache: Cache;

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    cache = createCache({ url, prefix });
    while (!(await cache.healthy())) await new Promise((r) => setTimeout(r, 20));
  });

  afterAll(async () => {
    await cache?.close();
    if (url) await deleteCachePrefix(url, prefix);
    await db?.dispose();
  });

  async function signedIn() {
    const slug = `p-${randomUUID().slice(0, 8)}`;
    const user = await new UserRepository(db.database.db).create({ email: `${slug}@example.test`, passwordHash: 'x', slug, name: slug, tier: 'pro' });
    const sessionId = randomUUID();
    await new SessionRepository(db.database.db).insert({ familyId: sessionId, userId: user.id, tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 60_000) });
    return { user, sessionId };
  }

  it('keeps a resolved principal, and drops it when the user changes', async () => {
    const principals = new PrincipalService(db.database.db, cache, log, SECRET);
    const { user, sessionId } = await signedIn();
    expect((await principals.resolveSession(sessionId))?.developerMode).toBe(false);
    expect(await entryOf(cache, sessionId)).toMatchObject({ userId: user.id, developerMode: false });
    await new UserRepository(db.database.db).update(user.id, { developerMode: true });
    await principals.forgetUser(user.id);
    expect(await cache.get(principalCacheKey(sessionId))).toBeNull();
    expect((await principals.resolveSession(sessionId))?.developerMode).toBe(true);
  });

  it('withdraws what a resolve read before a change that was forgotten while it wrote', async () => {
    const holding = holdingWrites(cache);
    const principals = new PrincipalService(db.database.db, holding.cache, log, SECRET);
    const { user, sessionId } = await signedIn();
    const held = holding.hold();
    const resolving = principals.resolveSession(sessionId);
    await held;
    // The resolve has read the user without developer mode; the change and its forgetting come now.
    await new UserRepository(db.database.db).update(user.id, { developerMode: true });
    await principals.forgetUser(user.id);
    holding.release();
    expect((await resolving)?.developerMode).toBe(false);
    expect(await cache.get(principalCacheKey(sessionId))).toBeNull();
    expect((await principals.resolveSession(sessionId))?.developerMode).toBe(true);
    expect(await entryOf(cache, sessionId)).toMatchObject({ developerMode: true });
  });
});
