import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandError, RunnerCrashedError } from './runner-errors.js';
import { RunnerPool, type PoolRunRequest } from './runner-pool.js';
import { callContext, capturingLogger, PackFolders } from './runner-test-helpers.js';

const folders = new PackFolders();
const { logger, entries } = capturingLogger();
let packDir: string;
let outsideFile: string;
let pool: RunnerPool;
let server: Server;
let connections = 0;

function request(command: string, input: unknown = {}, extra: Partial<PoolRunRequest> = {}): PoolRunRequest {
  return { packKey: 'sandbox@1', packDir, command, entry: `commands/${command}.mjs`, input, context: callContext(), timeoutMs: 5_000, ...extra };
}

async function failure(command: string, input: unknown = {}): Promise<CommandError> {
  const error = await pool.run(request(command, input)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CommandError);
  return error as CommandError;
}

beforeAll(async () => {
  packDir = await folders.create({
    'data.txt': 'bundled with the pack',
    'commands/read.mjs': `import { readFile } from 'node:fs/promises';\nexport default async (input) => readFile(input.path, 'utf8');`,
    'commands/write.mjs': `import { writeFile } from 'node:fs/promises';\nexport default async (input) => { await writeFile(input.path, 'pwned'); return 'written'; };`,
    'commands/spawn.mjs': `import { execFileSync } from 'node:child_process';\nexport default () => String(execFileSync('/bin/echo', ['spawned']));`,
    'commands/signal.mjs': `export default () => { process.kill(process.ppid, 'SIGTERM'); return 'sent'; };`,
    'commands/env.mjs': `export default () => ({ ...process.env });`,
    'commands/connect.mjs': `import { connect } from 'node:net';
      export default (input) => new Promise((resolve) => {
        const socket = connect(input.port, input.host);
        socket.on('connect', () => { socket.destroy(); resolve('connected'); });
        socket.on('error', (error) => resolve(error.code));
      });`,
    'commands/who.mjs': `export default () => ({ uid: process.getuid(), pid: process.pid, ppid: process.ppid });`,
    'commands/renice.mjs': `import { setPriority } from 'node:os';\nexport default (input) => { setPriority(input.pid, 19); return 'reniced'; };`,
    'commands/garbage.mjs': `import { writeSync } from 'node:fs';
      export default () => { const frame = Buffer.alloc(8); frame.writeUInt32BE(2, 0); frame.writeUInt32BE(1024 * 1024 * 1024, 4); writeSync(3, frame); return new Promise(() => {}); };`,
    'commands/deep.mjs': `export default async (input, ctx) => {
      let value = 1; for (let i = 0; i < 100; i += 1) value = [value];
      try { await ctx.storage.put('deep', value); return 'stored'; } catch (error) { return { name: error.name, message: error.message }; }
    };`,
    'commands/loud.mjs': `export default (input, ctx) => { for (let i = 0; i < 200; i += 1) ctx.log.info('x'.repeat(1000)); return 'said it'; };`,
    'commands/flood.mjs': `export default async () => { for (;;) { for (let i = 0; i < 1000; i += 1) console.log(''); await new Promise((resolve) => setImmediate(resolve)); } };`,
    'commands/chatty.mjs': `export default async (input, ctx) => {
      ctx.log.info('from ctx.log', 42);
      console.log('from console.log');
      process.stdout.write('raw stdout line\\n');
      process.stderr.write('raw stderr line\\n');
      return { done: true };
    };`,
  });
  outsideFile = join(packDir, '..', 'outside.txt');
  process.env.SVC_JWT_SECRET = 'platform-secret-the-pack-must-not-see';
  pool = new RunnerPool({ logger, memoryLimitMb: 64, hooks: { 'storage.put': async () => ({ stored: true }) } });
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.close();
  await pool.close();
  await folders.removeAll();
  delete process.env.SVC_JWT_SECRET;
});

