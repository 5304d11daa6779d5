import { describe, expect, it } from 'vitest';
import { loadSshEnv } from './env.js';

const base = { SVC_INTERNAL_SECRET: 'ssh-env-test-internal-secret-0123456789' };
const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

describe('the ssh service environment', () => {
  it('refuses to start without SVC_SSH_ENCRYPTION_KEY, saying what it must be', () => {
    expect(() => loadSshEnv(base)).toThrow(/SVC_SSH_ENCRYPTION_KEY: is required: the base64 of 32 bytes/);
  });

  it.each([['too short', Buffer.alloc(16, 1).toString('base64')], ['not base64', 'not-a-key!'], ['too long', Buffer.alloc(33, 1).toString('base64')]])('refuses a key %s', (_label, value) => {
    expect(() => loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: value })).toThrow(/SVC_SSH_ENCRYPTION_KEY: must be the base64 of exactly 32 bytes/);
  });

  it('reads previous keys as a comma-separated list, each checked', () => {
    expect(loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: key(1), SVC_SSH_PREVIOUS_KEYS: `${key(2)}, ${key(3)}` }).SVC_SSH_PREVIOUS_KEYS).toEqual([key(2), key(3)]);
    expect(loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: key(1) }).SVC_SSH_PREVIOUS_KEYS).toEqual([]);
    expect(() => loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: key(1), SVC_SSH_PREVIOUS_KEYS: 'short' })).toThrow(/SVC_SSH_PREVIOUS_KEYS/);
  });

  it('allows no private range by default, and the CIDRs an operator lists', () => {
    expect(loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: key(1) }).SVC_SSH_ALLOWED_CIDRS).toEqual([]);
    expect(loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: key(1), SVC_SSH_ALLOWED_CIDRS: '10.20.0.0/16, fd12::/48' }).SVC_SSH_ALLOWED_CIDRS).toEqual(['10.20.0.0/16', 'fd12::/48']);
    expect(() => loadSshEnv({ ...base, SVC_SSH_ENCRYPTION_KEY: key(1), SVC_SSH_ALLOWED_CIDRS: 'internal-net' })).toThrow(/SVC_SSH_ALLOWED_CIDRS: must be comma-separated CIDRs/);
  });
});
