import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandError, CommandTimeoutError, PythonVersionError } from './runner-errors.js';
import { RunnerPool, type PoolRunRequest } from './runner-pool.js';
import { CALL_TIMEOUT_MS, callContext, capturingLogger, PackFolders } from './runner-test-helpers.js';

/**
 * Python packs in the same runners' sandbox as Node packs: the same pool, frames, hooks and
 * limits, and the hostile-pack cases again in Python, where there is no permission model and
 * only the kernel (namespaces, root, seccomp, rlimits) stands in the way.
 */
const folders = new PackFolders();
const { logger, entries } = capturingLogger();
let packDir: string;
let pool: RunnerPool;
let server: Server;
let connections = 0;
let unixServer: Server;
let unixPath: string;
const stored = new Map<string, unknown>();

function request(entry: string, input: unknown = {}, extra: Partial<PoolRunRequest> = {}): PoolRunRequest {
  return { packKey: 'python@1', packDir, runtime: 'python', command: entry, entry, input, context: callContext(), timeoutMs: CALL_TIMEOUT_MS, ...extra };
}

async function failure(entry: string, input: unknown = {}, extra: Partial<PoolRunRequest> = {}): Promise<CommandError> {
  const error = await pool.run(request(entry, input, extra)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CommandError);
  return error as CommandError;
}

beforeAll(async () => {
  packDir = await folders.create({
    'data.txt': 'bundled with the pack',
    'tools/__init__.py': '',
    'tools/basics.py': `
import asyncio


def echo(input, ctx):
    return {"echoed": input, "tenant": ctx.tenant, "user": ctx.user, "correlation_id": ctx.correlation_id}


async def echo_async(input, ctx):
    await asyncio.sleep(0.01)
    return {"echoed": input}


class QuotaExceeded(Exception):
    pass


def fail(input, ctx):
    raise QuotaExceeded("no more for today")


def value_error(input, ctx):
    int("not a number")


def secrets(input, ctx):
    try:
        ctx.secrets["API_TOKEN"] = "changed"
        changed = True
    except TypeError:
        changed = False
    return {"token": ctx.secrets.get("API_TOKEN"), "changed": changed}


def storage_sync(input, ctx):
    ctx.storage.put("counter", input["value"])
    return ctx.storage.get("counter")


async def storage_async(input, ctx):
    await ctx.storage.put("counter", input["value"])
    return await ctx.storage.get("counter")


def refused_hook(input, ctx):
    try:
        ctx.ssh.exec("box", "uptime")
    except Exception as error:
        return {"type": type(error).__name__, "message": str(error), "code": error.code}


def chatty(input, ctx):
    ctx.log.info("from ctx.log", 42)
    print("from print")
    import sys
    sys.stderr.write("to stderr\\n")
    return {"done": True}


def spin(input, ctx):
    while True:
        pass


async def wait_for_cancel(input, ctx):
    await asyncio.sleep(60)


def nan(input, ctx):
    return float("nan")
`,
    'commands/file_entry.py': `def run(input, ctx):\n    return "from a file entry"\n`,
    'tools/vendored.py': `import greet\nimport shout\n\n\ndef run(input, ctx):\n    return {"shout": shout.loud("hi"), "greet": greet.GREETING}\n`,
    'vendor/shout/__init__.py': `def loud(text):\n    return text.upper()\n`,
    'hostile/__init__.py': '',
    'hostile/attacks.py': `
import ctypes
import errno
import os
import socket
import subprocess


def read(input, ctx):
    with open(input["path"]) as handle:
        return handle.read()


def write(input, ctx):
    with open(input["path"], "w") as handle:
        handle.write("pwned")
    return "written"


def connect(input, ctx):
    try:
        socket.create_connection((input["host"], input["port"]), timeout=2).close()
        return "connected"
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error))


def unix(input, ctx):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(input["path"])
        return "connected"
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error))


def spawn(input, ctx):
    return subprocess.run(["/bin/echo", "spawned"], capture_output=True, text=True).stdout


def fork(input, ctx):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return "forked"


def exec(input, ctx):
    os.execv("/bin/echo", ["echo", "replaced"])


def native(input, ctx):
    libc = ctypes.CDLL(None, use_errno=True)
    outcomes = {}
    for name, call in [
        ("unshare", lambda: libc.unshare(0x10000000)),
        ("mount", lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
        ("chroot", lambda: libc.chroot(b"/tmp")),
    ]:
        ctypes.set_errno(0)
        result = call()
        outcomes[name] = errno.errorcode.get(ctypes.get_errno(), "ok") if result != 0 else "ok"
    return outcomes


def memory(input, ctx):
    hog = bytearray(input["mb"] * 1024 * 1024)
    return len(hog)


def who(input, ctx):
    return {
        "uid": os.getuid(),
        "ppid": os.getppid(),
        "processes": sorted(name for name in os.listdir("/proc") if name.isdigit()),
        "environment": dict(os.environ),
        "root": sorted(os.listdir("/")),
    }
`,
  });
  // A pure-Python wheel, written by Python's own zipfile.
  const wheel = join(packDir, 'vendor', 'greet-1.0-py3-none-any.whl');
  spawnSync('python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z: z.writestr("greet.py", "GREETING = \'hello from a wheel\'\\n")', wheel]);
  pool = new RunnerPool({
    logger,
    memoryLimitMb: 64,
    killGraceMs: 300,
    hooks: {
      'storage.put': async (call, args) => {
        const { key, value } = args as { key: string; value: unknown };
        stored.set(`${call.tenant}/${key}`, value);
        return { key, created: true };
      },
      'storage.get': async (call, args) => {
        const { key } = args as { key: string };
        const value = stored.get(`${call.tenant}/${key}`);
        return value === undefined ? null : { key, value, tenant: call.tenant };
      },
    },
  });
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  unixPath = join(tmpdir(), `svc-python-host-${process.pid}.sock`);
  unixServer = createServer((socket: Socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => unixServer.listen(unixPath, resolve));
  process.env.SVC_JWT_SECRET = 'platform-secret-the-pack-must-not-see';
});

