import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from './sealer.js';

const key = randomBytes(32);

describe('Sealer', () => {
  it('opens what it sealed, only for the place it was sealed for', () => {
    const sealer = new Sealer({ purpose: 'test/v1', current: key });
    const { keyId, sealed } = sealer.seal('hunter2', 'tenant-a/target-1');
    expect(keyId).toBe(sealer.currentKeyId);
    expect(sealed.toString('utf8')).not.toContain('hunter2');
    expect(sealer.open(sealed, 'tenant-a/target-1', keyId)).toBe('hunter2');
    expect(() => sealer.open(sealed, 'tenant-b/target-1', keyId)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => sealer.open(altered, 'tenant-a/target-1', keyId)).toThrow();
  });

  it('derives a key per purpose: one secret serving two purposes seals each apart', () => {
    const secrets = new Sealer({ purpose: 'pack-secrets/v1', current: 'a shared secret of some length' });
    const ssh = new Sealer({ purpose: 'ssh-credentials/v1', current: 'a shared secret of some length' });
    expect(secrets.currentKeyId).not.toBe(ssh.currentKeyId);
    const { sealed } = secrets.seal('value', 'here');
    expect(() => ssh.open(sealed, 'here', secrets.currentKeyId)).toThrow(/no configured key/);
  });

  it('opens values sealed under a previous secret, which need re-sealing, after a rotation', () => {
    const before = new Sealer({ purpose: 'test/v1', current: key });
    const old = before.seal('hunter2', 'here');
    const after = new Sealer({ purpose: 'test/v1', current: randomBytes(32), previous: [key] });
    expect(after.open(old.sealed, 'here', old.keyId)).toBe('hunter2');
    expect(after.needsReseal(old.keyId)).toBe(true);
    expect(after.needsReseal(after.seal('x', 'here').keyId)).toBe(false);
  });

  it('opens values sealed under an underived key by the id they carry, and never seals under it', () => {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from('here'));
    const ciphertext = Buffer.concat([cipher.update('legacy', 'utf8'), cipher.final()]);
    const legacy = Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]);
    const sealer = new Sealer({ purpose: 'test/v1', current: key, underived: [{ keyId: 'legacy-id', key }] });
    expect(sealer.open(legacy, 'here', 'legacy-id')).toBe('legacy');
    expect(sealer.needsReseal('legacy-id')).toBe(true);
    expect(sealer.seal('new', 'here').keyId).not.toBe('legacy-id');
  });
});
