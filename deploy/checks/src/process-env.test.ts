import { describe, expect, it } from 'vitest';
import { EMBEDDED_DATABASE_ENV, platformEnv, PROCESS_ENV } from '../../../scripts/node-flags.mjs';

describe('the environment npm start, npm run fleet and the benchmarks give a platform process', () => {
  it('keeps malloc from holding the embedded database\'s compile memory when there is no DATABASE_URL', () => {
    const env = platformEnv({ PATH: '/usr/bin' });
    expect(env).toEqual({ ...PROCESS_ENV, ...EMBEDDED_DATABASE_ENV, PATH: '/usr/bin' });
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe('32768');
    expect(env.MALLOC_ARENA_MAX).toBe('2');
  });

  it('leaves glibc\'s own threshold to a process on a real Postgres', () => {
    const env = platformEnv({ DATABASE_URL: 'postgres://db/svc' });
    expect(env).toEqual({ ...PROCESS_ENV, DATABASE_URL: 'postgres://db/svc' });
    expect(env).not.toHaveProperty('MALLOC_MMAP_THRESHOLD_');
  });

  it('lets what the operator set win', () => {
    expect(platformEnv({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' })).toMatchObject({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' });
  });
});
