import { describe, expect, it } from 'vitest';
import { signedTokens } from './signed-token.js';
import { viewTokenOfPath, viewTokens } from './view-token.js';

const SECRET = 'view-token-test-secret-0123456789abcdef';
const NOW = new Date('2030-01-01T00:00:00Z');
const claims = { dashboardId: 'd1b0c1e2-0000-4000-8000-000000000001', userId: 'u-1', sessionId: 's-1', expiresAt: NOW.getTime() / 1000 + 60 };

describe('dashboard view tokens', () => {
  it('reads back the claims until they expire', () => {
    const tokens = viewTokens(SECRET);
    const token = tokens.sign(claims);
    expect(token).toMatch(/^dvt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(tokens.verify(token, NOW)).toEqual(claims);
    expect(tokens.verify(token, new Date(claims.expiresAt * 1000))).toBeUndefined();
  });

  it('refuses a token with a moved expiry, one of another secret or purpose, and malformed ones', () => {
    const tokens = viewTokens(SECRET);
    const token = tokens.sign(claims);
    const [, signature] = token.slice('dvt_'.length).split('.') as [string, string];
    const later = Buffer.from(JSON.stringify({ d: claims.dashboardId, u: claims.userId, s: claims.sessionId, e: claims.expiresAt + 3600 })).toString('base64url');
    expect(tokens.verify(`dvt_${later}.${signature}`, NOW)).toBeUndefined();
    expect(viewTokens(`${SECRET}-other`).verify(token, NOW)).toBeUndefined();
    // The share links' key signs the same body: still not a view token.
    const share = signedTokens({ secret: SECRET, purpose: 'svc dashboard share link', prefix: 'dvt_' });
    expect(tokens.verify(share.sign(JSON.stringify({ d: 'x', u: 'y', s: 'z', e: claims.expiresAt })), NOW)).toBeUndefined();
    const unsignedShape = signedTokens({ secret: SECRET, purpose: 'svc dashboard view token', prefix: 'dvt_' });
    for (const body of ['not json', 'null', '{"d":"x","u":"y","s":"z","e":"soon"}', '{"d":1,"u":"y","s":"z","e":1}']) {
      expect(tokens.verify(unsignedShape.sign(body), NOW), body).toBeUndefined();
    }
    for (const bad of ['', 'dvt_', `dvt_${later}`, `${token}.x`, token.replace('dvt_', 'dsh_')]) expect(tokens.verify(bad, NOW), bad).toBeUndefined();
  });

  it('finds the token in a view path only', () => {
    expect(viewTokenOfPath('/api/v1/dashboard-views/dvt_a.b/bundle/1.0.0/main.js')).toBe('dvt_a.b');
    expect(viewTokenOfPath('/api/v1/dashboard-views/')).toBeUndefined();
    expect(viewTokenOfPath('/api/v1/dashboards/x/bundle/1.0.0/main.js')).toBeUndefined();
  });
});
