import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError, type CallToolResult, type Progress, type Task } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, developerAndStranger, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack, pollTask } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';
import { connectMcp } from './support/mcp.js';

const steps = { type: 'object', properties: { steps: { type: 'integer', minimum: 1 }, pause: { type: 'integer' } }, required: ['steps'] };
const sleepInput = { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] };
const textInput = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const statsOutput = { type: 'object', properties: { count: { type: 'integer' }, label: { type: 'string' } }, required: ['count', 'label'] };
const statsAnnotations = { title: 'Word statistics', readOnlyHint: true, idempotentHint: true, openWorldHint: false };

const FILES = {
  // A long piece of work that says how far it is after each step.
  'commands/index.js': `export default async (input, ctx) => {
  for (let i = 1; i <= input.steps; i++) {
    await new Promise((r) => setTimeout(r, input.pause ?? 200));
    await ctx.progress(i, input.steps, 'step ' + i);
  }
  return { steps: input.steps };
};`,
  // Ignores cancellation and, if it is not stopped, leaves a mark in storage when it wakes.
  'commands/sleep.js': `export default async (input, ctx) => {
  await new Promise((r) => setTimeout(r, input.ms));
  await ctx.storage.put('woke', { at: Date.now() });
  return { woke: true };
};`,
  'commands/stats.js': `export default async (input, ctx) => {
  const words = input.text.split(/\\s+/).filter(Boolean);
  await ctx.progress(1, 2, 'counting');
  await ctx.progress(2, 2, 'done');
  return { count: words.length, label: 'words' };
};`,
  'commands/liar.js': 'export default async () => ({ count: "many", label: "words" });',
};

/** The spec's JSON body in a tool result's text block. */
function payloadOf(result: unknown): any {
  const content = (result as CallToolResult).content;
  expect(content[0]!.type).toBe('text');
  return JSON.parse((content[0] as { text: string }).text);
}

