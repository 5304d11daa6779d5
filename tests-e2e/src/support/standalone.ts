import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROCESS_NODE_FLAGS } from '../../../scripts/node-flags.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Runs a built entry point of the repository (`deploy/standalone/dist/main.js`, made by
 * `npm run build`) as a process of its own with exactly `env` (and `PATH`), and resolves with it
 * and its first stdout line that contains `ready` once one appears; rejects with everything it
 * printed when it exits or takes longer than `timeoutMs`. The built file, with the flags of every
 * platform process (`scripts/node-flags.mjs`), as operators run it: through tsx the source cost a
 * standalone's start some 4 s more CPU (12 s against 8).
 */
export function spawnReady(entry: string, env: Record<string, string>, ready: string, timeoutMs: number): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [...PROCESS_NODE_FLAGS, entry], { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes(ready));
      if (line) {
        clearTimeout(timer);
        resolve({ child, line });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
}

/**
 * Starts `deploy/standalone` as its own process, as `npm start` runs it (embedded infrastructure:
 * none of the test's URLs are passed on), and resolves with its URL once it is serving.
 */
export async function startStandalone(dataDir: string, admin: { email: string; password: string }): Promise<{ child: ChildProcess; url: string }> {
  const env = { PORT: '0', SVC_DATA_DIR: dataDir, SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password, SVC_BCRYPT_ROUNDS: '4', LOG_LEVEL: 'info' };
  const { child, line } = await spawnReady('deploy/standalone/dist/main.js', env, '"svc is up"', 60_000);
  return { child, url: JSON.parse(line).url };
}
