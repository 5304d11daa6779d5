import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Config } from './config.js';
import { Context } from './context.js';
import { readEnv } from './env.js';
import { accessTokenExpiry, isExpiring, isRefreshToken } from './session.js';

/** An unsigned JWT-shaped token whose `exp` is `secondsFromNow` ahead: the CLI reads it, never verifies it. */
function jwt(secondsFromNow: number, mark = ''): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) + secondsFromNow, mark })}.c2ln`;
}

describe('the stored session', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-session-'));
    path = join(dir, 'config.toml');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const context = async () => {
    const env = readEnv({ HOME: dir, SVC_CONFIG: path });
    const io = { env, stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), cwd: dir };
    return Context.create(io, { verbose: false, quiet: false, config: undefined, output: 'json', nonInteractive: true });
  };

  it('reads when an access token ends, and which tokens are refresh tokens', () => {
    const token = jwt(900);
    expect(accessTokenExpiry(token)).toBeGreaterThan(Date.now() + 890_000);
    expect([isExpiring(token), isExpiring(jwt(10))]).toEqual([false, true]);
    expect(accessTokenExpiry('not.a.jwt')).toBeUndefined();
    expect([isRefreshToken('A'.repeat(43)), isRefreshToken(token), isRefreshToken('sk-svc-' + '0'.repeat(64))]).toEqual([true, false, false]);
  });

  it('renews once when two svc processes find the access token lapsed together, and both go on with the new session', async () => {
    const first = await context();
    await first.saveSession({ accessToken: jwt(-5, 'old'), refreshToken: 'r'.repeat(43), refreshExpiresAt: Date.now() + 86_400_000 });
    const second = await context();
    const spent: string[] = [];
    const exchange = async (refreshToken: string) => {
      spent.push(refreshToken);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { accessToken: jwt(900, 'new'), refreshToken: 'n'.repeat(43), refreshExpiresAt: Date.now() + 2 * 86_400_000 };
    };
    const renewals = await Promise.all([first.renewStored(exchange, { accessToken: first.token()! }), second.renewStored(exchange, { accessToken: second.token()! })]);
    expect(renewals.map((tokens) => tokens?.accessToken)).toEqual([first.token(), first.token()]);
    // The platform would end the session on a refresh token presented twice: it was spent once.
    expect(spent).toEqual(['r'.repeat(43)]);
    expect(first.token()).toBe(second.token());
    expect(second.config.string('auth.refresh_token')).toBe('n'.repeat(43));
    const stored = await Config.load(path, readEnv({ HOME: dir }));
    expect([stored.string('auth.token'), stored.string('auth.refresh_token')]).toEqual([first.token(), 'n'.repeat(43)]);
    expect(Date.parse(stored.string('auth.session_expires_at')!)).toBeGreaterThan(Date.now() + 86_400_000);
    expect(await readFile(path, 'utf8')).not.toContain('r'.repeat(43));
  });

  it('does not renew a session without a refresh token', async () => {
    const ctx = await context();
    await ctx.saveSession({ accessToken: jwt(-5) });
    let asked = false;
    expect(await ctx.renewStored(async () => ((asked = true), null), { accessToken: ctx.token()! })).toBeNull();
    expect(asked).toBe(false);
  });
});
