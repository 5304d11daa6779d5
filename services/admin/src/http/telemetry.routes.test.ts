import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, type Bus } from '@svc/bus';
import { createLogger } from '@svc/core';
import { testDatabaseKinds, type TestDatabase } from '@svc/db/testing';
import { closeServer, createServiceApp, listen } from '@svc/platform';
import { createAdminService, type AdminServiceHandle } from '../app.js';

const log = createLogger({ service: 'test', silent: true });
const RECORD = { command: 'run', duration_ms: 1234, success: true, python_version: '3.12.1', os: 'linux', cli_version: '0.4.0-beta.1' };

describe.each(testDatabaseKinds())('POST /api/v1/telemetry on $name', (kind) => {
  let db: TestDatabase;
  let bus: Bus;
  let admin: AdminServiceHandle;
  let server: Server;
  let base: string;

  async function post(body: unknown, raw?: string) {
    const res = await fetch(`${base}/api/v1/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  beforeAll(async () => {
    db = await kind.open();
    bus = await createBus({ logger: log });
    admin = createAdminService({ database: db.database, bus, log, config: { auditKey: 'admin-telemetry-test-audit-key-0123456789' } });
    await admin.start();
    server = await listen(createServiceApp({ service: 'test', routes: admin.routes, internalSecret: 'admin-routes-test-secret-0123456789abcdef', log }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (server) await closeServer(server);
    await admin?.stop();
    await bus?.close();
    await db?.dispose();
  });

  it('stores a record without credentials and answers received', async () => {
    expect(await post(RECORD)).toEqual({ status: 200, body: { data: { received: true } } });
    const [stored] = await admin.telemetry.latest(1);
    expect(stored).toMatchObject({ command: 'run', durationMs: 1234, success: true, pythonVersion: '3.12.1', os: 'linux', cliVersion: '0.4.0-beta.1' });
  });

  it('accepts a record without python_version and a platform command name', async () => {
    const { python_version: _omitted, ...rest } = RECORD;
    expect((await post({ ...rest, command: '@acme/tools/hello', success: false, duration_ms: 0, os: 'Windows 11' })).status).toBe(200);
    expect((await admin.telemetry.latest(1))[0]).toMatchObject({ command: '@acme/tools/hello', pythonVersion: null, success: false, os: 'Windows 11' });
  });

  it.each([
    ['an unknown field', { ...RECORD, user_email: 'a@b.c' }, 'body'],
    ['a missing command', { ...RECORD, command: undefined }, 'command'],
    ['a command with arguments in it', { ...RECORD, command: 'run --token=abc' }, 'command'],
    ['a command of 129 characters', { ...RECORD, command: 'x'.repeat(129) }, 'command'],
    ['a fractional duration', { ...RECORD, duration_ms: 1.5 }, 'duration_ms'],
    ['a negative duration', { ...RECORD, duration_ms: -1 }, 'duration_ms'],
    ['a duration over one day', { ...RECORD, duration_ms: 86_400_001 }, 'duration_ms'],
    ['success as a string', { ...RECORD, success: 'yes' }, 'success'],
    ['a malformed version', { ...RECORD, cli_version: '1.0 (dev build)' }, 'cli_version'],
    ['an empty os', { ...RECORD, os: '' }, 'os'],
    ['a JSON array', [RECORD], 'body'],
  ])('refuses %s with 400', async (_label, body, field) => {
    const reply = await post(body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });

  it('refuses malformed JSON with 400', async () => {
    expect((await post(undefined, '{"command":')).status).toBe(400);
  });
});
