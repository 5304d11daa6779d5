import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './support/client.js';
import { environmentOf, processesRunning } from './support/processes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { email: 'prod-ops@example.test', password: 'production-admin-1' };

/** The working tree as a fresh checkout has it (tracked and new files, nothing ignored), in `to`. */
function copyWorkingTree(to: string): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted but not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(root, file), join(to, file));
  }
}

/**
 * `NODE_ENV=production npm start` in a copy of the repository without node_modules or builds, as
 * an operator runs it: install, build, then the platform, whose URL its "svc is up" line gives.
 */
describe('NODE_ENV=production npm start, in a fresh copy of the repository', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'svc-npm-start-'));
  // Runners started as root read packs under ./.svc-data as another uid: the worker refuses a data folder they cannot reach.
  chmodSync(scratch, 0o755);
  const repo = join(scratch, 'svc');
  let child: ChildProcess;
  let url: string;
  let output = '';

  beforeAll(async () => {
    copyWorkingTree(repo);
    const passed = Object.fromEntries(Object.entries(process.env).filter(([name]) => ['PATH', 'HOME', 'TMPDIR'].includes(name) || name.startsWith('PNPM') || name.startsWith('XDG_')));
    child = spawn('npm', ['start'], {
      cwd: repo,
      detached: true,
      env: { ...passed, NODE_ENV: 'production', PORT: '0', SVC_DATA_DIR: join(scratch, 'data'), SVC_ADMIN_EMAIL: ADMIN.email, SVC_ADMIN_PASSWORD: ADMIN.password, SVC_BCRYPT_ROUNDS: '4', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not serve within 240 s:\n${output.slice(-4000)}`)), 240_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((l) => l.includes('"svc is up"'));
        if (!line) return;
        clearTimeout(timer);
        resolve(JSON.parse(line).url);
      });
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output.slice(-4000)}`)));
    });
  }, 300_000);

  afterAll(() => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('installs the build tools, builds and serves the platform through the gateway', async () => {
    expect(existsSync(join(repo, 'node_modules', '.bin', 'tsup'))).toBe(true);
    const call = client(url);
    expect((await call('/health')).body.status).toBe('healthy');
    const login = await call('/api/v1/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    expect((await call('/api/v1/auth/me', { token: login.body.data.tokens.accessToken })).body.data.email).toBe(ADMIN.email);
  });

  it.runIf(process.platform === 'linux')('runs the platform itself with NODE_ENV=production', () => {
    const [platform, ...others] = processesRunning('deploy/standalone/dist/main.js').filter((p) => p.cwd === repo);
    expect(platform).toBeDefined();
    expect(others).toEqual([]);
    expect(environmentOf(platform!.pid).NODE_ENV).toBe('production');
  });
});
