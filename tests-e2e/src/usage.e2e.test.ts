import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ephemeralQueueName } from '@svc/bus';
import type { EventPayload } from '@svc/contracts';
import { adminToken, createOrganization, expectError, signUp, type TestUser } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { installPack } from './support/execution.js';
import { MODES, startTestFleet, type TestFleet } from './support/fleet.js';

/** Reports the tokens its input names, as a pack calling a language model would. */
const CHAT = `export default async (input, ctx) => {
  await ctx.usage.llm({ model: input.model, input: input.input, output: input.output, byok: input.byok });
  return { ok: true };
};
`;

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(MODES)('usage limits and LLM tokens through the platform (%s infrastructure)', (mode) => {
  let fleet: TestFleet;
  let call: Call;
  let publisher: TestUser;
  let admin: string;
  const warnings: EventPayload<'usage.quota.exceeded'>[] = [];

  const chat = (user: TestUser, input: Record<string, unknown>) => call(`/api/v1/commands/${publisher.slug}/chat`, { token: user.token, body: input });
  const usageOf = async (user: TestUser) => (await call('/api/v1/usage', { token: user.token })).body.data;

  beforeAll(async () => {
    fleet = await startTestFleet(mode);
    call = client(fleet.url);
    await fleet.infra.bus.subscribe(ephemeralQueueName(`e2e.usage-warnings-${mode}`), ['usage.quota.exceeded'], async (m) => {
      warnings.push(m.payload);
    }, { ephemeral: true });
    admin = await adminToken(call);
    publisher = await signUp(call, admin);
    await createOrganization(call, publisher);
    await installPack(fleet.url, call, publisher, {
      namespace: publisher.slug,
      name: 'assistant',
      visibility: 'public',
      commands: [{ name: 'chat', input_schema: { type: 'object', properties: { model: { type: 'string' }, input: { type: 'integer' }, output: { type: 'integer' }, byok: { type: 'boolean' } }, required: ['model', 'input', 'output'] } }],
      files: { 'commands/chat.js': CHAT },
    });
  });
  afterAll(() => fleet?.stop());

  it('counts the tokens a pack reports by model, for the caller only, and an event delivered twice once', async () => {
    const [ada, bob] = [await signUp(call, admin), await signUp(call, admin)];
    expect((await chat(ada, { model: 'gpt-4o', input: 1200, output: 300 })).status).toBe(200);
    expect((await chat(ada, { model: 'claude-3-5-haiku', input: 100, output: 50 })).status).toBe(200);
    await until(async () => (await usageOf(ada)).usage.llm_tokens.total === 1650);
    const twice = randomUUID();
    for (let i = 0; i < 2; i++) {
      await fleet.infra.bus.publish('llm.usage.reported', { command: `${publisher.slug}.chat`, tenant_id: ada.tenantId, user_id: ada.id, model: 'gpt-4o', input_tokens: 10, output_tokens: 0 }, { messageId: twice });
    }
    await until(async () => (await usageOf(ada)).usage.llm_tokens.total === 1660);
    const dashboard = (await call('/api/v1/usage?view=dashboard', { token: ada.token })).body.data;
    expect(dashboard.usage.llm_tokens).toMatchObject({ used: 1660, by_model: { 'gpt-4o': 1510, 'claude-3-5-haiku': 150 } });
    // A run's end (command.executed) travels on its own queue and may arrive after its token reports.
    await until(async () => (await usageOf(ada)).usage.concurrent_jobs.current === 0);
    const summary = await usageOf(ada);
    expect(summary.usage.llm_tokens).toEqual({ input: 1310, output: 350, total: 1660 });
    expect(summary.usage.concurrent_jobs.peak).toBeGreaterThanOrEqual(1);
    expect((await usageOf(bob)).usage.llm_tokens.total).toBe(0);
    expect((await usageOf(bob)).usage.concurrent_jobs).toEqual({ current: 0, peak: 0 });
  });

  it('counts runs and tokens per pack (@namespace/name), not per namespace: two packs of one organization stay apart', async () => {
    await installPack(fleet.url, call, publisher, {
      namespace: publisher.slug,
      name: 'janitor',
      version: '2.1.0',
      visibility: 'public',
      commands: [{ name: 'tidy', input_schema: { type: 'object' } }],
      files: { 'commands/tidy.js': 'export default async (input, ctx) => { await ctx.usage.llm({ model: "small", input: 40, output: 2 }); return { tidy: true }; };\n' },
    });
    const user = await signUp(call, admin);
    expect((await chat(user, { model: 'gpt-4o', input: 100, output: 10 })).status).toBe(200);
    expect((await chat(user, { model: 'gpt-4o', input: 100, output: 10 })).status).toBe(200);
    expect((await call(`/api/v1/commands/${publisher.slug}/tidy`, { token: user.token, body: {} })).status).toBe(200);
    const assistant = `@${publisher.slug}/assistant`;
    const janitor = `@${publisher.slug}/janitor`;
    await until(async () => (await call('/api/v1/usage/by-pack', { token: user.token })).body.data.packs.reduce((n: number, p: any) => n + p.commands_executed, 0) === 3);
    const byPack = (await call('/api/v1/usage/by-pack', { token: user.token })).body.data;
    expect(byPack.packs).toEqual([
      { pack: assistant, versions: { '1.0.0': 2 }, commands_executed: 2, commands_succeeded: 2, commands_failed: 0, execution_time_seconds: expect.any(Number), llm_tokens: { input: 200, output: 20, total: 220 }, llm_requests: 2 },
      { pack: janitor, versions: { '2.1.0': 1 }, commands_executed: 1, commands_succeeded: 1, commands_failed: 0, execution_time_seconds: expect.any(Number), llm_tokens: { input: 40, output: 2, total: 42 }, llm_requests: 1 },
    ]);
    const dashboard = (await call('/api/v1/usage?view=dashboard', { token: user.token })).body.data;
    expect(dashboard.usage.commands).toMatchObject({ executed: 3, by_pack: { [assistant]: 2, [janitor]: 1 } });
  });

  it("counts a call on the user's own provider key (byok) as a request with no platform tokens: past Free's quota, no warning and no refusal", async () => {
    const own = await signUp(call, admin, { tier: 'free' });
    expect((await chat(own, { model: 'gpt-4o', input: 40_000, output: 5_000, byok: true })).status).toBe(200);
    expect((await chat(own, { model: 'gpt-4o', input: 100, output: 10 })).status).toBe(200);
    await until(async () => (await call('/api/v1/usage/by-pack', { token: own.token })).body.data.packs[0]?.llm_requests === 2);
    expect((await usageOf(own)).usage.llm_tokens).toEqual({ input: 100, output: 10, total: 110 });
    expect((await call('/api/v1/usage/by-pack', { token: own.token })).body.data.packs[0]).toMatchObject({ pack: `@${publisher.slug}/assistant`, llm_tokens: { input: 100, output: 10, total: 110 }, llm_requests: 2 });
    expect((await chat(own, { model: 'gpt-4o', input: 1, output: 1, byok: true })).status).toBe(200);
    expect(warnings.filter((w) => w.tenant_id === own.tenantId)).toEqual([]);
  });

  it('lets only an enterprise tenant turn hard limits on (Part 2, Limits); anybody may turn them off', async () => {
    for (const tier of ['free', 'pro']) {
      const who = await signUp(call, admin, { tier });
      expectError(await call('/api/v1/usage/limits', { method: 'PUT', token: who.token, body: { hard: true } }), 403, 'HARD_LIMITS_ENTERPRISE_ONLY');
      expect((await call('/api/v1/usage/limits', { method: 'PUT', token: who.token, body: { hard: false } })).body.data).toEqual({ tenant_id: who.tenantId, hard: false });
    }
    const big = await signUp(call, admin, { tier: 'enterprise' });
    expect((await call('/api/v1/usage/limits', { method: 'PUT', token: big.token, body: { hard: true } })).body.data).toEqual({ tenant_id: big.tenantId, hard: true });
  });

  it('goes on past a quota with one warning, and refuses the next run of a tenant with hard limits', async () => {
    const soft = await signUp(call, admin, { tier: 'free' });
    // Hard limits are an enterprise tenant's choice; it keeps them when moved to Free by an operator, and Free's quotas then hold.
    const hard = await signUp(call, admin, { tier: 'enterprise' });
    expect((await call('/api/v1/usage/limits', { method: 'PUT', token: hard.token, body: { hard: true } })).body.data).toEqual({ tenant_id: hard.tenantId, hard: true });
    await until(async () => (await call(`/api/v1/admin/users/${hard.id}`, { token: admin })).status === 200);
    expect((await call(`/api/v1/admin/users/${hard.id}/tier`, { token: admin, body: { tier: 'free', reason: 'trial ended' } })).status).toBe(200);
    for (const who of [soft, hard]) {
      expect((await chat(who, { model: 'm', input: 6_000, output: 0 })).status).toBe(200);
      expect((await chat(who, { model: 'm', input: 6_000, output: 0 })).status).toBe(200);
    }
    await until(async () => (await usageOf(hard)).usage.llm_tokens.total === 12_000 && (await usageOf(soft)).usage.llm_tokens.total === 12_000);
    // Soft: past the 10K of Free, runs go on; one warning today however many runs go past.
    expect((await chat(soft, { model: 'm', input: 1, output: 0 })).status).toBe(200);
    await until(async () => (await usageOf(soft)).usage.llm_tokens.total === 12_001);
    expect(warnings.filter((w) => w.tenant_id === soft.tenantId)).toEqual([{ tenant_id: soft.tenantId, metric: 'llm_tokens_per_month', used: 12_000, limit: 10_000, period: expect.stringMatching(/^\d{4}-\d{2}$/) }]);
    // Hard: the next run is refused until hard limits are turned off.
    await until(async () => (await chat(hard, { model: 'm', input: 1, output: 0 })).status === 429);
    expectError(await chat(hard, { model: 'm', input: 1, output: 0 }), 429, 'USAGE_LIMIT_EXCEEDED');
    expect((await call('/api/v1/usage/limits', { method: 'PUT', token: hard.token, body: { hard: false } })).status).toBe(200);
    expect((await chat(hard, { model: 'm', input: 1, output: 0 })).status).toBe(200);
  });
});
