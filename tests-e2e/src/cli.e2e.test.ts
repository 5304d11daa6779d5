import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, spawnSvc, svcProcess, waitForText, type CliResult } from '@svc/cli/testing';
import { adminToken, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client } from './support/client.js';
import { cliHome } from './support/cli-home.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

/**
 * A new user's journey with the built `svc` program against a running platform: every step a
 * process of its own, as a person or a CI script runs it, its exit code and JSON envelope checked.
 */
describe.each(oneMode('embedded'))('the svc CLI against the platform (%s)', (mode) => {
  let fleet: TestFleet;
  let user: TestUser;
  let home: string;
  let work: string;
  let remove: () => Promise<void>;
  let packDir: string;

  beforeAll(async () => {
    requireBuiltCli();
    fleet = await startTestFleet(mode);
    const call = client(fleet.url);
    user = await signUp(call, await adminToken(call));
    await createOrganization(call, user);
    ({ home, work, remove } = await cliHome('svc-cli-e2e-'));
  });
  afterAll(async () => {
    await fleet?.stop();
    await remove?.();
  });

  const env = () => ({ HOME: home, SVC_CONFIG: join(home, '.config', 'svc', 'config.toml'), SVC_REGISTRY_URL: fleet.url, NO_COLOR: '1' });
  /** `svc …` with `-o json` from `cwd`, in this user's home, against the fleet. */
  const svc = async (args: string[], cwd = work): Promise<CliResult> => svcProcess([...args, '-o', 'json'], { cwd, env: env() });
  const ok = async (args: string[], cwd?: string) => {
    const reply = await svc(args, cwd);
    expect(reply.code, `svc ${args.join(' ')}\n${reply.stdout}${reply.stderr}`).toBe(0);
    const envelope = reply.json();
    expect(envelope.success).toBe(true);
    return envelope.data;
  };

  it('signs in through the sign-in page, which hands the tokens back to the CLI with its state', async () => {
    const bad = await svc(['login', '--token', 'sk-svc-' + '0'.repeat(64)]);
    expect([bad.code, bad.json().error.kind]).toEqual([2, 'auth']);
    const login = spawnSvc(['login', '--no-browser', '-o', 'json'], { cwd: work, env: env() });
    let stderr = '';
    login.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForText(() => (/Sign in at \S+\n/.test(stderr) ? stderr : ''), 'Sign in at ');
    const pageUrl = new URL(/Sign in at (\S+)/.exec(stderr)![1]!);
    expect(`${pageUrl.origin}${pageUrl.pathname}`).toBe(`${fleet.url}/cli/login`);
    // The person's browser: the page, its sign-in request, then its form post to the CLI.
    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);
    const callback = /action="(http:\/\/127\.0\.0\.1:\d+\/callback)"/.exec(await page.text())![1]!;
    const tokens = (await client(fleet.url)('/api/v1/auth/login', { body: { email: user.email, password: user.password } })).body.data.tokens;
    const forged = await fetch(callback, { method: 'POST', body: new URLSearchParams({ state: 'x'.repeat(43), access_token: 'forged' }) });
    expect(forged.status).toBe(400);
    const handed = await fetch(callback, { method: 'POST', body: new URLSearchParams({ state: pageUrl.searchParams.get('state')!, access_token: tokens.accessToken, refresh_token: tokens.refreshToken }) });
    expect(handed.status).toBe(200);
    const signedIn = await login.done;
    expect(signedIn.code, signedIn.stdout + stderr).toBe(0);
    expect(signedIn.json().data).toMatchObject({ signed_in: true, token_kind: 'access_token', refreshable: true, user: { email: user.email, tenantSlug: user.slug, developerMode: true } });
    const status = await ok(['status']);
    expect(status).toMatchObject({ api_url: fleet.url, platform: { status: 'healthy' }, auth: { signed_in: true, user: { email: user.email } } });
  });

  it('makes projects: init (with and without a dashboard), add-pack and add-dashboard, each once', async () => {
    const made = await ok(['project', 'init', 'atlas']);
    expect(made).toMatchObject({ name: 'atlas', template: 'default', pack: 'pack', dashboard: null, namespace: user.slug });
    const atlas = join(work, 'atlas');
    expect(JSON.parse(await readFile(join(atlas, 'svc-project.json'), 'utf8'))).toEqual({ name: 'atlas', template: 'default', pack: 'pack', dashboard: null });
    expect(await readFile(join(atlas, 'pack', 'pack.yaml'), 'utf8')).toMatch(new RegExp(`namespace: ${user.slug}\\n[\\s\\S]*name: atlas\\n`));
    expect(await readFile(join(atlas, 'docs', 'README.md'), 'utf8')).toContain('svc pack dev');
    expect(await ok(['pack', 'validate', '--strict'], join(atlas, 'pack'))).toMatchObject({ valid: true });
    const twice = await svc(['project', 'add-pack'], atlas);
    expect([twice.code, twice.json().error.code]).toEqual([3, 'ALREADY_EXISTS']);

    const board = await ok(['project', 'add-dashboard', '--template', 'basic'], atlas);
    expect(board).toMatchObject({ name: 'atlas-dashboard', namespace: user.slug, template: 'basic' });
    expect(JSON.parse(await readFile(join(atlas, 'dashboard', 'dashboard.json'), 'utf8'))).toMatchObject({ name: 'atlas-dashboard', namespace: user.slug });
    expect(JSON.parse(await readFile(join(atlas, 'svc-project.json'), 'utf8'))).toMatchObject({ pack: 'pack', dashboard: 'dashboard' });
    const boardTwice = await svc(['project', 'add-dashboard'], atlas);
    expect([boardTwice.code, boardTwice.json().error.code]).toEqual([3, 'ALREADY_EXISTS']);

    const orbit = await ok(['project', 'init', 'orbit', '--with-dashboard', '--template', 'scheduled']);
    expect(orbit).toMatchObject({ template: 'scheduled', pack: 'pack', dashboard: 'dashboard' });
    expect(await readFile(join(work, 'orbit', 'docs', 'SCHEDULING.md'), 'utf8')).toContain('cron');
    // The scheduled template's pack is the advanced one: a report command long enough for the medium queue.
    expect(await readFile(join(work, 'orbit', 'pack', 'pack.yaml'), 'utf8')).toMatch(/- name: orbit-report[\s\S]*timeout: 120/);

    // A project without a pack yet takes one; a folder that is no project is refused.
    const bare = join(work, 'bare');
    await mkdir(bare);
    await writeFile(join(bare, 'svc-project.json'), JSON.stringify({ name: 'bare', template: 'default', pack: null, dashboard: null }));
    expect(await ok(['project', 'add-pack', '--template', 'advanced'], bare)).toMatchObject({ name: 'bare', namespace: user.slug, template: 'advanced' });
    expect(JSON.parse(await readFile(join(bare, 'svc-project.json'), 'utf8'))).toMatchObject({ pack: 'pack', dashboard: null });
    expect(await ok(['pack', 'test'], join(bare, 'pack'))).toMatchObject({ passed: true, fail: 0 });
    const stray = await svc(['project', 'add-dashboard'], join(work, 'atlas', 'docs'));
    expect([stray.code, stray.json().error.code]).toEqual([3, 'NOT_A_PROJECT']);
  });

  it('makes, checks, tests, builds (signed) and publishes a pack', async () => {
    const made = await ok(['pack', 'new', 'journey', '--template', 'full']);
    expect(made.namespace).toBe(user.slug);
    packDir = made.path;
    // The user's own change: the greeting fails on purpose for one name.
    await writeFile(join(packDir, 'commands', 'hello.js'), "export default async (input) => {\n  if (input.name === 'crash') throw new RangeError('asked to crash');\n  return { greeting: `Hello, ${input.name}!` };\n};\n");
    expect(await ok(['pack', 'validate', '--strict'], packDir)).toMatchObject({ valid: true, pack: { namespace: user.slug, name: 'journey', version: '0.1.0' } });
    expect(await ok(['pack', 'test'], packDir)).toMatchObject({ passed: true, fail: 0 });
    const built = await ok(['pack', 'build', '--sign'], packDir);
    expect(built.signature.key_fingerprint).toMatch(/^SHA256:/);
    const dry = await ok(['pack', 'publish', built.package, '--dry-run'], packDir);
    expect(dry).toMatchObject({ dry_run: true, namespace: { available: true } });
    const published = await ok(['pack', 'publish', built.package], packDir);
    expect(published.pack).toMatchObject({ namespace: user.slug, name: 'journey', version: '0.1.0', signature: { algorithm: 'ed25519', key_fingerprint: built.signature.key_fingerprint } });
    const again = await svc(['pack', 'publish', built.package], packDir);
    expect([again.code, again.json().error.code]).toEqual([3, 'VERSION_EXISTS']);
  });

  it('starts the development sandbox, syncs the pack into it and runs it there, and stops it', async () => {
    expect(await ok(['sandbox', 'status'])).toMatchObject({ status: 'stopped', sandbox_id: null, uptime: 0, quotas: { executions_per_month: 1000, concurrent_sessions: 1, storage_bytes: 100 * 1024 * 1024 } });
    const started = await ok(['sandbox', 'start', '--background', '--timeout', '600']);
    expect(started).toMatchObject({ status: 'running', created: true, timeout: 600 });
    // One session at a time, softly: a second start is the running one, with a warning.
    const again = await svcProcess(['sandbox', 'start', '--background'], { cwd: work, env: env() });
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('warning: Your sandbox is already running')]);
    expect(again.stdout).toContain(`Sandbox ${started.sandbox_id} running`);

    // pack exec runs the folder's pack in the running sandbox, syncing it first; a sync of the same bytes replaces it.
    const ran = await ok(['pack', 'exec', `${user.slug}/journey-hello`, '--arg', 'name=Sandbox'], packDir);
    expect(ran).toMatchObject({ where: 'sandbox', sandbox_id: started.sandbox_id, result: { greeting: 'Hello, Sandbox!' } });
    const crashed = await svc(['pack', 'exec', `${user.slug}/journey-hello`, '--arg', 'name=crash'], packDir);
    expect([crashed.code, crashed.json().error.kind]).toEqual([10, 'command']);
    const synced = await ok(['pack', 'sync', '--path', packDir]);
    expect(synced).toMatchObject({ created: false, pack: { namespace: user.slug, name: 'journey', version: '0.1.0' } });
    const status = await ok(['sandbox', 'status']);
    expect(status).toMatchObject({ status: 'running', sandbox_id: started.sandbox_id, usage: { executions_this_month: 2, storage_bytes: synced.storage_bytes } });
    expect(status.packs).toEqual([expect.objectContaining({ name: 'journey', sha256: synced.pack.sha256 })]);
    expect(await ok(['sandbox', 'stop'])).toMatchObject({ status: 'stopped', stopped: true, sandbox_id: started.sandbox_id, uptime: 0 });
    // Stopped, it runs locally again; syncing needs a running sandbox.
    expect(await ok(['pack', 'exec', `${user.slug}/journey-hello`, '--arg', 'name=Local'], packDir)).toMatchObject({ where: 'local', result: { greeting: 'Hello, Local!' } });
    const notRunning = await svc(['pack', 'sync'], packDir);
    expect([notRunning.code, notRunning.json().error.code]).toEqual([3, 'SANDBOX_NOT_RUNNING']);
    expect(await ok(['sandbox', 'stop'])).toMatchObject({ status: 'stopped', stopped: false });
    const bad = await svc(['sandbox', 'start', '--timeout', '30']);
    expect([bad.code, bad.json().error.kind]).toEqual([3, 'validation']);

    // In the foreground the session lasts as long as the command: Ctrl-C stops it, exit code 130.
    const held = spawnSvc(['sandbox', 'start', '--timeout', '120'], { cwd: work, env: env() });
    let stderr = '';
    held.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitForText(() => stderr, 'Ctrl-C stops it.');
    const running = await ok(['sandbox', 'status']);
    expect(running).toMatchObject({ status: 'running', timeout: 120 });
    held.child.kill('SIGINT');
    expect((await held.done).code).toBe(130);
    expect(await ok(['sandbox', 'status'])).toMatchObject({ status: 'stopped', sandbox_id: running.sandbox_id });
  }, 120_000);

  it('installs the pack, runs its commands (sync and --async), lists it', async () => {
    // --no-deps is accepted (packs declare no dependencies yet): the install is the same, and -v says why nothing was skipped.
    const installing = await svcProcess(['install', `@${user.slug}/journey`, '--no-deps', '-v', '-o', 'json'], { cwd: work, env: env() });
    expect(installing.code, installing.stdout + installing.stderr).toBe(0);
    expect(installing.stderr).toContain('--no-deps: packs declare no dependencies on this platform yet');
    const installed = installing.json().data;
    expect(installed.pack).toMatchObject({ name: 'journey', version: '0.1.0' });
    expect([...installed.pack.commands].sort()).toEqual(['journey-check-secret', 'journey-hello', 'journey-notes', 'journey-report']);
    const sync = await ok(['run', `${user.slug}.journey-hello`, '--name=Ada']);
    expect(sync).toMatchObject({ result: { greeting: 'Hello, Ada!' }, execution: { status: 'completed' }, task_id: null });
    // --raw: the result alone, as compact JSON, and nothing else on stdout.
    const raw = await svcProcess(['run', `${user.slug}.journey-hello`, '--name=Raw', '--raw'], { cwd: work, env: env() });
    expect([raw.code, raw.stdout]).toEqual([0, '{"greeting":"Hello, Raw!"}\n']);
    const pretty = await svcProcess(['run', `${user.slug}.journey-hello`, '--name=Raw'], { cwd: work, env: env() });
    expect(pretty.stdout).toBe(`${JSON.stringify({ greeting: 'Hello, Raw!' }, null, 2)}\n`);
    // --async answers the task at once; `svc task wait` follows it to its result.
    const asynchronous = await ok(['run', `${user.slug}.journey-report`, '--text=to be or not to be', '--top', '2', '--async']);
    expect(asynchronous).toMatchObject({ task_id: expect.any(String), status: 'pending' });
    const waited = await ok(['task', 'wait', asynchronous.task_id]);
    expect(waited).toMatchObject({ status: 'success', result: { words: 6, top: [{ word: 'be', count: 2 }, { word: 'to', count: 2 }] } });
    const listed = await ok(['list', '--commands']);
    expect(listed.packs).toEqual([expect.objectContaining({ ref: `@${user.slug}/journey`, version: '0.1.0', commands: 4 })]);
    expect(listed.packs[0].command_list.map((c: { name: string }) => c.name)).toEqual(['journey-check-secret', 'journey-hello', 'journey-notes', 'journey-report']);
  }, 120_000);

  it('answers exit code 10 when the command fails, 3 for input it refuses, 1 for an unknown command', async () => {
    const crashed = await svc(['run', `${user.slug}.journey-hello`, '--name=crash']);
    expect(crashed.code).toBe(10);
    expect(crashed.json().error).toMatchObject({ kind: 'command', code: 'INTEGRATION_ERROR', exit_code: 10 });
    expect(crashed.json().error.message).toContain('asked to crash');
    const refused = await svc(['run', `${user.slug}.journey-hello`, '--name=7', '--extra=1']);
    expect([refused.code, refused.json().error.kind]).toEqual([3, 'validation']);
    const unknown = await svc(['run', `${user.slug}.nothing`]);
    expect([unknown.code, unknown.json().error.code]).toEqual([1, 'NOT_FOUND']);
  });

  it('keeps a secret of the pack for the user, hands it to the command as ctx.secrets, never shows its value', async () => {
    const before = await ok(['run', `${user.slug}.journey-check-secret`, '--name=API_TOKEN']);
    expect(before.result).toEqual({ name: 'API_TOKEN', present: false, length: 0 });
    const set = await ok(['secrets', 'set', `@${user.slug}/journey`, 'API_TOKEN', 'tok-very-secret-123']);
    expect(set).toMatchObject({ pack: `@${user.slug}/journey`, name: 'API_TOKEN', created: true });
    expect((await ok(['secrets', 'list', `@${user.slug}/journey`])).secrets.map((s: { name: string }) => s.name)).toEqual(['API_TOKEN']);
    const shown = await svc(['secrets', 'show', `@${user.slug}/journey`]);
    expect(shown.code).toBe(0);
    expect(shown.stdout + shown.stderr).not.toContain('very-secret');
    const read = await svc(['run', `${user.slug}.journey-check-secret`, '--name=API_TOKEN']);
    expect(read.code).toBe(0);
    expect(read.json().data.result).toEqual({ name: 'API_TOKEN', present: true, length: 'tok-very-secret-123'.length });
    expect(read.stdout + read.stderr).not.toContain('very-secret');
    const bad = await svc(['secrets', 'set', `@${user.slug}/journey`, 'lower_case', 'x']);
    expect([bad.code, bad.json().error.code]).toEqual([3, 'VALIDATION_FAILED']);
    // Removed: gone from the list, and the command no longer gets it.
    expect(await ok(['secrets', 'remove', `@${user.slug}/journey`, 'API_TOKEN'])).toMatchObject({ pack: `@${user.slug}/journey`, name: 'API_TOKEN' });
    expect((await ok(['secrets', 'list', `@${user.slug}/journey`])).secrets).toEqual([]);
    expect((await ok(['run', `${user.slug}.journey-check-secret`, '--name=API_TOKEN'])).result).toEqual({ name: 'API_TOKEN', present: false, length: 0 });
    const again = await svc(['secrets', 'remove', `@${user.slug}/journey`, 'API_TOKEN']);
    expect([again.code, again.json().error.code]).toEqual([1, 'NOT_FOUND']);
  }, 90_000);

  it('calls the command as an MCP tool through the MCP SDK client', async () => {
    const servers = await ok(['mcp', 'list-servers']);
    expect(servers.servers).toEqual([expect.objectContaining({ name: 'svc', url: `${fleet.url}/mcp` })]);
    const tools = await ok(['mcp', 'list-tools', 'svc', '--schema']);
    expect(tools.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining([`${user.slug}__journey__journey-hello`]));
    const called = await ok(['mcp', 'call', 'svc', `${user.slug}__journey__journey-hello`, '{"name": "Bo"}']);
    expect(called.result).toEqual({ greeting: 'Hello, Bo!' });
    const config = await readFile(join(home, '.config', 'svc', 'config.toml'), 'utf8');
    expect(config).toMatch(/api_key = "sk-svc-[0-9a-f]{64}"/);
    const tested = await ok(['mcp', 'test', 'svc']);
    expect(tested).toMatchObject({ ok: true, tools: expect.any(Number) });
    // A URL instead of a configured name: the platform's own endpoint gets its API key as `svc` does.
    const endpoint = `${fleet.url}/mcp`;
    expect((await ok(['mcp', 'list-tools', endpoint])).tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining([`${user.slug}__journey__journey-hello`]));
    expect((await ok(['mcp', 'call', endpoint, `${user.slug}__journey__journey-hello`, '{"name": "Cy"}'])).result).toEqual({ greeting: 'Hello, Cy!' });
    expect(await ok(['mcp', 'test', endpoint])).toMatchObject({ url: endpoint, ok: true });
    const unknown = await svc(['mcp', 'test', 'nowhere']);
    expect([unknown.code, unknown.json().error.code]).toEqual([3, 'MCP_SERVER_UNKNOWN']);
  });

  it('makes, builds and publishes a dashboard, shares it, grants and revokes it, and deletes it', async () => {
    const call = client(fleet.url);
    const partner = await signUp(call, await adminToken(call));
    const partnerOrg = await createOrganization(call, partner);
    const made = await ok(['dashboard', 'new', 'journey-board']);
    expect(made).toMatchObject({ name: 'journey-board', namespace: user.slug });
    expect(await ok(['dashboard', 'build'], made.path)).toMatchObject({ exports: expect.arrayContaining(['mount', 'unmount']) });
    expect(await ok(['dashboard', 'publish', '--dry-run'], made.path)).toMatchObject({ dry_run: true, registered: false, name: 'journey-board', scope: user.slug });

    const published = await ok(['dashboard', 'publish', '--visibility', 'organization'], made.path);
    expect(published).toMatchObject({ registered: true, dashboard: { slug: 'journey-board', visibility: 'organization' }, version: { version: '0.1.0', is_active: true } });
    const detail = await call('/api/v1/dashboards/journey-board', { token: user.token });
    expect(detail.body.data).toMatchObject({ id: published.dashboard.id, version: '0.1.0', entryPoint: '/api/v1/dashboards/journey-board/bundle/0.1.0/main.js' });
    // The bytes served through the gateway are the bytes `dashboard build` wrote.
    const built = await readFile(join(made.path, 'dist', 'main.js'));
    const served = await fetch(`${fleet.url}${detail.body.data.entryPoint}`, { headers: { authorization: `Bearer ${user.token}` }, signal: AbortSignal.timeout(15_000) });
    expect([served.status, served.headers.get('content-length')]).toEqual([200, String(built.length)]);
    expect(served.headers.get('content-type')).toMatch(/javascript/);
    expect(Buffer.from(await served.arrayBuffer()).equals(built)).toBe(true);
    const again = await svc(['dashboard', 'publish'], made.path);
    expect([again.code, again.json().error.details.reason]).toEqual([3, 'version_not_greater']);

    const shared = await ok(['dashboard', 'share', 'journey-board', '--expires', '7d']);
    expect(shared.url).toMatch(new RegExp(`^${fleet.url}/api/v1/shared-dashboards/`));
    expect(Date.parse(shared.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const viaLink = await fetch(shared.url);
    expect([viaLink.status, ((await viaLink.json()) as { data: { name: string } }).data.name]).toEqual([200, 'journey-board']);
    const viaLinkFile = await fetch(`${shared.url}/bundle/0.1.0/main.js`, { signal: AbortSignal.timeout(15_000) });
    expect(viaLinkFile.status).toBe(200);
    expect(Buffer.from(await viaLinkFile.arrayBuffer()).equals(built)).toBe(true);

    expect((await call('/api/v1/dashboards/journey-board', { token: partner.token })).status).toBe(404);
    expect(await ok(['dashboard', 'grant', 'journey-board', `@${partnerOrg.slug}`])).toMatchObject({ organization: `@${partnerOrg.slug}`, granted: 1 });
    expect((await call('/api/v1/dashboards/journey-board', { token: partner.token })).status).toBe(200);
    // `@scope/slug` names a dashboard too, the form `secrets` takes for packs.
    expect(await ok(['dashboard', 'revoke', `@${user.slug}/journey-board`, partnerOrg.slug])).toMatchObject({ dashboard: 'journey-board', revoked: 1 });
    expect((await call('/api/v1/dashboards/journey-board', { token: partner.token })).status).toBe(404);

    const unconfirmed = await svc(['dashboard', 'delete', 'journey-board']);
    expect([unconfirmed.code, unconfirmed.json().error.code]).toEqual([3, 'CONFIRMATION_REQUIRED']);
    expect(await ok(['dashboard', 'delete', 'journey-board', '--force'])).toMatchObject({ deleted: true, dashboard_id: published.dashboard.id });
    const gone = await svc(['dashboard', 'delete', 'journey-board', '-f']);
    expect([gone.code, gone.json().error.message]).toEqual([1, 'Dashboard not found: journey-board']);
    const badName = await svc(['dashboard', 'delete', 'Journey_Board', '-f']);
    expect([badName.code, badName.json().error.message]).toEqual([3, expect.stringMatching(/^Invalid dashboard name/)]);
    expect((await fetch(shared.url)).status).toBe(404);
  }, 120_000);

  it('uninstalls the pack, and signs out', async () => {
    const uninstalled = await ok(['uninstall', `@${user.slug}/journey`, '--force']);
    expect(uninstalled).toMatchObject({ uninstalled: true, pack: `@${user.slug}/journey` });
    expect((await ok(['list'])).packs).toEqual([]);
    expect(await ok(['logout'])).toEqual({ signed_out: true, session_revoked: true, api_key_revoked: true, not_revoked: [] });
    const after = await svc(['list']);
    expect([after.code, after.json().error.code]).toEqual([2, 'NOT_SIGNED_IN']);
  });
});
