import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallContext } from './runner-protocol.js';
import type { RunnerLimits, RunnerSandbox } from './runner-sandbox.js';

export { capturingLogger, type LogEntry } from '@svc/testing';

/** Temporary folders holding test packs, removed together. */
export class PackFolders {
  readonly #roots: string[] = [];

  /** Writes `files` (path relative to the pack → source) into a fresh pack folder. */
  async create(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'svc-pack-'));
    // Runners run as another uid when the tests run as root: they must be able to reach the pack.
    await chmod(root, 0o755);
    this.#roots.push(root);
    const packDir = join(root, 'pack');
    for (const [path, source] of Object.entries({ 'pack.yaml': 'schema_version: 1\n', ...files })) {
      await mkdir(dirname(join(packDir, path)), { recursive: true });
      await writeFile(join(packDir, path), source);
    }
    return packDir;
  }

  async removeAll(): Promise<void> {
    await Promise.all(this.#roots.map((root) => rm(root, { recursive: true, force: true })));
  }
}

/**
 * A call's timeout in the runner tests: it counts the runner's start, which takes seconds on a
 * loaded two-core machine. The tests of timeouts set their own.
 */
export const CALL_TIMEOUT_MS = 20_000;

export function callContext(overrides: Partial<CallContext> = {}): CallContext {
  return { tenant: 'tenant-a', user: 'user-a', correlationId: 'corr-1', ...overrides };
}

/** Generous limits for looking at a runner's world: the point is what it can see, not its bounds. */
export const VIEW_LIMITS: RunnerLimits = { dataBytes: 512 * 1024 * 1024, cpuSeconds: 60, openFiles: 128, processes: 4096, nice: 10 };

/** What a process started as a runner is, but without Node's permission model, finds of the host. */
export interface HostView {
  root: string[];
  run: boolean;
  etc: boolean;
  dev: boolean;
  home: boolean;
  pack: string;
  beside: string[];
  tmp: string[];
  writeUsr: string;
  writePack: string;
  writeRoot: string;
  processes: string[];
  uid: number;
  capabilities: string;
  seccomp: boolean;
  userNamespace: string;
  mount: string;
}

const VIEW_SCRIPT = (packDir: string) => `
  const fs = require('node:fs');
  const { spawnSync } = require('node:child_process');
  const attempt = (fn) => { try { fn(); return 'ok'; } catch (error) { return error.code; } };
  const run = (...argv) => { const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' }); return r.status === 0 ? 'ran' : r.stderr.trim(); };
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const pack = ${JSON.stringify(packDir)};
  console.log(JSON.stringify({
    root: fs.readdirSync('/').sort(),
    run: fs.existsSync('/run') || fs.existsSync('/var'),
    etc: fs.existsSync('/etc'), dev: fs.existsSync('/dev'), home: fs.existsSync('/root') || fs.existsSync('/home'),
    pack: fs.readFileSync(pack + '/data.txt', 'utf8'),
    beside: fs.readdirSync(require('node:path').dirname(pack)),
    tmp: fs.readdirSync('/tmp').filter((name) => !pack.startsWith('/tmp/' + name)),
    writeUsr: attempt(() => fs.writeFileSync('/usr/pwned', 'x')),
    writePack: attempt(() => fs.writeFileSync(pack + '/pwned', 'x')),
    writeRoot: attempt(() => fs.mkdirSync('/pwned')),
    processes: fs.readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name)),
    uid: process.getuid(),
    capabilities: /CapEff:\\s+(\\w+)/.exec(status)[1],
    seccomp: /Seccomp:\\s+2/.test(status),
    userNamespace: run('/usr/bin/unshare', '--user', 'true'),
    mount: run('/usr/bin/unshare', '--mount', 'true'),
  }));`;

/** Starts a process the way `sandbox` starts runners, without the permission model, and reports what it finds (`HostView`). */
export function viewThrough(sandbox: RunnerSandbox, packDir: string): HostView {
  const { file, args } = sandbox.command(packDir, ['-e', VIEW_SCRIPT(packDir)]);
  const seen = spawnSync(file, args, { cwd: packDir, env: { NODE_ENV: 'production' }, encoding: 'utf8', timeout: 20_000 });
  if (seen.status !== 0) throw new Error(`the view of the host failed: ${seen.stderr}`);
  return JSON.parse(seen.stdout) as HostView;
}
