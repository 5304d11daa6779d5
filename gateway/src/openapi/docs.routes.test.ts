import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '@svc/bus';
import { createCache, type Cache } from '@svc/cache';
import { createLogger } from '@svc/core';
import { closeServer, listen } from '@svc/platform';
import { SVC_VERSION } from '@svc/contracts';
import { createGateway, type Gateway } from '../app.js';
import { testGatewaySettings } from '../testing/test-gateway.js';
import { buildOpenApiDocument } from './document.js';

const SECRET = 'docs-routes-secret-0123456789abcdef0123';

describe('GET /openapi.json and GET /docs', () => {
  let cache: Cache;
  let bus: Bus;
  let gateway: Gateway;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    cache = createCache({});
    bus = await createBus({});
    gateway = createGateway({ cache, bus, log: createLogger({ service: 'docs-test', level: 'error', silent: true }), ...testGatewaySettings(SECRET, { rateLimitEnabled: true }) });
    server = await listen(gateway.app, 0, '127.0.0.1');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await gateway?.stop();
    await bus?.close();
    await cache?.close();
  });

  it('serves the assembled document without credentials', async () => {
    const res = await fetch(`${url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const document = await res.json();
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(document).toMatchObject({ openapi: '3.0.3', info: { version: SVC_VERSION } });
  });

  it('renders Swagger UI from assets the gateway serves itself', async () => {
    const res = await fetch(`${url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain("url: '/openapi.json'");
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(3);
    for (const asset of assets) {
      const reply = await fetch(`${url}${asset}`);
      expect(reply.status, asset).toBe(200);
      await reply.arrayBuffer();
    }
  });

  it("keeps the package's other files private: its demo page and initializer are a JSON 404", async () => {
    for (const file of ['index.html', 'swagger-initializer.js', 'package.json', '../package.json']) {
      const res = await fetch(`${url}/docs/assets/${file}`);
      expect(res.status, file).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });
});
