import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createApiKey, createOrganization, developerAndStranger, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';
import { connectMcp, describedFetch } from './support/mcp.js';

const echoSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

function payloadOf(result: unknown): any {
  const content = (result as { content: Array<{ type: string; text: string }> }).content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return JSON.parse(content[0]!.text);
}

describe.each(MODES)('MCP endpoint (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let dev: TestUser;
  let stranger: TestUser;
  let key: string;
  let mcp: Client;

  const newKey = (user: TestUser) => createApiKey(call, user, 'mcp');
  const rawPost = (headers: Record<string, string>, body: string) =>
    describedFetch(`${fleet.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    [dev, stranger] = await developerAndStranger(call);
    await createOrganization(call, stranger);
    await installPack(fleet.url, call, dev, {
      namespace: dev.slug,
      name: 'tools',
      commands: [
        { name: 'echo', description: 'Returns its input', input_schema: echoSchema },
        { name: 'slow', entry: 'commands/echo.js', input_schema: echoSchema, queue: 'medium', timeout: 60 },
        { name: 'boom' },
      ],
      files: { 'commands/boom.js': 'export default async () => { throw new TypeError("bad things"); };' },
    });
    await installPack(fleet.url, call, stranger, { namespace: stranger.slug, name: 'hidden', visibility: 'unlisted', commands: [{ name: 'secret' }] });
    await installPack(fleet.url, call, stranger, { namespace: stranger.slug, name: 'private-tools', visibility: 'private', commands: [{ name: 'mine' }] });
    key = (await newKey(dev)).key;
    mcp = await connectMcp(fleet.url, key);
  });
  afterAll(async () => {
    try {
      await mcp?.close();
    } finally {
      await fleet?.stop();
    }
  });

  it('declares the tools capability and answers ping', async () => {
    expect(mcp.getServerCapabilities()).toMatchObject({ tools: {} });
    await expect(mcp.ping()).resolves.toBeDefined();
  });

  it('lists exactly the visible commands as tools, unlisted and private ones left out', async () => {
    const { tools: listed } = await mcp.listTools();
    // The platform's own tools close the list (mcp-tasks.e2e.test.ts).
    expect(listed.slice(-2).map((t) => t.name)).toEqual(['svc__task_get', 'svc__task_cancel']);
    const tools = listed.slice(0, -2);
    const names = tools.map((t) => t.name).sort();
    expect(names, JSON.stringify(names)).toEqual([`${dev.slug}__tools__boom`, `${dev.slug}__tools__echo`, `${dev.slug}__tools__slow`]);
    const echo = tools.find((t) => t.name === `${dev.slug}__tools__echo`)!;
    expect(echo.description).toBe('Returns its input');
    expect(echo.inputSchema).toEqual(echoSchema);
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const rest = await call('/api/v1/commands', { token: key });
    expect(rest.body.data.total).toBe(tools.length);
  });

  it('calls a fast tool and answers its result', async () => {
    const result = await mcp.callTool({ name: `${dev.slug}__tools__echo`, arguments: { text: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(payloadOf(result)).toEqual({ result: { echoed: { text: 'hi' } }, correlation_id: expect.any(String) });
  });

  it('dispatches a medium tool as a task that the same key polls over REST', async () => {
    const result = await mcp.callTool({ name: `${dev.slug}__tools__slow`, arguments: { text: 'later' } });
    const body = payloadOf(result);
    expect(body).toMatchObject({ pending: true, task_id: expect.any(String), queue: 'medium', namespace: `@${dev.slug}/tools/slow`, correlation_id: expect.any(String), message: expect.any(String) });
    const done = await pollTask(call, key, body.task_id);
    expect(done.body.data).toMatchObject({ status: 'success', result: { echoed: { text: 'later' } } });
  });

  it('answers bad arguments with a validation error and a failing command with a command error', async () => {
    const invalid = await mcp.callTool({ name: `${dev.slug}__tools__echo`, arguments: { text: 5 } });
    expect(invalid.isError).toBe(true);
    expect(payloadOf(invalid)).toMatchObject({ type: 'validation', error: expect.stringContaining('text'), correlation_id: expect.any(String) });
    const failed = await mcp.callTool({ name: `${dev.slug}__tools__boom`, arguments: {} });
    expect(failed.isError).toBe(true);
    expect(payloadOf(failed)).toMatchObject({ type: 'command', error: 'bad things' });
  });

  it("does not reach another tenant's private tool, nor unknown tools", async () => {
    await expect(mcp.callTool({ name: `${stranger.slug}__private-tools__mine`, arguments: {} })).rejects.toThrow(/Unknown tool/);
    await expect(mcp.callTool({ name: 'not-a-tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('answers malformed JSON-RPC with JSON-RPC errors', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const notJson = await rawPost(auth, '{"jsonrpc":');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error.code).toBe(-32700);
    const unknownMethod = await rawPost(auth, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }));
    expect(((await unknownMethod.json()) as any).error.code).toBe(-32601);
    const badParams = await rawPost(auth, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 5 } }));
    expect(((await badParams.json()) as any).error.code).toBe(-32602);
  });

  it('refuses an Accept without text/event-stream with 406 and a body that is not JSON with 415', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const jsonOnly = await rawPost({ authorization: `Bearer ${key}`, accept: 'application/json' }, ping);
    expect(jsonOnly.status).toBe(406);
    expect(await jsonOnly.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
    const text = await rawPost({ authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, ping);
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  });

  it('refuses a missing header, a JWT, and an unknown or revoked key with 401', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const revoked = await newKey(dev);
    await call(`/api/v1/account/api-keys/${revoked.id}`, { method: 'DELETE', token: dev.token });
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${dev.token}` },
      { authorization: `Bearer sk-svc-${'0'.repeat(64)}` },
      { authorization: `Bearer ${revoked.key}` },
      { cookie: 'svc_refresh=abc' },
    ];
    for (const headers of attempts) {
      const reply = await rawPost(headers, ping);
      expect(reply.status).toBe(401);
      const body = await reply.json();
      expect(body).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_FAILED' } });
    }
  });

  it('refuses a key without the commands:execute scope with 403', async () => {
    const scoped = await newKey(dev);
    await fleet.infra.database.db.execute(sql`update identity.api_keys set scopes = '{}' where id = ${scoped.id}`);
    const reply = await rawPost({ authorization: `Bearer ${scoped.key}` }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(reply.status).toBe(403);
    expect(((await reply.json()) as any).error.code).toBe('PERMISSION_DENIED');
  });
});

