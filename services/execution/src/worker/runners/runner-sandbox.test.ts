import { chmodSync, existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultRunnerScript } from './runner-launch.js';
import { RunnerSandbox, type SandboxReport } from './runner-sandbox.js';
import { CommandError, RunnerCrashedError } from './runner-errors.js';
import { RunnerPool, type PoolRunRequest } from './runner-pool.js';
import { CALL_TIMEOUT_MS, callContext, capturingLogger, PackFolders, viewThrough, VIEW_LIMITS, type HostView } from './runner-test-helpers.js';

const folders = new PackFolders();
const { logger, entries } = capturingLogger();
let packDir: string;
let outsideFile: string;
let pool: RunnerPool;
let server: Server;
let connections = 0;
let unixServer: Server;
let unixPath: string;
let abstractServer: Server;
let unixConnections = 0;

function request(command: string, input: unknown = {}, extra: Partial<PoolRunRequest> = {}): PoolRunRequest {
  return { packKey: 'sandbox@1', packDir, command, entry: `commands/${command}.mjs`, input, context: callContext(), timeoutMs: CALL_TIMEOUT_MS, ...extra };
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
    'commands/unix.mjs': `import { connect } from 'node:net';
      export default (input) => new Promise((resolve) => {
        const socket = connect(input.path);
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
  const countUnix = (socket: Socket) => {
    unixConnections += 1;
    socket.destroy();
  };
  unixPath = join(tmpdir(), `svc-host-${process.pid}.sock`);
  unixServer = createServer(countUnix);
  await new Promise<void>((resolve) => unixServer.listen(unixPath, resolve));
  // Whatever its permissions: the runner must not reach it because it is not there for it.
  chmodSync(unixPath, 0o777);
  abstractServer = createServer(countUnix);
  await new Promise<void>((resolve) => abstractServer.listen(`\0svc-host-${process.pid}`, resolve));
});

afterAll(async () => {
  server.close();
  unixServer.close();
  abstractServer.close();
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
    expect(value).toEqual({ NODE_ENV: 'production', TZ: 'UTC', MALLOC_ARENA_MAX: '2' });
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

  it("reaches no Unix socket of the host, whatever its permissions: files, Postgres's, abstract ones", async () => {
    expect((await pool.run(request('unix', { path: unixPath }))).value).toBe('ENOENT');
    expect((await pool.run(request('unix', { path: `\0svc-host-${process.pid}` }))).value).toBe('ECONNREFUSED');
    const postgres = '/var/run/postgresql/.s.PGSQL.5432';
    if (existsSync(postgres)) expect((await pool.run(request('unix', { path: postgres }))).value).toBe('ENOENT');
    expect(unixConnections).toBe(0);
  });

  it('runs the pack as an unprivileged user that sees no other process', async () => {
    const { value } = await pool.run(request('who'));
    // Root drops to nobody; any other worker leaves it root of its own user namespace, without capabilities.
    expect(value).toEqual({ uid: process.getuid?.() === 0 ? 65534 : 0, pid: 1, ppid: 0 });
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

/**
 * What the sandbox itself gives, seen by a process started the way a runner is but without
 * Node's permission model, which would hide most of it: the namespaces, root and filter are the
 * kernel's answer to code that escapes the JavaScript engine. A worker that is not root (as in
 * containers) gets the same, but for its runners' uid: it is looked at from a child process that
 * runs as another user.
 */
describe("a runner's view of the host", () => {
  let sandbox: RunnerSandbox;

  beforeAll(async () => {
    sandbox = await RunnerSandbox.prepare({ mode: 'required', runnerDir: dirname(defaultRunnerScript()), limits: VIEW_LIMITS, logger });
  });

  it('is sandboxed on this host: namespaces, kernel limits and a seccomp filter', () => {
    expect(sandbox.report).toMatchObject({ namespaces: true, rlimits: true, seccomp: true, missing: [] });
  });

  function expectConfined(view: HostView, uid: number): void {
    expect(view.root.filter((name) => !['usr', 'tmp', 'proc', 'bin', 'lib', 'lib64', 'sbin', '.old'].includes(name) && !packDir.startsWith(`/${name}/`))).toEqual([]);
    expect(view).toMatchObject({ run: false, etc: false, dev: false, home: false, pack: 'bundled with the pack', beside: ['pack'], tmp: [] });
    expect(view).toMatchObject({ writeUsr: 'EROFS', writePack: 'EROFS', writeRoot: 'EROFS', processes: ['1'], uid, capabilities: '0000000000000000' });
    expect(view).toMatchObject({ seccomp: true, userNamespace: expect.stringMatching(/Operation not permitted/), mount: expect.stringMatching(/Operation not permitted/) });
  }

  it('has a root of Node, its libraries, an empty /tmp and the pack, read-only, and refuses namespaces and mounts', () => {
    expectConfined(viewThrough(sandbox, packDir), process.getuid?.() === 0 ? 65534 : 0);
  });

  it('is the same for a worker that is not root, whose runners are root of their own user namespace without any capability', () => {
    const asUser = process.getuid?.() === 0 ? ['/usr/bin/setpriv', '--reuid=1000', '--regid=1000', '--clear-groups', '--'] : [];
    const [file = process.execPath, ...args] = [...asUser, process.execPath, '--import', 'tsx', join(import.meta.dirname, 'runner-view.child.ts'), packDir];
    const child = spawnSync(file, args, { encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).toBe('');
    const { report, view } = JSON.parse(child.stdout) as { report: SandboxReport; view: HostView };
    expect(report).toMatchObject({ namespaces: true, rlimits: true, seccomp: true, uid: 0, gid: 0, missing: [] });
    expectConfined(view, 0);
  });
});
