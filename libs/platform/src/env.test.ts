import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@svc/core';
import { infrastructureEnv } from './env.js';

const parse = (source: Record<string, string>) => parseEnv(z.object(infrastructureEnv), source);

describe('infrastructureEnv', () => {
  it('migrates at start and declares classic queues unless told otherwise, as npm start and compose run', () => {
    expect(parse({})).toMatchObject({ SVC_MIGRATE_AT_START: true, SVC_MIGRATION_WAIT_SECONDS: 120, SVC_BUS_QUEUE_TYPE: 'classic' });
  });

  it('reads the settings the k8s base sets', () => {
    expect(parse({ SVC_MIGRATE_AT_START: 'false', SVC_MIGRATION_WAIT_SECONDS: '300', SVC_BUS_QUEUE_TYPE: 'quorum' })).toMatchObject({
      SVC_MIGRATE_AT_START: false,
      SVC_MIGRATION_WAIT_SECONDS: 300,
      SVC_BUS_QUEUE_TYPE: 'quorum',
    });
  });

  it('refuses another queue type and a wait out of bounds, naming the variables', () => {
    expect(() => parse({ SVC_BUS_QUEUE_TYPE: 'stream' })).toThrow(/SVC_BUS_QUEUE_TYPE/);
    expect(() => parse({ SVC_MIGRATION_WAIT_SECONDS: '0' })).toThrow(/SVC_MIGRATION_WAIT_SECONDS/);
  });
});