afterAll(async () => {
  server.close();
  unixServer.close();
  await pool.close();
  await folders.removeAll();
  delete process.env.SVC_JWT_SECRET;
});

describe('python runner', () => {
  it('finds the interpreter and reports it', async () => {
    const report = await pool.sandbox();
    expect(report.python).toMatchObject({ interpreter: expect.stringMatching(/python3/), version: expect.stringMatching(/^3\.\d+\.\d+$/) });
  });

  it('runs a plain function with the caller in ctx', async () => {
    const { value } = await pool.run(request('tools.basics:echo', { text: 'hi' }, { context: callContext({ tenant: 't-1', user: 'u-1', correlationId: 'c-1' }) }));
    expect(value).toEqual({ echoed: { text: 'hi' }, tenant: 't-1', user: 'u-1', correlation_id: 'c-1' });
  });

  it('runs an async def, and a .py file whose run is the command', async () => {
    await expect(pool.run(request('tools.basics:echo_async', { n: 1 }))).resolves.toMatchObject({ value: { echoed: { n: 1 } } });
    await expect(pool.run(request('commands/file_entry.py'))).resolves.toMatchObject({ value: 'from a file entry' });
  });

  it('runs calls of one tenant at once in one runner', async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run(request(i % 2 ? 'tools.basics:echo' : 'tools.basics:echo_async', { i }))));
    expect(runs.map((run) => (run.value as { echoed: { i: number } }).echoed.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("refuses a pack whose python range leaves out this worker's interpreter, running nothing", async () => {
    const assigned = pool.stats().assigned;
    const error = await pool.run(request('tools.basics:echo', {}, { packKey: 'python-future@1', python: '>=4' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PythonVersionError);
    expect(error).toMatchObject({ code: 'PYTHON_VERSION_UNSUPPORTED', message: expect.stringMatching(/^This pack runs on Python >=4; this worker runs Python 3\.\d+\.\d+$/) });
    expect(pool.stats().assigned).toBe(assigned);
    await expect(pool.run(request('tools.basics:echo', {}, { python: '>=3.8,<4' }))).resolves.toBeDefined();
  });

  it('gives a first call the Python spare started ahead (not the Node one), its vendored packages and wheels read at that call', async () => {
    const spared = new RunnerPool({ logger, memoryLimitMb: 64 });
    try {
      await Promise.all([spared.prepareSpare('node'), spared.prepareSpare('python')]);
      // Both ready: the Python spare's interpreter has run the runner's start before the pack's files came.
      await vi.waitFor(() => expect(spared.stats()).toMatchObject({ spares: { node: 'ready', python: 'ready' }, starts: 2 }), { timeout: 10_000 });
      const { value } = await spared.run(request('tools.vendored:run', {}, { packKey: 'python-spare@1' }));
      expect(value).toEqual({ shout: 'HI', greet: 'hello from a wheel' });
      expect(spared.stats()).toMatchObject({ starts: 2, assigned: 1 });
      await vi.waitFor(() => expect(spared.stats()).toMatchObject({ starts: 3, live: 3 }), { timeout: 10_000 });
    } finally {
      await spared.close();
    }
  });

  it("names an exception's class in the error type, with its message", async () => {
    expect(await failure('tools.basics:fail')).toMatchObject({ type: 'QuotaExceeded', message: 'no more for today' });
    expect(await failure('tools.basics:value_error')).toMatchObject({ type: 'ValueError', message: expect.stringContaining('not a number') });
    expect(await failure('tools.basics:missing')).toMatchObject({ type: 'TypeError' });
    expect(await failure('nowhere.module:run')).toMatchObject({ type: 'ModuleNotFoundError' });
    expect(await failure('tools.basics:nan')).toMatchObject({ type: 'ValueError' });
  });

  it('imports vendored dependencies: packages in vendor/, and pure-Python wheels there as they are', async () => {
    const { value } = await pool.run(request('tools.vendored:run'));
    expect(value).toEqual({ shout: 'HI', greet: 'hello from a wheel' });
  });

  it('hands ctx.secrets read-only', async () => {
    const { value } = await pool.run(request('tools.basics:secrets', {}, { context: callContext({ secrets: { API_TOKEN: 'tok' } }) }));
    expect(value).toEqual({ token: 'tok', changed: false });
  });

  it("serves ctx.storage through the worker for the caller's tenant, blocking in a plain function and awaited in an async def", async () => {
    const a = await pool.run(request('tools.basics:storage_sync', { value: 1 }, { context: callContext({ tenant: 'tenant-a' }) }));
    expect(a.value).toEqual({ key: 'counter', value: 1, tenant: 'tenant-a' });
    const b = await pool.run(request('tools.basics:storage_async', { value: 2 }, { context: callContext({ tenant: 'tenant-b' }) }));
    expect(b.value).toEqual({ key: 'counter', value: 2, tenant: 'tenant-b' });
    expect(stored.get('tenant-a/counter')).toBe(1);
  });

  it("raises a ctx call the platform refuses as an exception named for the platform's error", async () => {
    const { value } = await pool.run(request('tools.basics:refused_hook'));
    expect(value).toEqual({ type: 'NotFoundError', message: 'ctx capability "ssh.exec" is not available on this platform', code: 'UNKNOWN_HOOK' });
  });

  it('logs ctx.log, print and stderr with the correlation id, and keeps them out of the result', async () => {
    const { value } = await pool.run(request('tools.basics:chatty', {}, { context: callContext({ correlationId: 'corr-py-chatty' }) }));
    expect(value).toEqual({ done: true });
    const lines = entries.filter((e) => e.correlation_id === 'corr-py-chatty').map((e) => [e.level, e.message]);
    expect(lines).toEqual([
      ['info', 'from ctx.log 42'],
      ['info', 'from print'],
      ['warn', 'to stderr'],
    ]);
  });

  it('stops a `while True` at its timeout by killing the runner; the next call gets a fresh one', async () => {
    const assigned = pool.stats().assigned;
    // Started first, so that the second's timeout is spent spinning, not starting, on a loaded machine.
    await pool.run(request('tools.basics:echo', {}, { packKey: 'python-spin@1' }));
    const error = await pool.run(request('tools.basics:spin', {}, { packKey: 'python-spin@1', timeoutMs: 1000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandTimeoutError);
    await expect(pool.run(request('tools.basics:echo', {}, { packKey: 'python-spin@1' }))).resolves.toBeDefined();
    expect(pool.stats().assigned).toBe(assigned + 2);
  });

  it('cancels an async def waiting on something', async () => {
    const controller = new AbortController();
    const running = pool.run(request('tools.basics:wait_for_cancel', {}, { packKey: 'python-cancel@1', signal: controller.signal }));
    setTimeout(() => controller.abort(), 300);
    await expect(running).rejects.toMatchObject({ code: 'COMMAND_CANCELLED' });
  });
});

describe('python runner sandbox', () => {
  it('reads files inside the pack folder and nothing of the host', async () => {
    await expect(pool.run(request('hostile.attacks:read', { path: 'data.txt' }))).resolves.toMatchObject({ value: 'bundled with the pack' });
    expect(await failure('hostile.attacks:read', { path: '/etc/hostname' })).toMatchObject({ type: 'FileNotFoundError', details: { code: 'ENOENT' } });
  });

  it('writes nowhere: the pack and the root are read-only, and files cannot grow', async () => {
    expect(await failure('hostile.attacks:write', { path: join(packDir, 'written.txt') })).toMatchObject({ details: { code: 'EROFS' } });
    expect(await failure('hostile.attacks:write', { path: '/usr/pwned' })).toMatchObject({ details: { code: 'EROFS' } });
    expect(await failure('hostile.attacks:write', { path: '/tmp/pwned' })).toMatchObject({ details: { code: 'EFBIG' } });
    expect(existsSync(join(packDir, 'written.txt'))).toBe(false);
  });

  it("has no network: the worker's loopback is unreachable, and no Unix socket of the host is there", async () => {
    const port = (server.address() as { port: number }).port;
    expect((await pool.run(request('hostile.attacks:connect', { host: '127.0.0.1', port }))).value).toBe('ENETUNREACH');
    expect((await pool.run(request('hostile.attacks:unix', { path: unixPath }))).value).toBe('ENOENT');
    expect(connections).toBe(0);
  });

  it('starts no process: subprocess, fork and exec are refused', async () => {
    expect(await failure('hostile.attacks:spawn')).toMatchObject({ type: 'PermissionError', details: { code: 'EPERM' } });
    expect(await failure('hostile.attacks:fork')).toMatchObject({ type: 'PermissionError', details: { code: 'EPERM' } });
    expect(await failure('hostile.attacks:exec')).toMatchObject({ type: 'PermissionError', details: { code: 'EPERM' } });
  });

  it('gets nothing from native code through ctypes: namespaces, mounts and chroot are refused', async () => {
    const { value } = await pool.run(request('hostile.attacks:native'));
    expect(value).toEqual({ unshare: 'EPERM', mount: 'EPERM', chroot: 'EPERM' });
  });

  it('holds memory to the kernel ceiling: the allocation fails, the runner serves on', async () => {
    expect(await failure('hostile.attacks:memory', { mb: 1024 })).toMatchObject({ type: 'MemoryError' });
    await expect(pool.run(request('hostile.attacks:memory', { mb: 16 }))).resolves.toMatchObject({ value: 16 * 1024 * 1024 });
  });

  it('runs as an unprivileged user alone in its PID namespace, with none of the platform environment, on a root of its own', async () => {
    const { value } = (await pool.run(request('hostile.attacks:who'))) as { value: { uid: number; ppid: number; processes: string[]; environment: Record<string, string>; root: string[] } };
    expect(value).toMatchObject({ uid: process.getuid?.() === 0 ? 65534 : 0, ppid: 0, processes: ['1'] });
    expect(value.environment).toEqual({ LANG: 'C.UTF-8', MALLOC_ARENA_MAX: '2', TZ: 'UTC' });
    expect(value.root).not.toContain('etc');
    expect(value.root).not.toContain('home');
  });
});
