import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '@svc/testing';
import { client } from './support/client.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { email: 'root-ops@example.test', password: 'standalone-admin-1' };

/** Starts `deploy/standalone` as its own process and resolves with its URL once it is serving. */
function startStandalone(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/standalone/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_EMAIL: ADMIN.email,
      SVC_ADMIN_PASSWORD: ADMIN.password,
      SVC_BCRYPT_ROUNDS: '4',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`standalone did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"svc is up"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(line).url });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`standalone exited with ${code}:\n${output}`)));
  });
}

describe('standalone process', () => {
  const dataDir = makeDataDir('svc-standalone-');
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every account after being killed and started again on the same data directory', async () => {
    const first = await startStandalone(dataDir);
    children.push(first.child);
    let call = client(first.url);
    const admin = await call('/api/v1/auth/login', { body: ADMIN });
    expect(admin.status).toBe(200);
    const code = await call('/api/v1/access-codes', { token: admin.body.data.tokens.accessToken, body: { tier: 'free', cohort: 'restart' } });
    const user = { email: 'survivor@example.test', password: 'survive-the-kill', slug: 'survivor', access_code: code.body.data.codes[0] };
    expect((await call('/api/v1/auth/register', { body: user })).status).toBe(201);

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startStandalone(dataDir);
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
