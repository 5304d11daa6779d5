import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute, mayChangeCaller } from './route-table.js';

describe('route table', () => {
  it('gives every public route a per-client-IP limit', () => {
    const unlimited = ROUTES.filter((r) => r.auth === 'public' && !r.ipLimit).map((r) => r.path);
    expect(unlimited).toEqual([]);
  });

  it('sends storage to the storage service for access tokens only, and telemetry to admin in public', () => {
    for (const method of ['GET', 'PUT', 'DELETE']) expect(findRoute(method, '/api/v1/storage/a:b')).toMatchObject({ service: 'storage', auth: 'jwt' });
    expect(findRoute('GET', '/api/v1/storage')).toMatchObject({ service: 'storage', auth: 'jwt' });
    expect(findRoute('GET', '/api/v1/storagex')).toBeUndefined();
    expect(findRoute('POST', '/api/v1/telemetry')).toMatchObject({ service: 'admin', auth: 'public', ipLimit: 'telemetry' });
    expect(findRoute('GET', '/api/v1/telemetry')).toBeUndefined();
    expect(findRoute('GET', '/api/v1/usage/by-pack')).toMatchObject({ service: 'admin', auth: 'jwt' });
    expect(findRoute('POST', '/api/v1/usage')).toBeUndefined();
    expect(findRoute('GET', '/api/v1/admin/users')).toMatchObject({ service: 'admin', auth: 'jwt' });
  });

  it('sends SSH targets to the ssh service for access tokens only', () => {
    for (const [method, path] of [['GET', '/api/v1/ssh/targets'], ['POST', '/api/v1/ssh/targets'], ['PUT', '/api/v1/ssh/targets/x'], ['DELETE', '/api/v1/ssh/targets/x'], ['POST', '/api/v1/ssh/targets/x/verify']]) {
      expect(findRoute(method!, path!)).toMatchObject({ service: 'ssh', auth: 'jwt' });
    }
    expect(findRoute('GET', '/api/v1/ssh')).toBeUndefined();
  });

  it("counts every signed-in write to identity, and nothing else, as a possible change to the caller's account", () => {
    const changes = (method: string, path: string) => mayChangeCaller(findRoute(method, path)!, method);
    expect(changes('POST', '/api/v1/account/developer-mode')).toBe(true);
    expect(changes('DELETE', '/api/v1/organizations/x/members/y')).toBe(true);
    expect(changes('POST', '/api/v1/auth/logout')).toBe(true);
    expect(changes('GET', '/api/v1/auth/me')).toBe(false);
    expect(changes('POST', '/api/v1/auth/login')).toBe(false);
    expect(changes('PUT', '/api/v1/storage/k')).toBe(false);
    expect(changes('POST', '/api/v1/commands/acme/echo')).toBe(false);
  });
});
