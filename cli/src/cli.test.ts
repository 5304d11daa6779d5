import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './errors.js';
import { scratchHome, svc } from './testing/run-cli.js';

/** A local server answering every request with `status` and the platform's error body. */
async function answering(status: number, code: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, error: { type: 'Error', message: `answered ${status}`, code, details: {}, correlation_id: 'c-1', timestamp: new Date().toISOString() } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('svc: config, output and exit codes', () => {
  let home: Awaited<ReturnType<typeof scratchHome>>;
  const run = (args: string[], env: Record<string, string> = {}) => svc(args, { cwd: home.dir, env: { ...home.env, ...env } });

  beforeAll(async () => {
    home = await scratchHome();
  });
  afterAll(async () => {
    await home.remove();
  });

  it('writes the config file where SVC_CONFIG says, mode 0600, and reads it back', async () => {
    expect((await run(['config', 'set', 'registry.url', 'http://svc.test:8080/'])).code).toBe(0);
    expect((await run(['config', 'set', 'auth.token', 'sk-svc-' + 'a'.repeat(64)])).code).toBe(0);
    const path = home.env.SVC_CONFIG!;
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(path))).mode & 0o777).toBe(0o700);
    expect(await readFile(path, 'utf8')).toContain('[registry]\nurl = "http://svc.test:8080"');
    expect((await run(['config', 'path'])).stdout.trim()).toBe(path);
    const got = (await run(['config', 'get', 'registry.url', '--output', 'json'])).json();
    expect(got).toEqual({ success: true, command: 'config get', data: { key: 'registry.url', value: 'http://svc.test:8080', source: 'file' } });
    const token = (await run(['-o', 'json', 'config', 'get', 'auth.token'])).json().data;
    expect(token.value).not.toContain('a'.repeat(20));
  });

  it('lets SVC_* variables override the file, and --config name another file', async () => {
    const fromEnv = (await run(['config', 'get', 'registry.url', '-o', 'json'], { SVC_REGISTRY_URL: 'http://other.test' })).json().data;
    expect(fromEnv).toMatchObject({ value: 'http://other.test', source: 'env' });
    const level = (await run(['config', 'get', 'dev.log_level', '-o', 'json'], { SVC_LOG_LEVEL: 'warn' })).json().data;
    expect(level).toMatchObject({ value: 'warn', source: 'env' });
    const elsewhere = `${home.dir}/elsewhere.toml`;
    const listed = (await run(['--config', elsewhere, 'config', 'list', '--output', 'json'])).json().data;
    expect(listed.path).toBe(elsewhere);
    expect(listed.entries.find((entry: { key: string }) => entry.key === 'registry.url')).toMatchObject({ value: 'http://localhost:8080', source: 'default' });
  });

  it('prints exactly one JSON envelope per invocation, for failures too, and nothing else on stdout', async () => {
    const failed = await run(['config', 'set', 'dev.port', 'eighty', '--output', 'json']);
    expect(failed.code).toBe(EXIT_CODES.validation);
    expect(failed.json()).toMatchObject({ success: false, command: 'config set', error: { kind: 'validation', code: 'CONFIG_VALUE_INVALID', exit_code: 3 } });
    const usage = await run(['config', 'get', '--output', 'json']);
    expect(usage.code).toBe(3);
    expect(usage.json()).toMatchObject({ success: false, error: { code: 'USAGE' } });
  });

  it('answers 0 with --help and --version', async () => {
    const version = await run(['--version']);
    expect([version.code, version.stdout.trim()]).toEqual([0, '0.1.0']);
    const help = await run(['pack', 'build', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--sign');
  });

  describe('exit codes, one provoked each', () => {
    let fake5xx: { url: string; server: Server };
    let fake401: { url: string; server: Server };
    beforeAll(async () => {
      fake5xx = await answering(503, 'SERVICE_UNAVAILABLE');
      fake401 = await answering(401, 'AUTHENTICATION_FAILED');
    });
    afterAll(() => {
      fake5xx.server.close();
      fake401.server.close();
    });

    it('1: a general error (a template Python packs do not have)', async () => {
      const reply = await run(['pack', 'new', 'snake', '--namespace', 'ada', '--python', '--template', 'full', '-o', 'json']);
      expect(reply.code).toBe(1);
      expect(reply.json().error).toMatchObject({ kind: 'general', code: 'TEMPLATE_UNSUPPORTED' });
      expect(reply.json().error.message).toMatch(/Python packs start from the basic template/);
    });

    it('2: an authentication error (nothing signed in)', async () => {
      const reply = await run(['install', '@ada/tools', '-o', 'json', '--config', `${home.dir}/signed-out.toml`]);
      expect([reply.code, reply.json().error.code]).toEqual([2, 'NOT_SIGNED_IN']);
      const refused = await run(['list', '-o', 'json'], { SVC_TOKEN: 'sk-svc-' + 'b'.repeat(64), SVC_REGISTRY_URL: fake401.url });
      expect([refused.code, refused.json().error.code]).toEqual([2, 'AUTHENTICATION_FAILED']);
    });

    it('2: a token that is neither an access token nor an API key, telling the user to sign in again', async () => {
      const healthy = await answering(200, 'OK');
      try {
        for (const args of [['status', '--json'], ['login', '--token', 'not-a-token', '-o', 'json']]) {
          const reply = await run(args, { SVC_TOKEN: 'not-a-token', SVC_REGISTRY_URL: healthy.url });
          expect(reply.code, reply.stdout).toBe(EXIT_CODES.auth);
          expect(reply.json().error).toMatchObject({ kind: 'auth', code: 'TOKEN_INVALID', exit_code: 2, message: expect.stringContaining('run `svc login`') });
        }
        const text = await run(['status'], { SVC_TOKEN: 'not-a-token', SVC_REGISTRY_URL: healthy.url });
        expect(text.code).toBe(2);
        expect(text.stderr).toMatch(/neither an access token .* run `svc login`/);
      } finally {
        healthy.server.close();
      }
    });

    it('3: a validation error (a config file that is not TOML)', async () => {
      const broken = `${home.dir}/broken.toml`;
      await writeFile(broken, '[registry\nurl = 1');
      const reply = await run(['-c', broken, 'config', 'list', '-o', 'json']);
      expect([reply.code, reply.json().error.code]).toEqual([3, 'CONFIG_INVALID']);
    });

    it('4: a network error (nothing listening)', async () => {
      const closed = await answering(200, 'x');
      closed.server.close();
      const reply = await run(['status', '--json'], { SVC_REGISTRY_URL: closed.url });
      expect([reply.code, reply.json().error.kind, reply.json().error.code]).toEqual([4, 'network', 'ECONNREFUSED']);
      // Where the address came from, so that a wrong one can be put right.
      expect(reply.json().error.message).toContain(`the platform at ${closed.url}: set by SVC_API_URL, SVC_REGISTRY_URL or \`svc config set registry.url <url>\``);
    });

    it('5: a server error (a 5xx answer)', async () => {
      const reply = await run(['list', '-o', 'json'], { SVC_TOKEN: 'sk-svc-' + 'c'.repeat(64), SVC_REGISTRY_URL: fake5xx.url });
      expect([reply.code, reply.json().error.kind, reply.json().error.code]).toEqual([5, 'server', 'SERVICE_UNAVAILABLE']);
    });
  });

  it('renews an expired access token once with the stored refresh token, and saves both', async () => {
    const jwt = (n: string) => `h.${n}.s`;
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? body}`);
        res.setHeader('content-type', 'application/json');
        if (req.url === '/api/v1/auth/refresh') return res.end(JSON.stringify({ data: { accessToken: jwt('new'), refreshToken: 'refresh-2', expiresAt: Date.now() + 900_000 } }));
        if (req.headers.authorization !== `Bearer ${jwt('new')}`) return res.writeHead(401).end(JSON.stringify({ success: false, error: { code: 'AUTHENTICATION_FAILED', message: 'expired' } }));
        res.end(JSON.stringify({ data: { packs: [] } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const config = `${home.dir}/refresh.toml`;
    await writeFile(config, `[auth]\ntoken = "${jwt('old')}"\nrefresh_token = "refresh-1"\n`);
    try {
      const reply = await run(['list', '-o', 'json', '-c', config], { SVC_REGISTRY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect(reply.code, reply.stdout).toBe(0);
      expect(seen).toEqual([`GET /api/v1/packs Bearer ${jwt('old')}`, 'POST /api/v1/auth/refresh {"refreshToken":"refresh-1"}', `GET /api/v1/packs Bearer ${jwt('new')}`]);
      expect(await readFile(config, 'utf8')).toContain('refresh_token = "refresh-2"');
    } finally {
      server.close();
    }
  });

  it('takes a pasted access token, which works until it ends and says when, with no session to renew', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 900;
    const token = `${part({ alg: 'HS256' })}.${part({ exp })}.c2ln`;
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/v1/auth/me' && req.headers.authorization === `Bearer ${token}`) {
        return res.end(JSON.stringify({ data: { id: 'u-1', email: 'ada@example.com', developerMode: false, tenantSlug: 'ada', subscriptionTier: 'free' } }));
      }
      res.writeHead(404).end(JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'no' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = { SVC_REGISTRY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    const config = `${home.dir}/pasted.toml`;
    try {
      const reply = await run(['login', '--token', token, '-o', 'json', '-c', config], env);
      expect(reply.code, reply.stdout).toBe(0);
      expect(reply.json().data).toMatchObject({ token_kind: 'access_token', refreshable: false, expires_at: new Date(exp * 1000).toISOString(), user: { email: 'ada@example.com' } });
      const text = await run(['login', '--token', token, '-c', config], env);
      expect(text.stdout).toMatch(/This access token ends in 15 minutes \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\) and cannot be renewed/);
      expect(await readFile(config, 'utf8')).not.toContain('refresh_token');
    } finally {
      server.close();
    }
  });

  it('names the limit of a 429 with its tier and reset; sits through a short wait once, but never with --non-interactive', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls += 1;
      res.setHeader('content-type', 'application/json');
      if (calls % 2 === 0) return res.end(JSON.stringify({ data: { packs: [] } }));
      const details = { retry_after: 1, limit: 10, window_seconds: 60, limit_kind: 'requests_per_minute', tier: 'free', resets_at: new Date(Date.now() + 1000).toISOString() };
      res.writeHead(429, { 'retry-after': '1' }).end(JSON.stringify({ success: false, error: { type: 'RateLimitError', code: 'RATE_LIMITED', message: 'Rate limit reached: the free tier allows 10 requests a minute; retry in 1 s', details, retry_after: 1 } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = { SVC_TOKEN: 'sk-svc-' + 'e'.repeat(64), SVC_REGISTRY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    try {
      const waited = await run(['list'], env);
      expect([waited.code, calls]).toEqual([0, 2]);
      expect(waited.stderr).toContain('warning: Rate limit reached: the free tier allows 10 requests a minute: waiting 1 s, then trying once more');
      const refused = await run(['list', '--non-interactive'], env);
      expect([refused.code, calls]).toEqual([1, 3]);
      expect(refused.stderr).toMatch(/the free tier allows 10 requests a minute; retry in 1 s \(at \d{4}-\d\d-\d\d \d\d:\d\d UTC\); a developer_preview access code or a paid plan raises it/);
    } finally {
      server.close();
    }
  });

  it('never prompts without a terminal: a confirmation asks for --force instead', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { packs: [{ id: '00000000-0000-4000-8000-000000000000', name: 'tools', namespace: 'ada', version: '1.0.0', visibility: 'private', commands: 1, installed_at: new Date().toISOString(), status: 'active' }] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const reply = await run(['uninstall', '@ada/tools', '-o', 'json'], { SVC_TOKEN: 'sk-svc-' + 'd'.repeat(64), SVC_REGISTRY_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect([reply.code, reply.json().error.code]).toEqual([3, 'CONFIRMATION_REQUIRED']);
    } finally {
      server.close();
    }
  });
});
