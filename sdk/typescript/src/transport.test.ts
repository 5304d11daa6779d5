import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, RateLimitError, ServiceUnavailableError, SvcError, ValidationError, type RetryInfo } from './index.js';

/** A local server answering each request from a script of answers, keeping what it was sent. */
let server: Server;
let baseUrl: string;
let script: Array<{ status: number; headers?: Record<string, string>; body?: unknown }> = [];
const seen: Array<{ method: string; url: string; authorization?: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
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

  it('refreshes once for requests that find the token expired together', async () => {
    script = [{ status: 200, body: { data: { accessToken: 'fresh', refreshToken: 'r2', expiresAt: Date.now() + 900_000 } } }];
    const svc = createClient({ baseUrl, refreshToken: 'r1' });
    await Promise.all([svc.storage.get('a'), svc.storage.get('b'), svc.storage.get('c')]);
    expect(seen.filter((s) => s.url === '/api/v1/auth/refresh')).toHaveLength(1);
    expect(seen.filter((s) => s.url.startsWith('/api/v1/storage/')).map((s) => s.authorization)).toEqual(['Bearer fresh', 'Bearer fresh', 'Bearer fresh']);
  });
});