async function mcpErrorOf(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe.each(MODES)('MCP Tasks, typed results and progress (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  /** The pack's owner with an API key and an MCP client on it; a caller of another tenant with one of their own. */
  let dev: TestUser, key: string, mcp: Client;
  let stranger: TestUser, strangerMcp: Client;
  const tool = (command: string) => `${dev.slug}__agent__${command}`;

  /** A tools/call that asks for a task, as a Tasks-capable client sends it. */
  const callAsTask = (client: Client, name: string, args: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, { task: { ttl: 60_000 } });

  async function untilTerminal(client: Client, taskId: string, seen: Task[] = []): Promise<Task> {
    const until = Date.now() + 20_000;
    for (;;) {
      const task = await client.experimental.tasks.getTask(taskId);
      seen.push(task);
      if (['completed', 'failed', 'cancelled'].includes(task.status) || Date.now() > until) return task;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    [dev, stranger] = await developerAndStranger(call);
    await installPack(fleet.url, call, dev, {
      namespace: dev.slug,
      name: 'agent',
      commands: [
        { name: 'index', input_schema: steps, queue: 'long', timeout: 120 },
        { name: 'sleep', input_schema: sleepInput, queue: 'medium', timeout: 60 },
        { name: 'stats', description: 'Counts words', input_schema: textInput, output_schema: statsOutput, annotations: statsAnnotations },
        { name: 'liar', input_schema: { type: 'object' }, output_schema: statsOutput },
      ],
      files: FILES,
    });
    key = (await createApiKey(call, dev, 'agent')).key;
    mcp = await connectMcp(fleet.url, key);
    strangerMcp = await connectMcp(fleet.url, (await createApiKey(call, stranger, 'agent')).key);
  });
  afterAll(async () => {
    try {
      await mcp?.close();
      await strangerMcp?.close();
    } finally {
      await fleet?.stop();
    }
  });

  it('declares MCP Tasks on protocol 2025-11-25 and lists task support, output schemas, annotations and the built-in tools', async () => {
    expect(mcp.getServerCapabilities()).toMatchObject({ tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const { tools } = await mcp.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get(tool('index'))?.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.get(tool('sleep'))?.execution).toEqual({ taskSupport: 'optional' });
    const stats = byName.get(tool('stats'))!;
    expect(stats.execution).toBeUndefined();
    expect(stats.outputSchema).toEqual(statsOutput);
    expect(stats.annotations).toEqual(statsAnnotations);
    expect(stats.title).toBe('Word statistics');
    expect(byName.get('svc__task_get')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.has('svc__task_cancel')).toBe(true);
    // The REST catalogue shows the same.
    const detail = await call(`/api/v1/commands/${dev.slug}/stats`, { token: key });
    expect(detail.body.data).toMatchObject({ output_schema: statsOutput, annotations: statsAnnotations, queue: 'fast' });
    const sleep = await call(`/api/v1/commands/${dev.slug}/sleep`, { token: key });
    expect(sleep.body.data).toMatchObject({ output_schema: null, annotations: {} });
  });

  it('runs a long tool as a task: tasks/get until it completes with its progress, then tasks/result, under the same id as REST', async () => {
    const { task } = await callAsTask(mcp, tool('index'), { steps: 3, pause: 300 });
    expect(task).toMatchObject({ status: 'working', ttl: expect.any(Number), pollInterval: expect.any(Number) });
    const seen: Task[] = [];
    const done = await untilTerminal(mcp, task.taskId, seen);
    expect(done.status).toBe('completed');
    expect(seen.map((t) => t.statusMessage)).toContainEqual(expect.stringMatching(/^step [12] \([12]\/3\)$/));
    const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(payloadOf(result)).toEqual({ result: { steps: 3 }, correlation_id: expect.any(String) });
    const rest = await call(`/api/v1/tasks/${task.taskId}`, { token: key });
    expect(rest.body.data).toMatchObject({ status: 'success', result: { steps: 3 }, progress: { done: 3, total: 3, message: 'step 3' } });
    const listed = await mcp.experimental.tasks.listTasks();
    expect(listed.tasks.find((t) => t.taskId === task.taskId)).toMatchObject({ status: 'completed' });
  });

  it('blocks tasks/result until the task ends', async () => {
    const { task } = await callAsTask(mcp, tool('index'), { steps: 2, pause: 300 });
    const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(payloadOf(result).result).toEqual({ steps: 2 });
  });

  it('cancels a sleeping task with tasks/cancel, and its run is stopped', async () => {
    const { task } = await callAsTask(mcp, tool('sleep'), { ms: 2500 });
    expect((await pollTask(call, key, task.taskId, (s) => s === 'started')).body.data.status).toBe('started');
    const cancelled = await mcp.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await call(`/api/v1/tasks/${task.taskId}`, { token: key })).body.data.status).toBe('revoked');
    const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(payloadOf(result).type).toBe('cancelled');
    // Cancelling an ended task is the protocol's error.
    expect((await mcpErrorOf(mcp.experimental.tasks.cancelTask(task.taskId))).code).toBe(-32602);
    // Had the run gone on, it would have written this when it woke.
    await new Promise((r) => setTimeout(r, 4000));
    expect((await call('/api/v1/storage/woke', { token: dev.token })).status).toBe(404);
  });

  it('answers a fast tool asked for as a task with -32601', async () => {
    const error = await mcpErrorOf(callAsTask(mcp, tool('stats'), { text: 'a b' }));
    expect(error.code).toBe(-32601);
    const invalid = await mcpErrorOf(callAsTask(mcp, tool('index'), { steps: 'many' }));
    expect(invalid.code).toBe(-32602);
  });

  it('gives a client without Tasks the pending envelope, which svc__task_get follows and svc__task_cancel ends', async () => {
    const pending = payloadOf(await mcp.callTool({ name: tool('index'), arguments: { steps: 1, pause: 100 } }));
    expect(pending).toMatchObject({ pending: true, task_id: expect.any(String), queue: 'long', message: expect.stringContaining('svc__task_get') });
    const until = Date.now() + 20_000;
    let view: any;
    do {
      view = payloadOf(await mcp.callTool({ name: 'svc__task_get', arguments: { task_id: pending.task_id } })).task;
      if (view.status === 'success') break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < until);
    expect(view).toMatchObject({ task_id: pending.task_id, status: 'success', result: { steps: 1 }, progress: { done: 1, total: 1 } });

    const sleeping = payloadOf(await mcp.callTool({ name: tool('sleep'), arguments: { ms: 5000 } }));
    expect(payloadOf(await mcp.callTool({ name: 'svc__task_cancel', arguments: { task_id: sleeping.task_id } }))).toMatchObject({ task_id: sleeping.task_id, revoked: true });
    const again = await mcp.callTool({ name: 'svc__task_cancel', arguments: { task_id: sleeping.task_id } });
    expect(again.isError).toBe(true);
    expect(payloadOf(again)).toMatchObject({ type: 'conflict', code: 'TASK_TERMINAL', status: 'revoked' });
    await expect(mcp.callTool({ name: 'svc__task_get', arguments: { task_id: 'not-a-task' } })).rejects.toThrow(/Task not found/);
  });

  it("keeps another tenant's caller away from a task by every route", async () => {
    const { task } = await callAsTask(mcp, tool('sleep'), { ms: 1500 });
    expect((await mcpErrorOf(strangerMcp.experimental.tasks.getTask(task.taskId))).code).toBe(-32602);
    expect((await mcpErrorOf(strangerMcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).code).toBe(-32602);
    expect((await mcpErrorOf(strangerMcp.experimental.tasks.cancelTask(task.taskId))).code).toBe(-32602);
    await expect(strangerMcp.callTool({ name: 'svc__task_get', arguments: { task_id: task.taskId } })).rejects.toThrow(/Task not found/);
    await expect(strangerMcp.callTool({ name: 'svc__task_cancel', arguments: { task_id: task.taskId } })).rejects.toThrow(/Task not found/);
    expect((await strangerMcp.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
    // The owner's task went on untouched.
    expect((await untilTerminal(mcp, task.taskId)).status).toBe('completed');
  });

  it('answers a typed fast tool with structuredContent and passes its progress on to the SDK client', async () => {
    await mcp.listTools(); // the client checks structuredContent against the schema it listed
    const progress: Progress[] = [];
    const result = await mcp.callTool({ name: tool('stats'), arguments: { text: 'to be or not' } }, CallToolResultSchema, { onprogress: (p) => progress.push(p) });
    expect(result.structuredContent).toEqual({ count: 4, label: 'words' });
    expect(payloadOf(result)).toEqual({ result: { count: 4, label: 'words' }, correlation_id: expect.any(String) });
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'counting' },
      { progress: 2, total: 2, message: 'done' },
    ]);
  });

  it("makes a result that does not match output_schema the pack's error, with the path", async () => {
    const result = await mcp.callTool({ name: tool('liar'), arguments: {} });
    expect(result.isError).toBe(true);
    expect(payloadOf(result)).toMatchObject({ type: 'command', error: expect.stringMatching(/output_schema: count: /) });
    const rest = await call(`/api/v1/commands/${dev.slug}/liar`, { token: key, body: {} });
    expect(rest.status).toBe(502);
    expect(rest.body.error).toMatchObject({ code: 'INTEGRATION_ERROR', type: 'OutputSchemaError' });
  });
});
