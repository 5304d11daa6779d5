import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute } from './route-table.js';

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
  });
});
