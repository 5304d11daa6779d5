import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, dataOf, NotFoundError, RateLimitError, ServiceUnavailableError, SvcError, ValidationError, type RetryInfo, type Tokens } from './index.js';

/** A local server answering each request from a script of answers, keeping what it was sent. */
let server: Server;
let baseUrl: string;
let script: Array<{ status: number; headers?: Record<string, string>; body?: unknown }> = [];
const seen: Array<{ method: string; url: string; authorization?: string; contentType?: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString() });
      const next = script.shift() ?? { status: 200, body: { data: { ok: true } } };
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers }).end(JSON.stringify(next.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen.length = 0;
});

const unavailable = { status: 503, headers: { 'retry-after': '0' }, body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } } };

describe('the transport of @svc/client', () => {
  it('sends a GET again after a 503, and the API key on every try', async () => {
    script = [unavailable, unavailable];
    const svc = createClient({ baseUrl, apiKey: 'sk-svc-abc' });
    expect(await svc.storage.get('k')).toEqual({ ok: true });
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer sk-svc-abc', 'Bearer sk-svc-abc', 'Bearer sk-svc-abc']);
  });

  it('never sends a POST without an Idempotency-Key twice after a 503, and does with one', async () => {
    script = [unavailable];
    const svc = createClient({ baseUrl, apiKey: 'sk-svc-abc' });
    await expect(svc.run('acme/echo', { a: 1 })).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(seen).toHaveLength(1);
    script = [unavailable, { status: 200, body: { data: { result: { a: 1 }, execution: {} } } }];
    expect(await svc.run('acme/echo', { a: 1 }, { idempotencyKey: 'once' })).toEqual({ a: 1 });
    expect(seen.slice(1).map((s) => s.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('waits out a 429 for any method, but not past maxRetryWaitMs nor more than maxRetries times', async () => {
    const limited = (after: string) => ({ status: 429, headers: { 'retry-after': after }, body: { success: false, error: { message: 'slow down' } } });
    const retries: RetryInfo[] = [];
    const svc = createClient({ baseUrl, apiKey: 'sk-svc-abc', maxRetries: 2, maxRetryWaitMs: 5000, onRetry: (r) => void retries.push(r) });
    script = [limited('1'), { status: 200, body: { data: { result: 1 } } }];
    const started = Date.now();
    expect(await svc.run('acme/echo')).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(retries).toMatchObject([{ attempt: 1, status: 429, waitMs: 1000, method: 'POST' }]);
    script = [limited('3600')];
    const refused = await svc.run('acme/echo').catch((err) => err);
    // A reduced body: the status gives the code.
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 3600, message: 'slow down' });
    script = [limited('0'), limited('0'), limited('0')];
    await expect(svc.storage.get('k')).rejects.toBeInstanceOf(RateLimitError);
  });

  it('maps the error body to its class with code, details and correlation id', async () => {
    script = [{ status: 400, body: { success: false, error: { type: 'ValidationError', code: 'VALIDATION_FAILED', message: 'bad', details: { field: 'key' }, correlation_id: 'c-1' } } }];
    const err = await createClient({ baseUrl }).storage.get('k').catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toBeInstanceOf(SvcError);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', details: { field: 'key' }, correlationId: 'c-1', type: 'ValidationError' });
  });

  it('renews once on a 401 with the refresh token, rotating it, and sends the request again', async () => {
    script = [
      { status: 401, body: { success: false, error: { code: 'AUTHENTICATION_FAILED', message: 'expired' } } },
      { status: 200, body: { data: { accessToken: 'new-access', refreshToken: 'new-refresh', expiresAt: Date.now() + 900_000 } } },
    ];
    const svc = createClient({ baseUrl, accessToken: 'old-access', refreshToken: 'old-refresh' });
    expect(await svc.storage.get('k')).toEqual({ ok: true });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.authorization ?? ''}`)).toEqual(['GET /api/v1/storage/k Bearer old-access', 'POST /api/v1/auth/refresh ', 'GET /api/v1/storage/k Bearer new-access']);
    expect(JSON.parse(seen[1]!.body)).toEqual({ refreshToken: 'old-refresh' });
    expect(svc.session.tokens).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
  });

  it('waits out a renewal refused for a rate limit, telling onRetry, rather than ending the session', async () => {
    const limited = { status: 429, headers: { 'retry-after': '1' }, body: { success: false, error: { code: 'RATE_LIMITED', message: 'Rate limit reached: 20 requests a minute per address; retry in 1 s' } } };
    script = [limited, { status: 200, body: { data: { accessToken: 'fresh', refreshToken: 'r2', expiresAt: Date.now() + 900_000 } } }];
    const retries: RetryInfo[] = [];
    const svc = createClient({ baseUrl, refreshToken: 'r1', onRetry: (r) => void retries.push(r) });
    expect(await svc.session.refresh()).toBe(true);
    expect(seen.map((s) => `${s.method} ${s.url} ${s.authorization ?? ''}`)).toEqual(['POST /api/v1/auth/refresh ', 'POST /api/v1/auth/refresh ']);
    expect(seen.map((s) => JSON.parse(s.body))).toEqual([{ refreshToken: 'r1' }, { refreshToken: 'r1' }]);
    expect(retries).toMatchObject([{ status: 429, waitMs: 1000, method: 'POST' }]);
    expect(svc.session.tokens).toMatchObject({ accessToken: 'fresh', refreshToken: 'r2' });
  });

  it('refreshes once for requests that find the token expired together', async () => {
    script = [{ status: 200, body: { data: { accessToken: 'fresh', refreshToken: 'r2', expiresAt: Date.now() + 900_000 } } }];
    const svc = createClient({ baseUrl, refreshToken: 'r1' });
    await Promise.all([svc.storage.get('a'), svc.storage.get('b'), svc.storage.get('c')]);
    expect(seen.filter((s) => s.url === '/api/v1/auth/refresh')).toHaveLength(1);
    expect(seen.filter((s) => s.url.startsWith('/api/v1/storage/')).map((s) => s.authorization)).toEqual(['Bearer fresh', 'Bearer fresh', 'Bearer fresh']);
  });

  it('tells onRetry what the retried answer said, so that a caller can name the limit it waits for', async () => {
    const details = { limit: 'requests_per_minute', tier: 'free', resets_at: '2026-11-27T10:00:00.000Z' };
    script = [{ status: 429, headers: { 'retry-after': '0' }, body: { success: false, error: { code: 'RATE_LIMITED', message: 'Rate limit of the free tier', details } } }];
    const retries: RetryInfo[] = [];
    await createClient({ baseUrl, apiKey: 'sk-svc-abc', onRetry: (r) => void retries.push(r) }).storage.get('k');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error).toBeInstanceOf(RateLimitError);
    expect(retries[0]!.error).toMatchObject({ code: 'RATE_LIMITED', message: 'Rate limit of the free tier', details });
  });

  it('renews through renewWith, which may answer the tokens another holder renewed to instead of spending the refresh token', async () => {
    const calls: Tokens[] = [];
    const adopted = { accessToken: 'from-elsewhere', refreshToken: 'r-elsewhere', expiresAt: Date.now() + 900_000 };
    const svc = createClient({ baseUrl, refreshToken: 'r1', renewWith: async (_exchange, current) => (calls.push(current), adopted) });
    await svc.storage.get('a');
    expect(calls).toMatchObject([{ refreshToken: 'r1' }]);
    expect(seen.map((s) => `${s.url} ${s.authorization}`)).toEqual(['/api/v1/storage/a Bearer from-elsewhere']);
    expect(svc.session.tokens).toMatchObject({ accessToken: 'from-elsewhere', refreshToken: 'r-elsewhere' });
  });

  it('renewWith exchanges a refresh token of its choosing and keeps the rotated pair with its end; a refused one ends the session', async () => {
    const refreshExpiresAt = Date.now() + 30 * 86_400_000;
    script = [{ status: 200, body: { data: { accessToken: 'fresh', refreshToken: 'r3', expiresAt: Date.now() + 900_000, refreshExpiresAt } } }];
    const kept: Array<Tokens | null> = [];
    const svc = createClient({ baseUrl, refreshToken: 'r1', renewWith: async (exchange) => { const tokens = await exchange('r2-on-disk'); kept.push(tokens); return tokens; } });
    await svc.storage.get('a');
    expect(JSON.parse(seen[0]!.body)).toEqual({ refreshToken: 'r2-on-disk' });
    expect(kept).toMatchObject([{ accessToken: 'fresh', refreshToken: 'r3', refreshExpiresAt }]);
    expect(svc.session.tokens).toMatchObject({ accessToken: 'fresh', refreshToken: 'r3', refreshExpiresAt });

    script = [{ status: 401, body: { success: false, error: { code: 'TOKEN_REUSED', message: 'spent' } } }];
    const ended = createClient({ baseUrl, refreshToken: 'r1', renewWith: (exchange) => exchange('spent') });
    await ended.storage.get('b').catch(() => undefined);
    expect(ended.session.tokens).toBeUndefined();
  });

  it('uploads a multipart form with the credentials, answering its data or throwing the error', async () => {
    script = [{ status: 201, body: { success: true, data: { synced: true } } }];
    const svc = createClient({ baseUrl, apiKey: 'sk-svc-abc' });
    const form = new FormData();
    form.append('package', new Blob([new Uint8Array([1, 2, 3])]), 'pack.tar.gz');
    form.append('signature', 'c2ln');
    expect(await svc.upload('PUT', '/api/v1/sandbox/packs', form)).toEqual({ synced: true });
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/api/v1/sandbox/packs', authorization: 'Bearer sk-svc-abc' });
    expect(seen[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('name="signature"');
    script = [{ status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'no sandbox' } } }];
    await expect(svc.upload('PUT', '/api/v1/sandbox/packs', form)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('dataOf takes the envelope off any api call, or throws its error', async () => {
    script = [{ status: 200, body: { success: true, data: { mode: 'consumer' } } }, { status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'gone' } } }];
    const svc = createClient({ baseUrl, apiKey: 'sk-svc-abc' });
    expect(await dataOf(svc.api.GET('/api/v1/account/mode', {}))).toEqual({ mode: 'consumer' });
    await expect(dataOf(svc.api.GET('/api/v1/account/mode', {}))).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'gone' });
  });
});