describe('pack runner sandbox', () => {
  it('reads files inside the pack folder', async () => {
    await expect(pool.run(request('read', { path: 'data.txt' }))).resolves.toMatchObject({ value: 'bundled with the pack' });
  });

  it('denies reading a file outside the pack folder', async () => {
    expect(await failure('read', { path: '/etc/hostname' })).toMatchObject({ details: { code: 'ERR_ACCESS_DENIED' } });
  });

  it('denies writing outside and inside the pack folder', async () => {
    expect(await failure('write', { path: outsideFile })).toMatchObject({ details: { code: 'ERR_ACCESS_DENIED' } });
    expect(await failure('write', { path: join(packDir, 'written.txt') })).toMatchObject({ details: { code: 'ERR_ACCESS_DENIED' } });
    expect(existsSync(outsideFile)).toBe(false);
    expect(existsSync(join(packDir, 'written.txt'))).toBe(false);
  });

  it('denies spawning a child process', async () => {
    expect(await failure('spawn')).toMatchObject({ details: { code: 'ERR_ACCESS_DENIED' } });
  });

  it('denies sending signals to other processes', async () => {
    expect(await failure('signal')).toMatchObject({ details: { code: 'ERR_ACCESS_DENIED' } });
  });

  it('gives the pack none of the platform environment', async () => {
    const { value } = await pool.run(request('env'));
    expect(value).toEqual({ NODE_ENV: 'production', TZ: 'UTC' });
  });

  it('logs the pack output with the correlation id and keeps it out of the result', async () => {
    const { value } = await pool.run(request('chatty', {}, { context: callContext({ correlationId: 'corr-chatty' }) }));
    expect(value).toEqual({ done: true });
    const lines = entries.filter((e) => e.correlation_id === 'corr-chatty').map((e) => [e.level, e.message]);
    expect(lines).toEqual([
      ['info', 'from ctx.log 42'],
      ['info', 'from console.log'],
      ['info', 'raw stdout line'],
      ['warn', 'raw stderr line'],
    ]);
  });

  it("gives the pack no network: the worker's own loopback is unreachable", async () => {
    const report = await pool.sandbox();
    expect(report).toMatchObject({ namespaces: true, rlimits: true });
    const port = (server.address() as { port: number }).port;
    expect((await pool.run(request('connect', { host: '127.0.0.1', port }))).value).toBe('ENETUNREACH');
    expect(connections).toBe(0);
  });

  it('runs the pack as an unprivileged user that sees no other process', async () => {
    const { value } = await pool.run(request('who'));
    // Root drops to nobody; any other worker keeps its uid, in a user namespace of its own.
    expect(value).toEqual({ uid: process.getuid?.() === 0 ? 65534 : process.getuid?.(), pid: 1, ppid: 0 });
  });

  it('cannot renice the worker', async () => {
    const before = getPriority(process.pid);
    expect((await failure('renice', { pid: process.pid })).message).toMatch(/ESRCH|EPERM|EACCES/);
    expect(getPriority(process.pid)).toBe(before);
  });

  it('kills a runner that writes a frame over the limits, and only fails its calls', async () => {
    const error = await pool.run(request('garbage', {}, { packKey: 'garbage@1' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunnerCrashedError);
    expect(error).toMatchObject({ reason: 'protocol_violation' });
    await expect(pool.run(request('who'))).resolves.toBeDefined();
  });

  it('refuses hook arguments nested deeper than 64 levels', async () => {
    const { value } = await pool.run(request('deep'));
    expect(value).toMatchObject({ name: 'ValidationError', message: 'The arguments of a ctx call are nested deeper than 64 levels' });
  });

  it('keeps 64 KiB of log per call (64 bytes a message besides its text), marks the cut once, and counts what it dropped', async () => {
    const before = pool.stats().droppedOutputBytes;
    const { value } = await pool.run(request('loud', {}, { context: callContext({ correlationId: 'corr-loud' }) }));
    expect(value).toBe('said it');
    const lines = entries.filter((e) => e.correlation_id === 'corr-loud');
    expect(lines.filter((e) => e.message === 'x'.repeat(1000))).toHaveLength(61);
    expect(lines.filter((e) => String(e.message).startsWith('pack output past 65536 bytes for this call'))).toHaveLength(1);
    expect(lines.find((e) => e.message === 'pack output dropped')).toMatchObject({ dropped_bytes: 139_000, dropped_messages: 139 });
    expect(pool.stats().droppedOutputBytes - before).toBe(139_000);
  });

  it('kills a runner that floods its output past 64 times the budget', async () => {
    const error = await pool.run(request('flood', {}, { packKey: 'flood@1', timeoutMs: 20_000 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'output_flood' });
    await vi.waitFor(() => expect(pool.stats().live).toBeLessThanOrEqual(1));
  });
});
