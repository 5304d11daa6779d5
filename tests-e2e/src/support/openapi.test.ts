import { describe, expect, it } from 'vitest';
import { samplePath } from '@svc/gateway/openapi';
import { documentedOperations, responseChecker } from './openapi.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const user = { id: '6f1c2a3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b', email: 'ada@example.test', name: '', role: 'member', developerMode: false, subscriptionTier: 'pro', createdAt: '2025-01-02T03:04:05.000Z' };
const signedIn = { data: { tokens: { accessToken: 'a.b.c', refreshToken: 'r', expiresAt: 1735787045000, refreshExpiresAt: 1738379045000 }, user } };
const error = { success: false, error: { type: 'NotFoundError', message: 'No route', code: 'NOT_FOUND', details: {}, correlation_id: 'abc', timestamp: '2025-01-02T03:04:05.000Z' } };

describe('the response checks of the end-to-end client', () => {
  const check = (method: string, path: string, status: number, body: unknown, type: string | null = JSON_TYPE) => responseChecker().check(method, path, status, type, body);

  it('accepts an answer as the document describes it', () => {
    expect(check('POST', '/api/v1/auth/login', 200, signedIn)).toBeUndefined();
    expect(check('GET', '/api/v1/storage/a:b?x=1', 404, error)).toBeUndefined();
  });

  it('names method, path, status and the schema error of a field the document does not describe', () => {
    const problem = check('POST', '/api/v1/auth/login', 200, { data: { ...signedIn.data, user: { ...user, secret: 1 } } });
    expect(problem).toContain('POST /api/v1/auth/login → 200');
    expect(problem).toMatch(/additional properties/);
  });

  it('refuses a body of the wrong shape, and a success body under a status the operation does not list', () => {
    expect(check('GET', '/health', 200, { status: 'fine' })).toMatch(/does not match/);
    expect(check('POST', '/api/v1/auth/register', 200, signedIn)).toMatch(/does not match/);
  });

  it('reads OpenAPI 3.0: null where a field is nullable, and a fixed value as a one-value enum', () => {
    const task = { task_id: user.id, status: 'pending', result: null, error: null, started_at: null, completed_at: null, correlation_id: 'abc', progress: null, logs: [] };
    expect(check('GET', `/api/v1/tasks/${user.id}`, 200, { success: true, data: task })).toBeUndefined();
    expect(check('GET', `/api/v1/tasks/${user.id}`, 200, { success: true, data: { ...task, started_at: 5 } })).toMatch(/started_at must be string/);
    expect(check('GET', `/api/v1/tasks/${user.id}`, 200, { success: false, data: task })).toMatch(/success must be equal to one of the allowed values/);
  });

  it('compiles the schema of every JSON answer the document describes (a `nullable` always beside its `type`)', () => {
    let compiled = 0;
    for (const { method, template, operation } of documentedOperations()) {
      for (const status of Object.keys(operation.responses ?? {}).filter((key) => /^\d{3}$/.test(key))) {
        expect(() => check(method, samplePath(template), Number(status), {}), `${method} ${template} → ${status}`).not.toThrow();
        compiled++;
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });

  it('holds unknown paths and methods to the error body', () => {
    expect(check('GET', '/api/v1/nowhere', 404, error)).toBeUndefined();
    expect(check('PATCH', '/api/v1/storage', 404, { data: {} })).toMatch(/not in the document/);
  });

  it('prefers a literal path to a template that also matches it', () => {
    expect(check('POST', '/api/v1/access-codes/validate', 200, { data: { valid: true, tier: 'free' } })).toBeUndefined();
  });

  it('leaves answers that are not JSON to the tests', () => {
    expect(check('GET', '/docs', 200, '<!doctype html>', 'text/html; charset=utf-8')).toBeUndefined();
  });

  it('holds a media type to those the document lists for the status', () => {
    const mediaType = (method: string, path: string, status: number, type: string | null) => responseChecker().checkMediaType(method, path, status, type);
    expect(mediaType('POST', '/mcp', 200, 'application/json')).toBeUndefined();
    expect(mediaType('GET', '/docs', 200, 'text/html; charset=utf-8')).toBeUndefined();
    expect(mediaType('POST', '/mcp', 202, null)).toBeUndefined();
    // A tool call that asks for progress is answered with events (services/execution README).
    expect(mediaType('POST', '/mcp', 200, 'text/event-stream')).toBeUndefined();
    expect(mediaType('GET', '/api/v1/tasks/x', 200, 'text/event-stream')).toBe('The answer to GET /api/v1/tasks/x → 200 is text/event-stream, but the document lists application/json for it');
    expect(mediaType('POST', '/mcp', 202, 'text/plain')).toMatch(/lists no body/);
    expect(mediaType('GET', '/api/v1/nowhere', 404, 'text/html')).toMatch(/lists application\/json/);
  });
});
