import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalIdentity, viewTokens } from '@svc/auth';
import { personalIdentity } from '@svc/auth/testing';
import { createBus, type Bus } from '@svc/bus';
import { PRINCIPAL_RPC } from '@svc/contracts';
import { serveTestGateway } from '../testing/test-gateway.js';
import { API_ORIGIN_FILE_POLICY, DASHBOARD_ORIGIN_FILE_POLICY } from './dashboard-files.js';

const SECRET = 'dashboard-files-secret-0123456789abcdef';
const viewer = { ...personalIdentity({ userId: randomUUID(), tenantId: randomUUID(), slug: 'viewer' }), sessionId: randomUUID() };
const SHARED = '/api/v1/shared-dashboards/dsh_x.y/bundle/1.0.0';

/**
 * The gateway's two origins with a dashboard service in miniature (every file it is asked for
 * is there, typed by extension, and it says who the gateway told it the caller is) and identity
 * answering for one live session.
 */
describe('dashboard files on the two origins', () => {
  let bus: Bus;
  let gateway: Awaited<ReturnType<typeof serveTestGateway>>;
  const tokens = viewTokens(SECRET);
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  beforeAll(async () => {
    bus = await createBus({});
    await bus.respond(PRINCIPAL_RPC, async (question) => ({ identity: 'sessionId' in question && question.sessionId === viewer.sessionId ? viewer : null }));
    const dashboard = express();
    dashboard.use(internalIdentity(SECRET));
    dashboard.use((req, res) => void res.type(extname(req.path) || 'bin').set('x-caller', req.identity?.userId ?? 'nobody').send('<svg><script>alert(1)</script></svg>'));
    gateway = await serveTestGateway('dashboard-files-test', SECRET, {}, { bus, inProcess: { dashboard } });
  });
  afterAll(async () => {
    await gateway?.stop();
    await bus?.close();
  });

  it('answers nothing of the API on the dashboard origin: only bundle files, read with GET or HEAD', async () => {
    for (const [path, method] of [
      ['/health', 'GET'],
      ['/openapi.json', 'GET'],
      ['/docs', 'GET'],
      ['/cli/login', 'GET'],
      ['/api/v1/auth/login', 'POST'],
      ['/api/v1/auth/refresh-cookie', 'POST'],
      ['/api/v1/dashboards', 'GET'],
      ['/api/v1/dashboards/board', 'GET'],
      ['/api/v1/shared-dashboards/dsh_x.y', 'GET'],
      [`${SHARED}/main.js`, 'POST'],
      [`${SHARED}/main.js`, 'OPTIONS'],
      ['/api/v1/shared-dashboards/dsh_x.y/bundle/1.0.0/', 'GET'],
    ] as const) {
      const res = await fetch(`${gateway.dashboardUrl}${path}`, { method });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
    const head = await fetch(`${gateway.dashboardUrl}${SHARED}/main.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  /** How `base` answers a file through the share link: the status and the headers that say what a browser may do with it. */
  const answerOf = async (base: string, file: string) => {
    const res = await fetch(`${base}${SHARED}/${file}`);
    await res.arrayBuffer();
    const names = ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'access-control-allow-origin', 'access-control-allow-credentials', 'cross-origin-resource-policy', 'content-disposition'];
    return { status: res.status, ...Object.fromEntries(names.map((name) => [name, res.headers.get(name)])) };
  };

  it('serves files on the dashboard origin as the dashboard\'s own: scripts run, in an opaque origin, readable without credentials', async () => {
    for (const file of ['index.html', 'evil.svg', 'x.xhtml', 'main.js']) {
      expect(await answerOf(gateway.dashboardUrl, file), file).toEqual({
        status: 200,
        'content-security-policy': DASHBOARD_ORIGIN_FILE_POLICY,
        'x-content-type-options': 'nosniff',
        'x-frame-options': null,
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': null,
        'cross-origin-resource-policy': 'cross-origin',
        'content-disposition': null,
      });
    }
    expect(DASHBOARD_ORIGIN_FILE_POLICY).toMatch(/^sandbox allow-scripts/);
    expect(DASHBOARD_ORIGIN_FILE_POLICY).not.toContain('allow-same-origin');
  });

  it('serves files on the API origin inert: sandboxed without scripts, and a download unless a script, style, image or font', async () => {
    const inline = ['main.js', 'app.mjs', 'style.css', 'logo.png', 'photo.JPG', 'evil.svg', 'font.woff2'];
    const downloads = ['index.html', 'x.xhtml', 'x.xml', 'data.json', 'notes.txt', 'module.wasm', 'noext', 'evil%2Esvg', 'a.svg%3F.html'];
    for (const file of [...inline, ...downloads]) {
      expect(await answerOf(gateway.url, file), file).toEqual({
        status: 200,
        'content-security-policy': API_ORIGIN_FILE_POLICY,
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'access-control-allow-origin': null,
        'access-control-allow-credentials': null,
        'cross-origin-resource-policy': 'same-origin',
        'content-disposition': downloads.includes(file) ? 'attachment' : null,
      });
    }
    expect(API_ORIGIN_FILE_POLICY).toMatch(/^sandbox;/);
  });

  it('reads files with a view token as the viewer while the session lives, on both origins', async () => {
    const token = tokens.sign({ dashboardId: randomUUID(), userId: viewer.userId, sessionId: viewer.sessionId, expiresAt: inAnHour() });
    for (const base of [gateway.dashboardUrl, gateway.url]) {
      const res = await fetch(`${base}/api/v1/dashboard-views/${token}/bundle/1.0.0/main.js`);
      await res.arrayBuffer();
      expect([res.status, res.headers.get('x-caller')]).toEqual([200, viewer.userId]);
    }
  });

  it('refuses a forged, expired or foreign view token, and one whose session has ended, with 401', async () => {
    const claims = { dashboardId: randomUUID(), userId: viewer.userId, sessionId: viewer.sessionId, expiresAt: inAnHour() };
    const refused = [
      viewTokens(`${SECRET}-other`).sign(claims),
      tokens.sign({ ...claims, expiresAt: Math.floor(Date.now() / 1000) - 1 }),
      tokens.sign({ ...claims, sessionId: randomUUID() }),
      tokens.sign({ ...claims, userId: randomUUID() }),
      'dvt_garbage',
    ];
    for (const token of refused) {
      const res = await fetch(`${gateway.dashboardUrl}/api/v1/dashboard-views/${token}/bundle/1.0.0/main.js`);
      const body = (await res.json()) as { error: { code: string } };
      expect([token.slice(0, 12), res.status, body.error.code]).toEqual([token.slice(0, 12), 401, 'AUTHENTICATION_FAILED']);
    }
  });

  it('still asks for a JWT on the spec\'s bundle path, on both origins', async () => {
    for (const base of [gateway.dashboardUrl, gateway.url]) {
      const res = await fetch(`${base}/api/v1/dashboards/board/bundle/1.0.0/index.html`);
      await res.arrayBuffer();
      expect(res.status, base).toBe(401);
    }
  });
});
