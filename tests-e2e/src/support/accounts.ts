import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Call, Reply } from './client.js';
import { ADMIN } from './fleet.js';

let clients = 0;

/**
 * An X-Forwarded-For header naming a client address of its own (TEST-NET-3, a documentation
 * range) for a simulated person. The test fleets' gateway trusts the header from loopback, where
 * the tests connect from (`SVC_TRUST_PROXY=loopback`; the default trusts no one), so per-IP
 * limits (registration: 10 a minute) count each simulated person apart, as they count real people.
 */
export function clientAddress(): Record<string, string> {
  clients += 1;
  return { 'x-forwarded-for': `203.0.113.${(clients % 254) + 1}` };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  slug: string;
  token: string;
  tenantId: string;
}

/** Signs the bootstrapped operator in and returns its access token. */
export async function adminToken(call: Call): Promise<string> {
  const reply = await call('/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data.tokens.accessToken;
}

/**
 * Registers a fresh user with a code minted by the admin, from a client address of its own. Tier
 * `pro` by default, so tests that make many calls are not held up by the free tier's rate limit.
 */
export async function signUp(call: Call, admin: string, options: { tier?: string; slug?: string } = {}): Promise<TestUser> {
  const minted = await call('/api/v1/access-codes', { token: admin, body: { tier: options.tier ?? 'pro', cohort: 'e2e' } });
  expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  const slug = options.slug ?? `u-${randomBytes(5).toString('hex')}`;
  const body = { email: `${slug}@example.test`, password: 'e2e-password-1', slug, access_code: minted.body.data.codes[0] };
  const reply = await call('/api/v1/auth/register', { body, headers: clientAddress() });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const me = await call('/api/v1/auth/me', { token: reply.body.data.tokens.accessToken });
  return { id: reply.body.data.user.id, email: body.email, password: body.password, slug, token: reply.body.data.tokens.accessToken, tenantId: me.body.data.tenantId };
}

/** Turns developer mode on by creating an organization; returns it. */
export async function createOrganization(call: Call, user: TestUser, slug = `org-${randomBytes(4).toString('hex')}`) {
  const reply = await call('/api/v1/account/developer-mode', { token: user.token, body: { organization: { name: `Org ${slug}`, slug } } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data.organization as { id: string; name: string; slug: string; scope: string };
}

/**
 * The cast of a test that keeps tenants apart: a developer (developer mode on, so that they
 * publish packs) and a user of another tenant, both pro.
 *
 * @example
 *   const [dev, stranger] = await developerAndStranger(call);
 */
export async function developerAndStranger(call: Call): Promise<[TestUser, TestUser]> {
  const admin = await adminToken(call);
  const [dev, stranger] = [await signUp(call, admin), await signUp(call, admin)];
  await createOrganization(call, dev);
  return [dev, stranger];
}

/** Invites `invitee` into `orgId` with `role` and has them accept, turning on their developer mode. */
export async function joinOrganization(call: Call, inviter: TestUser, orgId: string, invitee: TestUser, role: 'admin' | 'member' = 'member'): Promise<void> {
  const invite = await call(`/api/v1/organizations/${orgId}/invite`, { token: inviter.token, body: { email: invitee.email, role } });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  const joined = await call('/api/v1/account/developer-mode', { token: invitee.token, body: { access_code: invite.body.data.invite.id } });
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
}

/** Creates an API key of `user` with the one scope there is; returns it as created (`key` included, shown once). */
export async function createApiKey(call: Call, user: { token: string }, name = 'test'): Promise<{ id: string; key: string; key_prefix: string }> {
  const reply = await call('/api/v1/account/api-keys', { token: user.token, body: { name, scopes: ['commands:execute'] } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data;
}

export function expectError(reply: Reply, status: number, code: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.success).toBe(false);
  expect(reply.body.error.code).toBe(code);
  expect(typeof reply.body.error.message).toBe('string');
  expect(reply.body.error.correlation_id).toBe(reply.headers.get('x-request-id'));
}
