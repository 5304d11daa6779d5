import { readFile, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, svcProcess, type CliResult } from '@svc/cli/testing';
import { createPackWheel, parseManifest } from '@svc/pack-sdk';
import { adminToken, createApiKey, createOrganization, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { pollTask } from './support/execution.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';
import { connectMcp } from './support/mcp.js';
import { uploadPackage } from './support/packs.js';

/** The scaffolded pack's commands, and more: a failure of the pack's own, a secret, a loop that never looks at its signal. */
const COMMANDS = `"""Commands of the e2e Python pack."""
import asyncio
import time


class QuotaExceeded(Exception):
    pass


def boom(input, ctx):
    raise QuotaExceeded("no more today")


def secret(input, ctx):
    return {"token": ctx.secrets.get("API_TOKEN")}


async def slow(input, ctx):
    await asyncio.sleep(0.05)
    previous = await ctx.storage.get("slow")
    await ctx.storage.put("slow", {"text": input["text"]})
    return {"text": input["text"], "previous": previous["value"]["text"] if previous else None}


def spin(input, ctx):
    ticks = 0
    while True:
        ticks += 1
        ctx.storage.put("ticks", {"n": ticks})
        time.sleep(0.1)
`;

function manifestOf(namespace: string, python: string): string {
  const object = { type: 'object', additionalProperties: false, properties: { text: { type: 'string', description: 'Some text' } } };
  const command = (name: string, entry: string, extra = '') => `  - name: ${name}
    description: The ${name} command
    entry: ${entry}
    input_schema: ${JSON.stringify(object)}
    examples: [{ description: An example, input: {} }]${extra}
`;
  return `schema_version: 1
pack:
  namespace: ${namespace}
  name: snake
  version: 1.0.0
  description: A Python pack end to end
  visibility: public
runtime: python
python: "${python}"
secrets: [API_TOKEN]
commands:
  - name: hello
    description: Greets someone and counts the greetings
    entry: snake.hello:run
    input_schema: { type: object, additionalProperties: false, properties: { name: { type: string, description: Who } }, required: [name] }
    examples: [{ description: Greet Ada, input: { name: Ada } }]
${command('boom', 'snake.extra:boom')}${command('secret', 'snake.extra:secret')}${command('slow', 'snake.extra:slow')}${command('spin', 'snake.extra:spin', '\n    timeout: 120\n    queue: medium')}`;
}

const payloadOf = (result: unknown) => JSON.parse((result as { content: Array<{ text: string }> }).content[0]!.text);

describe.each(oneMode('real'))('Python packs through the gateway (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let publisher: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let home: string;
  let packDir: string;

  const svc = (args: string[], cwd = home): Promise<CliResult> =>
    svcProcess([...args, '-o', 'json'], { cwd, env: { HOME: home, SVC_CONFIG: join(home, 'config.toml'), SVC_REGISTRY_URL: fleet.url, NO_COLOR: '1' } });
  const ok = async (args: string[], cwd?: string) => {
    const reply = await svc(args, cwd);
    expect(reply.code, `svc ${args.join(' ')}\n${reply.stdout}${reply.stderr}`).toBe(0);
    return reply.json().data;
  };
  const run = (user: TestUser, command: string, body: Record<string, unknown>, query = '') => call(`/api/v1/commands/${publisher.slug}/${command}${query}`, { token: user.token, body });

  beforeAll(async () => {
    requireBuiltCli();
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    const admin = await adminToken(call);
    [publisher, alice, bob] = [await signUp(call, admin), await signUp(call, admin), await signUp(call, admin)];
    await createOrganization(call, publisher);
    home = await mkdtemp(join(tmpdir(), 'svc-python-e2e-'));
    // `svc pack test` runs in the folder; runners started as root read packs as uid 65534.
    await chmod(home, 0o755);
  });
  afterAll(async () => {
    await fleet?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  // Each CLI step is a process of its own, as a person runs it: hence the time it may take.
  it('the CLI makes a Python pack, runs its tests and builds a wheel, which is published and installed by another tenant', async () => {
    const made = await ok(['pack', 'new', 'snake', '--python', '--namespace', publisher.slug]);
    expect(made).toMatchObject({ runtime: 'python', python: '3.11' });
    packDir = made.path;
    expect(await ok(['pack', 'test'], packDir)).toMatchObject({ passed: true, fail: 0, tests: 2 });
    await writeFile(join(packDir, 'pack.yaml'), manifestOf(publisher.slug, '>=3.10'));
    await writeFile(join(packDir, 'snake', 'extra.py'), COMMANDS);
    expect(await ok(['pack', 'validate'], packDir)).toMatchObject({ valid: true });
    const built = await ok(['pack', 'build'], packDir);
    expect(built).toMatchObject({ format: 'wheel', package: expect.stringMatching(/svc_.+_snake-1\.0\.0-py3-none-any\.whl$/) });
    await ok(['login', '--token', publisher.token]);
    const published = await ok(['pack', 'publish', built.package], packDir);
    expect(published.pack).toMatchObject({ namespace: publisher.slug, name: 'snake', version: '1.0.0', commands: ['hello', 'boom', 'secret', 'slow', 'spin'] });
    expect((await call('/api/v1/packs/install', { token: publisher.token, body: { name: `@${publisher.slug}/snake`, version: '1.0.0' } })).status).toBe(200);
    for (const user of [alice, bob]) {
      const installed = await call('/api/v1/packs/install', { token: user.token, body: { name: `@${publisher.slug}/snake` } });
      expect(installed.status, JSON.stringify(installed.body)).toBe(200);
    }
  }, 120_000);

  it('runs synchronously for each tenant, with ctx.storage its own', async () => {
    const first = await run(alice, 'hello', { name: 'Ada' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.result).toEqual({ message: 'Hello, Ada!', greetings: 1 });
    expect((await run(alice, 'hello', { name: 'Ada' })).body.data.result.greetings).toBe(2);
    expect((await run(bob, 'hello', { name: 'Bob' })).body.data.result).toEqual({ message: 'Hello, Bob!', greetings: 1 });
    // The storage the pack wrote is the caller's own, over REST too.
    expect((await call('/api/v1/storage/greetings', { token: alice.token })).body.data.value).toEqual({ count: 2 });
    expect((await call('/api/v1/storage/greetings', { token: publisher.token })).status).toBe(404);
  });

  it('runs an async def as a task', async () => {
    const reply = await run(alice, 'slow', { text: 'later' }, '?async=true');
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const done = await pollTask(call, alice.token, reply.body.data.task_id);
    expect(done.body.data).toMatchObject({ status: 'success', result: { text: 'later', previous: null } });
  });

  it('runs over MCP with an API key', async () => {
    const mcp = await connectMcp(fleet.url, (await createApiKey(call, alice, 'python')).key, { tools: 'installed' });
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toContain(`${publisher.slug}__snake__hello`);
      const result = await mcp.callTool({ name: `${publisher.slug}__snake__hello`, arguments: { name: 'MCP' } });
      expect(payloadOf(result)).toEqual({ result: { message: 'Hello, MCP!', greetings: 3 }, correlation_id: expect.any(String) });
      const failed = await mcp.callTool({ name: `${publisher.slug}__snake__boom`, arguments: {} });
      expect(payloadOf(failed)).toMatchObject({ type: 'command', error: 'no more today' });
    } finally {
      await mcp.close();
    }
  });

  it("hands each tenant its own secrets as ctx.secrets", async () => {
    expect((await call(`/api/v1/secrets/${publisher.slug}/snake/API_TOKEN`, { method: 'PUT', token: alice.token, body: { value: 'alice-token' } })).status).toBe(201);
    expect((await run(alice, 'secret', {})).body.data.result).toEqual({ token: 'alice-token' });
    expect((await run(bob, 'secret', {})).body.data.result).toEqual({ token: null });
  });

  it("answers an exception with its class name as error.type", async () => {
    const failed = await run(alice, 'boom', {});
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'INTEGRATION_ERROR', type: 'QuotaExceeded', message: 'no more today' });
  });

  it('cancel stops a running `while True` that never looks at its signal', async () => {
    const reply = await run(bob, 'spin', {});
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    const taskId = reply.body.data.task_id;
    expect((await pollTask(call, bob.token, taskId, (s) => s === 'started')).body.data.status).toBe('started');
    const ticks = async () => (await call('/api/v1/storage/ticks', { token: bob.token })).body.data?.value.n ?? 0;
    await expect.poll(ticks, { timeout: 10_000 }).toBeGreaterThan(2);
    expect((await call(`/api/v1/tasks/${taskId}/cancel`, { method: 'POST', token: bob.token })).status).toBe(200);
    expect((await pollTask(call, bob.token, taskId)).body.data.status).toBe('revoked');
    // Killed within the grace of a second: the count stops.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stopped = await ticks();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await ticks()).toBe(stopped);
    expect((await run(bob, 'hello', { name: 'again' })).status).toBe(200);
  });

  it('refuses at publish a pack whose python range the platform can never meet', async () => {
    const files = { 'pack.yaml': manifestOf(publisher.slug, '>=4').replace('version: 1.0.0', 'version: 2.0.0'), 'snake/__init__.py': '', 'snake/hello.py': 'def run(input, ctx):\n    return 1\n', 'snake/extra.py': COMMANDS };
    const { wheel } = createPackWheel(files, parseManifest(files['pack.yaml']));
    const refused = await uploadPackage(fleet.url, publisher.token, wheel);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'MANIFEST_INVALID', details: { field: 'python', python: '>=4', platform_python: expect.stringMatching(/^3\./) } });
    expect(refused.body.error.message).toMatch(/can never be met here/);
    expect(await readFile(join(packDir, 'pack.yaml'), 'utf8')).toContain('python: ">=3.10"');
  });
});
