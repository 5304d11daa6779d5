import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '@svc/testing';
import { client } from './support/client.js';
import { startStandalone } from './support/standalone.js';

const ADMIN = { email: 'root-ops@example.test', password: 'standalone-admin-1' };

describe('standalone process', () => {
  const dataDir = makeDataDir('svc-standalone-');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every account after being killed and started again on the same data directory', async () => {
    const first = await startStandalone(dataDir, ADMIN);
    children.push(first.child);
    let call = client(first.url);
    const admin = await call('/api/v1/auth/login', { body: ADMIN });
    expect(admin.status).toBe(200);
    const code = await call('/api/v1/access-codes', { token: admin.body.data.tokens.accessToken, body: { tier: 'free', cohort: 'restart' } });
    const user = { email: 'survivor@example.test', password: 'survive-the-kill', slug: 'survivor', access_code: code.body.data.codes[0] };
    expect((await call('/api/v1/auth/register', { body: user })).status).toBe(201);

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startStandalone(dataDir, ADMIN);
    children.push(second.child);
    call = client(second.url);
    const login = await call('/api/v1/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const me = await call('/api/v1/auth/me', { token: login.body.data.tokens.accessToken });
    expect(me.body.data.tenantSlug).toBe('survivor');

    second.child.kill('SIGTERM');
    const code2 = await new Promise((r) => second.child.once('exit', (c) => r(c)));
    expect(code2).toBe(0);
  }, 120_000);
});
