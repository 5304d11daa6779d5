import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_VERSION } from '@svc/contracts';
import { serveTestGateway } from '../testing/test-gateway.js';
import { buildOpenApiDocument } from './document.js';

const SECRET = 'docs-routes-secret-0123456789abcdef0123';

describe('GET /openapi.json and GET /docs', () => {
  let gateway: Awaited<ReturnType<typeof serveTestGateway>>;
  let url: string;

  beforeAll(async () => {
    gateway = await serveTestGateway('docs-test', SECRET);
    url = gateway.url;
  });
  afterAll(async () => {
    await gateway?.stop();
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
    expect(html).not.toMatch(/<script>/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(4);
    for (const asset of assets) {
      const reply = await fetch(`${url}${asset}`);
      expect(reply.status, asset).toBe(200);
      expect(reply.headers.get('x-content-type-options'), asset).toBe('nosniff');
      await reply.arrayBuffer();
    }
    expect(await (await fetch(`${url}/docs/assets/docs-init.js`)).text()).toContain("url: '/openapi.json'");
  });

  it("keeps the package's other files private: its demo page and initializer are a JSON 404", async () => {
    for (const file of ['index.html', 'swagger-initializer.js', 'package.json', '../package.json']) {
      const res = await fetch(`${url}/docs/assets/${file}`);
      expect(res.status, file).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });
});
