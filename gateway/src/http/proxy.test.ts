import { createHash, randomBytes } from 'node:crypto';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createLogger, REQUEST_ID_HEADER } from '@svc/core';
import { freePort } from '@svc/testing';
import { forwardTo, type Forwarder } from './proxy.js';

const SECRET = 'proxy-test-secret-of-enough-length';
const caller = personalIdentity({ userId: '00000000-0000-4000-8000-000000000001', tenantId: '00000000-0000-4000-8000-000000000002', slug: 'caller' });
const sign = (identity: typeof caller) => signInternalIdentity(identity, SECRET);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodySha256: string;
  bodyBytes: number;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function listening(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Plain `http`, so that the test may send the headers fetch refuses (`Connection`, `TE`) and chunked bodies. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer[]; agent?: Agent } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of options.body ?? []) req.write(chunk);
    req.end();
  });
}

describe('forwarding a request to a service over HTTP', () => {
  const log = createLogger({ service: 'proxy-test', silent: true });
  const seen: Seen[] = [];
  let leftSlow: () => void;
  const slowRequestClosed = new Promise<void>((resolve) => (leftSlow = resolve));
  const bigAnswer = randomBytes(3 * 2 ** 20);

  const service = createServer((req: IncomingMessage, res) => {
    if (req.url === '/slow') return void req.socket.once('close', leftSlow);
    if (req.url === '/cut') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('the first part');
      return void setTimeout(() => req.socket.destroy(), 50);
    }
    // Refuses before reading a byte of the body, as a size or media-type check does.
    if (req.url === '/refuse') return void res.writeHead(413, { 'content-type': 'application/json' }).end('{"refused":true}');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bigAnswer);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, bodySha256: sha256(body), bodyBytes: body.length });
      if (req.url === '/empty') return void res.writeHead(204).end();
      res.writeHead(201, [
        ['content-type', 'application/json'],
        ['set-cookie', 'a=1; Path=/'],
        ['set-cookie', 'b=2; Path=/'],
        ['x-service', 'storage'],
        ['keep-alive', 'timeout=42'],
      ]);
      res.end(JSON.stringify({ echoed: body.toString('utf8') }));
    });
  });

  let gatewayServer: Server;
  let gateway: string;
  let forwarders: Forwarder[];

  beforeAll(async () => {
    const serviceUrl = await listening(service);
    forwarders = [forwardTo('storage', serviceUrl, sign, log), forwardTo('admin', `http://127.0.0.1:${await freePort()}`, sign, log)];
    const app = express();
    app.use((req, _res, next) => {
      if (req.header('x-test-signed-in')) req.identity = caller;
      next();
    });
    // Nothing listens behind /nobody-home.
    app.use('/nobody-home', (req, res, next) => {
      req.url = req.originalUrl;
      forwarders[1]!.handle(req, res, next);
    });
    app.use(forwarders[0]!.handle);
    gatewayServer = createServer(app);
    gateway = await listening(gatewayServer);
  });

  afterAll(async () => {
    await closed(gatewayServer);
    await Promise.all(forwarders.map((forwarder) => forwarder.close()));
    service.closeAllConnections();
    await closed(service);
  });

  const last = () => seen[seen.length - 1]!;

  it("sends method, path, query, body and the client's headers, and returns status, every header and the body", async () => {
    const body = Buffer.from(JSON.stringify({ data: { text: 'hello' } }));
    const reply = await send(`${gateway}/api/v1/storage/notes?x=1&y=%C3%A9`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), authorization: 'Bearer abc', [REQUEST_ID_HEADER]: 'req-1' },
      body: [body],
    });
    expect(last()).toMatchObject({ method: 'PUT', url: '/api/v1/storage/notes?x=1&y=%C3%A9', bodySha256: sha256(body) });
    expect(last().headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer abc', [REQUEST_ID_HEADER]: 'req-1', host: new URL(gateway).host });
    expect(reply.status).toBe(201);
    expect(reply.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(reply.headers['x-service']).toBe('storage');
    expect(JSON.parse(reply.body.toString('utf8'))).toEqual({ echoed: body.toString('utf8') });
  });

  it("replaces a client's internal header with the gateway's signed identity, and drops it when nobody signed in", async () => {
    await send(`${gateway}/whoami`, { headers: { 'x-test-signed-in': '1', [INTERNAL_IDENTITY_HEADER]: 'forged' } });
    expect(last().headers[INTERNAL_IDENTITY_HEADER]).toBe(sign(caller));
    await send(`${gateway}/whoami`, { headers: { [INTERNAL_IDENTITY_HEADER]: sign(caller) } });
    expect(last().headers).not.toHaveProperty(INTERNAL_IDENTITY_HEADER);
  });

  it("never passes on a client's trace headers: the gateway's own span is the only traceparent a service is sent", async () => {
    await send(`${gateway}/whoami`, { headers: { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`, tracestate: 'vendor=client' } });
    expect(last().headers).not.toHaveProperty('traceparent');
    expect(last().headers).not.toHaveProperty('tracestate');
  });

  it('keeps the hop-by-hop headers of each connection to itself, and appends to X-Forwarded-*', async () => {
    const reply = await send(`${gateway}/hops`, {
      headers: { connection: 'keep-alive, x-private', 'x-private': 'secret', 'keep-alive': 'timeout=99', te: 'trailers', 'x-forwarded-for': '203.0.113.7' },
    });
    const headers = last().headers;
    expect(headers).not.toHaveProperty('x-private');
    expect(headers).not.toHaveProperty('te');
    expect(headers['keep-alive']).toBeUndefined();
    expect(headers['x-forwarded-for']).toBe('203.0.113.7,127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-port']).toBe(new URL(gateway).port);
    // The service's own Keep-Alive is about its connection with the gateway, not the client's.
    expect(reply.headers['keep-alive']).not.toBe('timeout=42');
  });

  it('streams a chunked upload of 5 MB and an answer of 3 MB whole', async () => {
    const parts = Array.from({ length: 80 }, () => randomBytes(64 * 1024));
    const reply = await send(`${gateway}/upload`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: parts });
    expect(reply.status).toBe(201);
    expect(last()).toMatchObject({ bodyBytes: 80 * 64 * 1024, bodySha256: sha256(Buffer.concat(parts)) });
    expect(last().headers).not.toHaveProperty('content-length');
    const big = await send(`${gateway}/big`);
    expect(sha256(big.body)).toBe(sha256(bigAnswer));
  });

  /** Sends the first part of a body, and the rest once the answer has come. */
  function refusedMidBody(agent: Agent, headers: Record<string, string>, parts: [Buffer, Buffer]): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(`${gateway}/refuse`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          req.end(parts[1]);
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.write(parts[0]);
    });
  }

  // The rest of the body, left unread, stalled the client's connection until the keep-alive
  // timeout cut it, and the client's next request on it met ECONNRESET (RELIABILITY.md, finding 3).
  it("passes on a service's refusal given before the body was all sent, and the client's kept-alive connection serves the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const count = () => (connections += 1);
    gatewayServer.on('connection', count);
    try {
      for (const chunked of [false, true]) {
        const parts: [Buffer, Buffer] = [randomBytes(64 * 1024), randomBytes(256 * 1024)];
        const length: Record<string, string> = chunked ? {} : { 'content-length': String(parts[0].length + parts[1].length) };
        const reply = await refusedMidBody(agent, length, parts);
        expect([reply.status, reply.body.toString('utf8')]).toEqual([413, '{"refused":true}']);
        expect((await send(`${gateway}/whoami`, { agent })).status).toBe(201);
      }
      expect(connections).toBe(1);
    } finally {
      gatewayServer.off('connection', count);
      agent.destroy();
    }
  });

  it('passes an answer without a body, to GET and to HEAD', async () => {
    const empty = await send(`${gateway}/empty`, { method: 'DELETE' });
    expect([empty.status, empty.body.length]).toEqual([204, 0]);
    expect(last().method).toBe('DELETE');
    const head = await send(`${gateway}/whoami`, { method: 'HEAD' });
    expect([head.status, head.body.length, last().method]).toEqual([201, 0, 'HEAD']);
  });

  it('answers 503 SERVICE_UNAVAILABLE in the error format, with the correlation id, when the service does not answer', async () => {
    const error = vi.spyOn(log, 'error');
    const reply = await send(`${gateway}/nobody-home/api/v1/admin/stats`, { headers: { [REQUEST_ID_HEADER]: 'req-503' } });
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.body.toString('utf8'))).toMatchObject({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The admin service is unavailable', details: { service: 'admin' } },
    });
    expect(error).toHaveBeenCalledWith('service unreachable', expect.objectContaining({ service: 'admin', correlation_id: 'req-503' }));
  });

  it("cancels the service's request when the client leaves before the answer", async () => {
    const req = request(`${gateway}/slow`, { agent: false });
    req.on('error', () => {});
    req.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.destroy();
    await slowRequestClosed;
  });

  it("cuts the client's connection when the service's answer breaks off, rather than leaving it waiting", async () => {
    await expect(send(`${gateway}/cut`)).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
  });
});
