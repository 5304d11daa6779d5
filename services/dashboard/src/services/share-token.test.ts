import { describe, expect, it } from 'vitest';
import { shareTokens } from './share-token.js';

const SECRET = 'share-token-test-secret-0123456789abcdef';
const claims = { shareId: '3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f809102', expiresAt: 1_900_000_000 };

describe('share-link tokens', () => {
  it('reads back what was signed, expiry included', () => {
    const tokens = shareTokens(SECRET);
    expect(tokens.verify(tokens.sign(claims))).toEqual(claims);
    expect(tokens.verify(tokens.sign({ ...claims, expiresAt: 0 }))).toEqual({ ...claims, expiresAt: 0 });
  });

  it('refuses a token whose expiry was moved, one signed with another secret, and malformed ones', () => {
    const tokens = shareTokens(SECRET);
    const token = tokens.sign(claims);
    const [body, signature] = token.slice('dsh_'.length).split('.') as [string, string];
    const never = Buffer.from(`${claims.shareId}.0`).toString('base64url');
    expect(tokens.verify(`dsh_${never}.${signature}`)).toBeUndefined();
    expect(shareTokens(`${SECRET}-other`).verify(token)).toBeUndefined();
    for (const bad of ['', 'dsh_', `dsh_${body}`, `dsh_${body}.${signature}.x`, `xsh_${body}.${signature}`, `dsh_${body}.${signature.slice(1)}`]) {
      expect(tokens.verify(bad), bad).toBeUndefined();
    }
  });
});
