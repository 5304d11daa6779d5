import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, EventOutbox, ephemeralQueueName, type Bus } from '@svc/bus';
import { createCache, type Cache } from '@svc/cache';
import { DEACTIVATE_ACCESS_CODE_RPC, MINT_ACCESS_CODE_RPC, principalCacheKey, type EventPayload } from '@svc/contracts';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { IDENTITY_MIGRATIONS, IDENTITY_SCHEMA } from '../app.js';
import { accessCodes, outbox } from '../db/schema.js';
import { respondToAccessCodeRequests } from '../events/access-code.responder.js';
import { consumeSubscriptionChanges } from '../events/subscription.consumer.js';
import { AccessCodeService } from './access-code.service.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { PrincipalService } from './principal.service.js';
import { TierService } from './tier.service.js';

const log = createLogger({ service: 'tier-service-test', silent: true });
const SECRET = 'tier-service-test-secret-0123456789abcdefgh';

describe.each(testDatabaseKinds())('tiers from billing and access codes for other services, on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let cache: Cache;
  let events: EventOutbox;
  let principals: PrincipalService;
  const tierChanges: EventPayload<'user.tier.changed'>[] = [];

  beforeAll(async () => {
    db = await kind.open();
    await db.database.migrate({ migrationsFolder: IDENTITY_MIGRATIONS, schema: IDENTITY_SCHEMA });
    bus = await createBus({ logger: log });
    cache = createCache({ prefix: `tier-${randomUUID().slice(0, 8)}:` });
    events = new EventOutbox({ db: db.database.db, table: outbox, bus, log, intervalMs: 50 });
    events.start();
    principals = new PrincipalService(db.database.db, cache, log, SECRET);
    await bus.subscribe(ephemeralQueueName('test.tiers'), ['user.tier.changed'], async (m) => void tierChanges.push(m.payload), { ephemeral: true });
    await consumeSubscriptionChanges(bus, events, new TierService(events, principals, log));
    await respondToAccessCodeRequests(bus, new AccessCodeService(db.database.db, 'tier-test-internal-secret'));
  });

  afterAll(async () => {
    await events?.stop();
    await bus?.close();
    await cache?.close();
    await db?.dispose();
  });

  const change = (userId: string, tier: 'free' | 'pro', occurredAt: Date): EventPayload<'subscription.changed'> => ({
    user_id: userId,
    tier,
    status: tier === 'pro' ? 'active' : 'expired',
    payment_issue: false,
    current_period_end: null,
    monthly_price_cents: tier === 'pro' ? 5000 : 0,
    occurred_at: occurredAt.toISOString(),
  });

  it('sets the tier once per event, keeps the latest occurred_at, announces it and drops cached principals', async () => {
    const slug = `t-${randomUUID().slice(0, 8)}`;
    const user = await new UserRepository(db.database.db).create({ email: `${slug}@example.test`, passwordHash: 'x', slug, name: slug, tier: 'free' });
    const sessionId = randomUUID();
    await new SessionRepository(db.database.db).insert({ familyId: sessionId, userId: user.id, tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 60_000) });
    expect((await principals.resolveSession(sessionId))?.tier).toBe('free');

    const now = Date.now();
    const upgrade = { messageId: randomUUID() };
    await bus.publish('subscription.changed', change(user.id, 'pro', new Date(now)), upgrade);
    await bus.publish('subscription.changed', change(user.id, 'pro', new Date(now)), upgrade);
    // Older than what was applied: changes nothing.
    await bus.publish('subscription.changed', change(user.id, 'free', new Date(now - 60_000)));
    // Polled for as long as a loaded machine needs, then a pause in which a second change (the
    // duplicate, the older event) would have shown: a floor, which a slow machine only lengthens.
    await expect.poll(() => tierChanges.filter((c) => c.user_id === user.id).length, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 200));

    expect((await new UserRepository(db.database.db).findById(user.id))?.subscriptionTier).toBe('pro');
    expect(tierChanges.filter((c) => c.user_id === user.id)).toEqual([{ user_id: user.id, tenant_id: user.tenant.id, tier: 'pro', previous_tier: 'free', source: 'billing', reason: 'active' }]);
    expect(await cache.get(principalCacheKey(sessionId))).toBeNull();
    expect((await principals.resolveSession(sessionId))?.tier).toBe('pro');
  });

  it('mints a one-use code over the bus and deactivates it', async () => {
    const minted = await bus.request(MINT_ACCESS_CODE_RPC, { tier: 'free', cohort: 'paid-registration', kind: 'registration' });
    const codes = new AccessCodeService(db.database.db, 'tier-test-internal-secret');
    expect(await codes.validate(minted.code)).toEqual({ valid: true, tier: 'free' });
    expect(await bus.request(DEACTIVATE_ACCESS_CODE_RPC, { id: minted.id })).toEqual({ id: minted.id, is_active: false });
    await expect(codes.validate(minted.code)).rejects.toMatchObject({ code: 'ACCESS_CODE_INVALID' });
    const expired = await bus.request(MINT_ACCESS_CODE_RPC, { tier: 'free', cohort: 'comp', expires_at: new Date(Date.now() - 1000).toISOString() });
    await expect(codes.validate(expired.code)).rejects.toMatchObject({ code: 'ACCESS_CODE_INVALID' });
  });

  it('answers ten concurrent copies of a mint with one idempotency key with one code, and refuses a key on a comp code', async () => {
    const request = { tier: 'free', cohort: 'paid-registration', kind: 'registration', idempotency_key: `cs_test_${randomUUID()}` } as const;
    const answers = await Promise.all(Array.from({ length: 10 }, () => bus.request(MINT_ACCESS_CODE_RPC, request)));
    expect(new Set(answers.map((a) => `${a.id} ${a.code}`)).size).toBe(1);
    const rows = await db.database.db.select().from(accessCodes).where(eq(accessCodes.mintKey, request.idempotency_key));
    expect(rows).toHaveLength(1);
    expect((await bus.request(MINT_ACCESS_CODE_RPC, { ...request, idempotency_key: `cs_test_${randomUUID()}` })).id).not.toBe(answers[0]!.id);
    await expect(bus.request(MINT_ACCESS_CODE_RPC, { tier: 'pro', cohort: 'comp', kind: 'comp', idempotency_key: 'k' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
