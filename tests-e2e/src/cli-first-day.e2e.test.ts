import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { spawnSvc, svcProcess, waitForText, type CliResult } from '@svc/cli/testing';
import { adminToken, signUp, type TestUser } from './support/accounts.js';
import { cliHome } from './support/cli-home.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

const BUILT_PACKAGE = fileURLToPath(new URL('../../cli/dist-package/svc-cli.tgz', import.meta.url));
/** The access tokens of this fleet last this long, so that the test can wait past one. */
const ACCESS_TTL_SECONDS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A new pack developer's first day, with the `svc` the platform serves installed from its URL as
 * a person would: every step a process of its own against the whole fleet.
 */
describe.each(oneMode('real'))("a pack developer's first day with the svc the platform serves (%s)", (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  let home: string;
  let work: string;
  let remove: () => Promise<void>;
  let bin: string;

  beforeAll(async () => {
    fleet = await startTestFleet(mode, { accessTtlSeconds: ACCESS_TTL_SECONDS });
    call = client(fleet.url);
    dev = await signUp(call, await adminToken(call), { tier: 'developer_preview' });
    ({ home, work, remove } = await cliHome('svc-first-day-'));
  });
  afterAll(async () => {
    await fleet?.stop();
    await remove?.();
  });

  const configPath = () => join(home, '.config', 'svc', 'config.toml');
  const env = (config = configPath()) => ({ HOME: home, SVC_CONFIG: config, SVC_REGISTRY_URL: fleet.url, NO_COLOR: '1' });
  const svc = (args: string[], cwd = work, config?: string): Promise<CliResult> => svcProcess([...args, '-o', 'json'], { cwd, env: env(config), bin });
  const ok = async (args: string[], cwd?: string) => {
    const reply = await svc(args, cwd);
    expect(reply.code, `svc ${args.join(' ')}\n${reply.stdout}${reply.stderr}`).toBe(0);
    return reply.json().data;
  };
  const storedAuth = async (path = configPath()) => (parse(await readFile(path, 'utf8')) as { auth?: Record<string, string> }).auth ?? {};
  /** A fresh access token of `user`, for looking at the platform beside the CLI. */
  const tokenOf = async (user: TestUser) => (await call('/api/v1/auth/login', { body: { email: user.email, password: user.password } })).body.data.tokens.accessToken as string;

  it('installs svc with npm from the package the gateway serves, in the platform\'s version', async () => {
    const served = await fetch(`${fleet.url}/cli/svc-cli.tgz`);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'application/gzip']);
    expect(Buffer.from(await served.arrayBuffer()).equals(await readFile(BUILT_PACKAGE))).toBe(true);
    const prefix = join(home, 'prefix');
    await promisify(execFile)('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', `${fleet.url}/cli/svc-cli.tgz`], { timeout: 300_000 });
    bin = join(prefix, 'bin', 'svc');
    const version = await svcProcess(['--version'], { cwd: work, env: env(), bin });
    const health = (await (await fetch(`${fleet.url}/health`)).json()) as { version: string };
    expect([version.code, version.stdout.trim()]).toEqual([0, health.version]);
    const help = await svcProcess(['--help'], { cwd: work, env: env(), bin });
    expect(help.stdout).toContain('/cli/svc-cli.tgz');
  }, 320_000);

  it('signs in through the browser page, and the session outlasts its access token', async () => {
    const login = spawnSvc(['login', '--no-browser', '-o', 'json'], { cwd: work, env: env(), bin });
    let stderr = '';
    login.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForText(() => stderr, 'Sign in at ');
    const pageUrl = new URL(/Sign in at (\S+)/.exec(stderr)![1]!);
    // The person's browser: the page, its sign-in request, its form post to the CLI.
    const page = await (await fetch(pageUrl)).text();
    const callback = /action="(http:\/\/127\.0\.0\.1:\d+\/callback)"/.exec(page)![1]!;
    expect(page).toContain('refresh_expires_at');
    const tokens = (await call('/api/v1/auth/login', { body: { email: dev.email, password: dev.password } })).body.data.tokens;
    const form = { state: pageUrl.searchParams.get('state')!, access_token: tokens.accessToken, refresh_token: tokens.refreshToken, refresh_expires_at: String(tokens.refreshExpiresAt) };
    expect((await fetch(callback, { method: 'POST', body: new URLSearchParams(form) })).status).toBe(200);
    const signedIn = await login.done;
    expect(signedIn.code, signedIn.stdout + stderr).toBe(0);
    expect(signedIn.json().data).toMatchObject({ signed_in: true, refreshable: true, user: { email: dev.email, subscriptionTier: 'developer_preview' } });
    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    const first = await storedAuth();
    expect(first).toMatchObject({ token: tokens.accessToken, refresh_token: tokens.refreshToken });

    await sleep((ACCESS_TTL_SECONDS + 1) * 1000);
    // The access token has lapsed: the next command renews it silently, and the platform's rotation is kept.
    const status = await ok(['status']);
    expect(status.auth).toMatchObject({ signed_in: true, user: { email: dev.email, tenantSlug: dev.slug, subscriptionTier: 'developer_preview' }, session: { renews: true } });
    expect(Date.parse(status.auth.session.until)).toBeGreaterThan(Date.now() + 50 * 60_000);
    const renewed = await storedAuth();
    expect(renewed.token).not.toBe(first.token);
    expect(renewed.refresh_token).not.toBe(first.refresh_token);
    const spent = await call('/api/v1/auth/refresh', { body: { refreshToken: renewed.refresh_token } });
    expect(spent.status).toBe(200);
    // That was the CLI's refresh token, spent here by hand: the platform ended the session when the CLI
    // presents a spent one, so sign the CLI in again with the token just answered (a refresh token, pasted).
    const again = await ok(['login', '--token', spent.body.data.refreshToken]);
    expect(again).toMatchObject({ token_kind: 'access_token', refreshable: true, user: { email: dev.email } });
    const pasted = await ok(['login', '--token', (await call('/api/v1/auth/login', { body: { email: dev.email, password: dev.password } })).body.data.tokens.refreshToken]);
    expect(pasted.expires_at).toEqual(expect.any(String));
  }, 120_000);

  it('turns developer mode on with svc account, which every "developer mode required" names', async () => {
    expect(await ok(['account'])).toEqual({ account_mode: 'consumer', developer_mode_available: true });
    const made = await ok(['pack', 'new', 'alpha']);
    expect(made.namespace).toBe(dev.slug);
    const refused = await svc(['pack', 'publish'], made.path);
    expect(refused.code).toBe(1);
    expect(refused.json().error.message).toContain('svc account developer');
    const enabled = await ok(['account', 'developer', '--org-slug', `labs-${dev.slug}`, '--org-name', 'Labs']);
    expect(enabled.organization).toMatchObject({ slug: `labs-${dev.slug}`, name: 'Labs' });
    expect(await ok(['account'])).toMatchObject({ account_mode: 'developer', organization: { slug: `labs-${dev.slug}`, role: 'owner' } });
    expect((await ok(['account', 'orgs'])).organizations).toEqual([expect.objectContaining({ slug: `labs-${dev.slug}`, role: 'owner', joined_at: expect.any(String) })]);
    // Another person's organizations are theirs alone.
    const other = await signUp(call, await adminToken(call));
    expect((await call('/api/v1/account/organizations', { token: other.token })).body.data).toEqual({ organizations: [] });
  }, 120_000);

  it('makes two packs from one template in one namespace and publishes both; a taken name is found before publishing', async () => {
    const alpha = join(work, 'alpha');
    const beta = (await ok(['pack', 'new', 'beta'])).path as string;
    for (const dir of [alpha, beta]) {
      const dry = await ok(['pack', 'publish', '--dry-run'], dir);
      expect(dry).toMatchObject({ publishable: true, namespace: { available: true } });
      expect(dry.command_names.every((name: { available: boolean }) => name.available)).toBe(true);
      expect((await ok(['pack', 'publish'], dir)).pack).toMatchObject({ namespace: dev.slug, version: '0.1.0' });
    }
    expect((await ok(['install', `@${dev.slug}/alpha`])).pack.commands).toEqual(['alpha-hello']);
    expect((await ok(['install', `@${dev.slug}/beta`])).pack.commands).toEqual(['beta-hello']);
    expect((await ok(['run', `${dev.slug}.beta-hello`, '--name=Bo'])).result).toEqual({ greeting: 'Hello, Bo!' });

    // A third pack naming a command as alpha does: the dry run says so, as the publication would.
    const gamma = (await ok(['pack', 'new', 'gamma'])).path as string;
    const manifest = await readFile(join(gamma, 'pack.yaml'), 'utf8');
    await writeFile(join(gamma, 'pack.yaml'), manifest.replace('name: gamma-hello', 'name: alpha-hello'));
    const taken = await svc(['pack', 'publish', '--dry-run'], gamma);
    expect([taken.code, taken.json().error.code]).toEqual([3, 'COMMAND_NAME_TAKEN']);
    expect(taken.json().error.message).toContain(`@${dev.slug}/alpha`);
    // Whose names a namespace holds is its owner's business.
    const other = await signUp(call, await adminToken(call));
    const probe = await call('/api/v1/registry/command-names/check', { token: other.token, body: { namespace: dev.slug, pack: 'x', commands: ['alpha-hello'] } });
    expect([probe.status, probe.body.error.details.reason]).toEqual([403, 'namespace_not_owned']);
  }, 180_000);

  it("shows a run's logs, and follows an async run with svc task", async () => {
    const ran = await svc(['run', `${dev.slug}.alpha-hello`, '--name=Ada', '--logs']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.json().data.logs).toEqual([expect.objectContaining({ level: 'info', message: 'greeting Ada' })]);
    // In text, the result alone on stdout and the logs on stderr.
    const text = await svcProcess(['run', `${dev.slug}.alpha-hello`, '--name=Cy', '--logs'], { cwd: work, env: env(), bin });
    expect(text.stdout).toBe(`${JSON.stringify({ greeting: 'Hello, Cy!' }, null, 2)}\n`);
    expect(text.stderr).toMatch(/info +greeting Cy/);

    const submitted = await ok(['run', `${dev.slug}.alpha-hello`, '--name=Di', '--async']);
    expect(submitted).toMatchObject({ task_id: expect.any(String), status: 'pending' });
    expect(await ok(['task', 'wait', submitted.task_id])).toMatchObject({ status: 'success', result: { greeting: 'Hello, Di!' } });
    expect((await ok(['task', 'logs', submitted.task_id])).logs).toEqual([expect.objectContaining({ message: 'greeting Di' })]);
    expect((await ok(['task', 'list'])).tasks[0]).toMatchObject({ task_id: submitted.task_id, command: `${dev.slug}.alpha-hello`, status: 'success' });
    // The task and its logs are its owner's only.
    const other = await signUp(call, await adminToken(call));
    expect((await call(`/api/v1/tasks/${submitted.task_id}`, { token: other.token })).status).toBe(403);
    expect((await call('/api/v1/tasks', { token: other.token })).body.data).toEqual({ tasks: [] });
  }, 120_000);

  it('hits a rate limit and says which, on which tier, until when', async () => {
    const casual = await signUp(call, await adminToken(call), { tier: 'free' });
    const config = join(home, 'casual.toml');
    const refresh = (await call('/api/v1/auth/login', { body: { email: casual.email, password: casual.password } })).body.data.tokens.refreshToken;
    expect((await svc(['login', '--token', refresh], work, config)).code).toBe(0);
    let limited: CliResult | undefined;
    for (let i = 0; i < 15 && !limited; i += 1) {
      const reply = await svc(['account', '--non-interactive'], work, config);
      if (reply.code !== 0) limited = reply;
    }
    expect(limited, 'the free tier refused a request within 15').toBeDefined();
    const error = limited!.json().error;
    expect([limited!.code, error.code]).toEqual([1, 'RATE_LIMITED']);
    expect(error.message).toMatch(/the free tier allows 10 requests a minute; retry in \d+ s \(at \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    expect(error.details).toMatchObject({ limit_kind: 'requests_per_minute', tier: 'free', limit: 10, window_seconds: 60, resets_at: expect.any(String) });
  }, 120_000);

  it('logs out, revoking the session and the MCP key it made, after the access token lapsed', async () => {
    expect((await ok(['mcp', 'list-tools', 'svc'])).tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining([`${dev.slug}__alpha__alpha-hello`]));
    const { api_key: apiKey, refresh_token: refreshToken } = await storedAuth();
    expect(apiKey).toMatch(/^sk-svc-/);
    await sleep((ACCESS_TTL_SECONDS + 1) * 1000);
    const out = await ok(['logout']);
    expect(out).toMatchObject({ signed_out: true, session_revoked: true, api_key_revoked: true, not_revoked: [] });
    expect(await storedAuth()).toEqual({});
    const keys = (await call('/api/v1/account/api-keys', { token: await tokenOf(dev) })).body.data as Array<{ key_prefix: string; revoked_at: string | null }>;
    expect(keys.find((key) => apiKey!.startsWith(key.key_prefix))?.revoked_at).toEqual(expect.any(String));
    expect((await call('/api/v1/auth/refresh', { body: { refreshToken } })).status).toBe(401);
  }, 120_000);
});
