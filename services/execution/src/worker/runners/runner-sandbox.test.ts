import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError } from './runner-errors.js';
import { RunnerPool, type PoolRunRequest } from './runner-pool.js';
import { callContext, capturingLogger, PackFolders } from './runner-test-helpers.js';

const folders = new PackFolders();
const { logger, entries } = capturingLogger();
let packDir: string;
let outsideFile: string;
let pool: RunnerPool;

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
  pool = new RunnerPool({ logger, memoryLimitMb: 64 });
});

afterAll(async () => {
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
});
