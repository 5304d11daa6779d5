import type { Request } from 'express';
import jwt from 'jsonwebtoken';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, internalIdentity, requireAccessToken, signInternalIdentity } from './internal-token.js';
import { personalIdentity } from './testing/identities.js';

const SECRET = 'internal-token-test-secret-0123456789abcdef';
const identity = personalIdentity({ userId: 'u1', tenantId: 't1', slug: 'ada' });

/** Runs the middleware on a request carrying `token`; resolves with the request and what reached `next`. */
function pass(middleware: ReturnType<typeof internalIdentity>, token: string) {
  const req = { headers: { [INTERNAL_IDENTITY_HEADER]: token } } as unknown as Request;
  let error: unknown;
  middleware(req, {} as never, (err?: unknown) => (error = err));
  return { identity: req.identity, error };
}

describe('internalIdentity', () => {
  afterEach(() => vi.useRealTimers());

  it('exposes the identity of a token the gateway signed, the same on a repeated token', () => {
    const middleware = internalIdentity(SECRET);
    const token = signInternalIdentity(identity, SECRET);
    expect(pass(middleware, token)).toEqual({ identity, error: undefined });
    expect(pass(middleware, token)).toEqual({ identity, error: undefined });
  });

  it('refuses a token signed with another secret, or altered, after the genuine one was accepted', () => {
    const middleware = internalIdentity(SECRET);
    const token = signInternalIdentity(identity, SECRET);
    pass(middleware, token);
    expect(pass(middleware, signInternalIdentity(identity, `${SECRET}-other`)).error).toMatchObject({ status: 401 });
    expect(pass(middleware, `${token.slice(0, -2)}xx`).error).toMatchObject({ status: 401 });
  });

  it('refuses a remembered token once it has expired', () => {
    vi.useFakeTimers();
    const middleware = internalIdentity(SECRET);
    const token = signInternalIdentity(identity, SECRET, 60);
    expect(pass(middleware, token).error).toBeUndefined();
    vi.setSystemTime(Date.now() + 61_000);
    expect(pass(middleware, token)).toMatchObject({ identity: undefined, error: { status: 401 } });
  });

  it('refuses a token without an expiry, signed with the right secret, audience and issuer', () => {
    const middleware = internalIdentity(SECRET);
    const forever = jwt.sign({ identity }, SECRET, { algorithm: 'HS256', audience: 'svc-internal', issuer: 'svc-gateway' });
    expect(jwt.decode(forever)).not.toHaveProperty('exp');
    expect(pass(middleware, forever)).toMatchObject({ identity: undefined, error: { status: 401, code: 'AUTHENTICATION_FAILED' } });
    expect(pass(middleware, forever).error).toMatchObject({ status: 401 });
  });
});

describe('requireAccessToken', () => {
  const as = (who: typeof identity | undefined) => ({ identity: who }) as unknown as Request;

  it('gives the identity of an access token, 403 for an API key and 401 for nobody', () => {
    expect(requireAccessToken(as(identity), 'the sandbox')).toBe(identity);
    const key = { ...identity, authKind: 'api_key' as const, sessionId: undefined, apiKeyId: 'k1', scopes: ['commands:execute'] };
    expect(() => requireAccessToken(as(key), 'the sandbox')).toThrow(expect.objectContaining({ status: 403, code: 'PERMISSION_DENIED', message: 'API keys cannot use the sandbox; use an access token' }));
    expect(() => requireAccessToken(as(undefined), 'the sandbox')).toThrow(expect.objectContaining({ status: 401 }));
  });
});
