import { describe, expect, it } from 'vitest';
import { signPrincipalEntry, verifyPrincipalEntry } from './principal-entry.js';

const SECRET = 'principal-entry-test-secret-0123456789abcdef';
const json = JSON.stringify({ userId: 'u1', role: 'member', tenantId: 't1' });

describe('principal cache entries', () => {
  it('verifies what it signed, under the same key', () => {
    const entry = signPrincipalEntry(SECRET, 'principal:s1', json);
    expect(verifyPrincipalEntry(SECRET, 'principal:s1', entry)).toBe(json);
  });

  it('refuses an entry rewritten with another role or tenant', () => {
    const entry = signPrincipalEntry(SECRET, 'principal:s1', json);
    const forged = entry.replace('"role":"member"', '"role":"owner"').replace('"tenantId":"t1"', '"tenantId":"t2"');
    expect(verifyPrincipalEntry(SECRET, 'principal:s1', forged)).toBeUndefined();
  });

  it('refuses a real entry moved to another session, a plain JSON entry, and another secret', () => {
    const entry = signPrincipalEntry(SECRET, 'principal:s1', json);
    expect(verifyPrincipalEntry(SECRET, 'principal:s2', entry)).toBeUndefined();
    expect(verifyPrincipalEntry(SECRET, 'principal:s1', json)).toBeUndefined();
    expect(verifyPrincipalEntry(`${SECRET}x`, 'principal:s1', entry)).toBeUndefined();
    expect(verifyPrincipalEntry(SECRET, 'principal:s1', 'v1..{}')).toBeUndefined();
  });
});
