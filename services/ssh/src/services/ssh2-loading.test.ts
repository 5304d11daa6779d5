import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// Whether this file's process has loaded ssh2: the SSH service that has read no key must not have.
const loaded = vi.hoisted(() => ({ ssh2: false }));
vi.mock('ssh2', async (original) => {
  loaded.ssh2 = true;
  return original();
});

describe('ssh2', () => {
  it('is not loaded by the SSH service until a key is read', async () => {
    await import('../app.js');
    expect(loaded.ssh2).toBe(false);
  });

  it('is loaded to read the first key, which it then reads', async () => {
    const { readablePrivateKey } = await import('./key-material.js');
    const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(await readablePrivateKey(key)).toContain('-----BEGIN OPENSSH PRIVATE KEY-----');
    expect(loaded.ssh2).toBe(true);
  });
});
