import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBus, EventOutbox, type Bus, type EventMessage, ephemeralQueueName } from '@svc/bus';
import { waitFor } from '@svc/bus/testing';
import { createLogger } from '@svc/core';
import { createDatabase, type Database } from '@svc/db';
import { EXECUTION_MIGRATIONS, EXECUTION_SCHEMA } from '../../config.js';
import { outbox } from '../../db/schema.js';
import { RunnerPool } from '../runners/runner-pool.js';
import { PackFolders } from '../runners/runner-test-helpers.js';
import { PackManifests } from './pack-manifests.js';
import { usageHooks } from './usage-hooks.js';

const log = createLogger({ service: 'test', silent: true });

const manifest = `schema_version: 1
pack: { namespace: acme, name: writer, version: 1.0.0 }
commands:
  - { name: summarise, entry: commands/summarise.js, input_schema: { type: object } }
`;

describe('ctx.usage.llm from pack code', () => {
  let database: Database;
  let bus: Bus;
  let pool: RunnerPool;
  let packDir: string;
  const folders = new PackFolders();
  const reported: EventMessage<'llm.usage.reported'>[] = [];

  const run = (input: unknown, tenant = randomUUID(), user = randomUUID()) =>
    pool.run({ packKey: 'acme/writer@1.0.0', packDir, entry: 'commands/summarise.js', command: 'summarise', input, context: { tenant, user, correlationId: randomUUID() }, timeoutMs: 10_000 });

  beforeAll(async () => {
    database = await createDatabase({});
    await database.migrate({ migrationsFolder: EXECUTION_MIGRATIONS, schema: EXECUTION_SCHEMA });
    bus = await createBus({ logger: log });
    await bus.subscribe(ephemeralQueueName('test.llm'), ['llm.usage.reported'], async (message) => {
      reported.push(message);
    }, { ephemeral: true });
    const events = new EventOutbox({ db: database.db, table: outbox, bus, log });
    packDir = await folders.create({
      'pack.yaml': manifest,
      'commands/summarise.js': 'export default async (input, ctx) => { for (const r of input.reports) await ctx.usage.llm(r); return { reported: input.reports.length }; };',
    });
    pool = new RunnerPool({ logger: log, hooks: usageHooks(events, new PackManifests()) });
  });

  afterAll(async () => {
    await pool?.close();
    await bus?.close();
    await database?.close();
    await folders.removeAll();
  });

  it("publishes each report for the caller's tenant and user, named by the pack's command, the pack and its version; byok as the pack said", async () => {
    const tenant = randomUUID();
    const user = randomUUID();
    const reports = [{ model: 'gpt-4o', input: 1200, output: 300 }, { model: 'anthropic/claude-3-5-haiku', input: 10, output: 0, byok: true }];
    const result = await run({ reports }, tenant, user);
    expect(result.value).toEqual({ reported: 2 });
    await waitFor(() => reported.filter((r) => r.payload.tenant_id === tenant).length === 2, 'both reports');
    const named = { command: 'acme.summarise', pack: '@acme/writer', version: '1.0.0', tenant_id: tenant, user_id: user };
    expect(reported.filter((r) => r.payload.tenant_id === tenant).map((r) => r.payload)).toEqual([
      { ...named, model: 'gpt-4o', input_tokens: 1200, output_tokens: 300, byok: false },
      { ...named, model: 'anthropic/claude-3-5-haiku', input_tokens: 10, output_tokens: 0, byok: true },
    ]);
    const ids = reported.map((r) => r.messageId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a report out of bounds (the run fails with the reason, as with any ctx call), and publishes nothing for it', async () => {
    const tenant = randomUUID();
    for (const bad of [{ model: '', input: 1, output: 1 }, { model: 'x'.repeat(101), input: 1, output: 1 }, { model: 'gpt 4', input: 1, output: 1 }, { model: 'm', input: -1, output: 1 }, { model: 'm', input: 1.5, output: 1 }, { model: 'm', input: 1, output: 10_000_001 }, { model: 'm', input: 1 }, { model: 'm', input: 1, output: 1, byok: 'yes' }]) {
      await expect(run({ reports: [bad] }, tenant), JSON.stringify(bad)).rejects.toThrow(/Invalid ctx\.usage\.llm/);
    }
    expect(reported.filter((r) => r.payload.tenant_id === tenant)).toEqual([]);
  });
});
