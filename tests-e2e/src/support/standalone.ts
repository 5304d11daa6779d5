import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Starts `deploy/standalone` as its own process, as `npm start` runs it (embedded infrastructure,
 * whatever URLs the test process has), and resolves with its URL once it is serving.
 */
export function startStandalone(dataDir: string, admin: { email: string; password: string }, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/standalone/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      SVC_DATA_DIR: dataDir,
      SVC_ADMIN_EMAIL: admin.email,
      SVC_ADMIN_PASSWORD: admin.password,
      SVC_BCRYPT_ROUNDS: '4',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`standalone did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"svc is up"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(line).url });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`standalone exited with ${code}:\n${output}`)));
  });
}
