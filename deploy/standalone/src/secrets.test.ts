import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecrets } from './secrets.js';

describe('the standalone secrets kept in SVC_DATA_DIR', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('makes every secret once, the SSH key as base64 of 32 bytes, in a file only its owner reads', () => {
    const dir = dataDir();
    const made = loadOrCreateSecrets(dir);
    expect(made.SVC_JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(made.SVC_INTERNAL_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(made.SVC_SSH_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecrets(dir)).toEqual(made);
  });

  it('adds the SSH key to a file written before it existed, keeping the other secrets', () => {
    const dir = dataDir();
    const older = { SVC_JWT_SECRET: 'j'.repeat(64), SVC_INTERNAL_SECRET: 'i'.repeat(64) };
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify(older), { mode: 0o600 });
    const secrets = loadOrCreateSecrets(dir);
    expect(secrets).toMatchObject(older);
    expect(Buffer.from(secrets.SVC_SSH_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual(secrets);
  });
});
