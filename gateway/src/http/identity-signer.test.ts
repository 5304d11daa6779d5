import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERNAL_TOKEN_TTL_SECONDS, verifyInternalIdentity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createIdentitySigner } from './identity-signer.js';

const SECRET = 'identity-signer-test-secret-of-enough-length';
const alice = personalIdentity({ userId: '00000000-0000-4000-8000-0000000000a1', tenantId: '00000000-0000-4000-8000-0000000000a2', slug: 'alice' });
const bob = personalIdentity({ userId: '00000000-0000-4000-8000-0000000000b1', tenantId: '00000000-0000-4000-8000-0000000000b2', slug: 'bob' });

describe('the identity signer', () => {
  afterEach(() => vi.useRealTimers());

  it("signs each caller's own identity, verifiable by the services", () => {
    const sign = createIdentitySigner(SECRET);
    expect(verifyInternalIdentity(sign(alice), SECRET)).toEqual(alice);
    expect(verifyInternalIdentity(sign(bob), SECRET)).toEqual(bob);
  });

  it('reuses a token for the same identity for half its life, then signs anew', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] });
    const sign = createIdentitySigner(SECRET);
    const first = sign(alice);
    vi.setSystemTime(Date.now() + (INTERNAL_TOKEN_TTL_SECONDS * 1000) / 2 - 1);
    expect(sign(alice)).toBe(first);
    vi.setSystemTime(Date.now() + 1);
    const second = sign(alice);
    expect(second).not.toBe(first);
    expect(verifyInternalIdentity(second, SECRET)).toEqual(alice);
  });

  it('never hands one identity the token of another that looks alike', () => {
    const sign = createIdentitySigner(SECRET);
    const admin = { ...alice, role: 'admin' as const };
    expect(verifyInternalIdentity(sign(alice), SECRET)).toEqual(alice);
    expect(verifyInternalIdentity(sign(admin), SECRET)).toEqual(admin);
  });
});