describe.each(MODES)('MCP tools/list pagination (%s infrastructure)', (mode) => {
  let fleet: TestFleet;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
  });
  afterAll(() => fleet?.stop());

  it('pages a large catalog with the protocol cursor', async () => {
    const call = client(fleet.url);
    const dev = await signUp(call, await adminToken(call));
    await createOrganization(call, dev);
    for (const pack of ['alpha', 'beta']) {
      const commands = Array.from({ length: 60 }, (_, i) => ({ name: `${pack}-${i}`, entry: 'commands/run.js' }));
      await installPack(fleet.url, call, dev, { namespace: dev.slug, name: pack, commands, files: { 'commands/run.js': 'export default async () => ({});' } });
    }
    const key = (await createApiKey(call, dev, 'mcp')).key;
    const mcp = await connectMcp(fleet.url, key);
    const first = await mcp.listTools();
    expect(first.tools).toHaveLength(100);
    expect(first.nextCursor).toBeTruthy();
    const second = await mcp.listTools({ cursor: first.nextCursor });
    // The last page ends with the two built-in task tools.
    expect(second.tools).toHaveLength(22);
    expect(second.nextCursor).toBeUndefined();
    expect(new Set([...first.tools, ...second.tools].map((t) => t.name)).size).toBe(122);
    await mcp.close();
  });
});
