import type { UsageByPack, UsageByUser, UsageDashboard, UsageMonth, UsageSummary } from '@svc/contracts';
import type { Identity } from '@svc/auth';
import type { Db } from '@svc/db';
import { AdminUserRepository } from '../repositories/admin-user.repository.js';
import { ConcurrencyRepository } from '../repositories/concurrency.repository.js';
import { UsageRepository, type CommandTotals, type LlmTotals } from '../repositories/usage.repository.js';
import { lastPeriods, periodBounds, periodOf } from '../usage/period.js';
import { quotaOf } from '../usage/quotas.js';

const percent = (used: number, limit: number | null): number => (limit ? Math.round((used / limit) * 10_000) / 100 : 0);

function commandFigures(t: CommandTotals) {
  return { commands_executed: t.executed, commands_succeeded: t.succeeded, commands_failed: t.failed, execution_time_seconds: Math.round(t.executionMs) / 1000 };
}

/** A month's tokens over every model. */
function llmTotals(models: LlmTotals[]) {
  const input = models.reduce((sum, m) => sum + m.input, 0);
  const output = models.reduce((sum, m) => sum + m.output, 0);
  return { input, output, total: input + output };
}

/** Answers the usage endpoints from the read model, for the caller's tenant and the current month. */
export class UsageService {
  constructor(
    private readonly db: Db,
    private readonly limitsEnabled: boolean,
    private readonly now: () => Date,
  ) {}

  private get repo() {
    return new UsageRepository(this.db);
  }

  /** `GET /usage`: the spec's first form. */
  async summary(caller: Identity): Promise<UsageSummary> {
    const period = periodOf(this.now());
    const jobs = new ConcurrencyRepository(this.db);
    const [commands, storage, models, current, peak] = await Promise.all([
      this.repo.commandTotals(caller.tenantId, period),
      this.repo.storage(caller.tenantId),
      this.repo.llmByModel(caller.tenantId, period),
      jobs.current(caller.tenantId),
      jobs.peak(caller.tenantId, period),
    ]);
    const limits = quotaOf(caller.tier, this.limitsEnabled);
    const tokens = llmTotals(models);
    return {
      period,
      tenant_id: caller.tenantId,
      usage: {
        commands_executed: commands.executed,
        storage_bytes: storage.bytes,
        llm_tokens: tokens,
        concurrent_jobs: { current, peak },
      },
      limits,
      percentage_used: { storage: percent(storage.bytes, limits.storage_bytes), llm_tokens: percent(tokens.total, limits.llm_tokens_per_month) },
    };
  }

  /** `GET /usage?view=dashboard`: the spec's second form. */
  async dashboard(caller: Identity): Promise<UsageDashboard> {
    const period = periodOf(this.now());
    const [commands, storage, packs, models, subscription] = await Promise.all([
      this.repo.commandTotals(caller.tenantId, period),
      this.repo.storage(caller.tenantId),
      this.repo.byPack(caller.tenantId, period),
      this.repo.llmByModel(caller.tenantId, period),
      new AdminUserRepository(this.db).subscriptionOf(caller.userId),
    ]);
    const limits = quotaOf(caller.tier, this.limitsEnabled);
    const used = llmTotals(models).total;
    const bounds = periodBounds(period);
    return {
      current_period: bounds,
      usage: {
        commands: { executed: commands.executed, limit: limits.commands_per_month, by_pack: Object.fromEntries(packs.map((p) => [p.pack, p.executed])) },
        storage: { used_bytes: storage.bytes, limit_bytes: limits.storage_bytes, percent_used: percent(storage.bytes, limits.storage_bytes) },
        llm_tokens: { used, limit: limits.llm_tokens_per_month, percent_used: percent(used, limits.llm_tokens_per_month), by_model: Object.fromEntries(models.map((m) => [m.model, m.input + m.output])) },
      },
      subscription: { tier: caller.tier, status: subscription?.status ?? null, current_period_end: subscription?.currentPeriodEnd ?? null },
    };
  }

  /** `GET /usage/history`: one entry per month, the oldest first, the current month last. */
  async history(caller: Identity, months: number): Promise<UsageMonth[]> {
    const periods = lastPeriods(periodOf(this.now()), months);
    const [commands, storage] = await Promise.all([this.repo.commandMonths(caller.tenantId, periods), this.repo.storageMonths(caller.tenantId, periods)]);
    const none: CommandTotals = { executed: 0, succeeded: 0, failed: 0, executionMs: 0 };
    return periods.map((period) => ({
      period,
      ...commandFigures(commands.get(period) ?? none),
      storage_operations: storage.get(period)?.operations ?? 0,
      peak_storage_bytes: storage.get(period)?.peakBytes ?? 0,
    }));
  }

  /** `GET /usage/by-pack`: the current month per pack (`@namespace/name`), most used first, with its runs per version and its LLM calls. */
  async byPack(caller: Identity): Promise<UsageByPack> {
    const period = periodOf(this.now());
    const packs = await this.repo.byPack(caller.tenantId, period);
    return {
      period,
      packs: packs.map(({ pack, versions, llm, ...t }) => ({
        pack,
        versions,
        ...commandFigures(t),
        llm_tokens: { input: llm.input, output: llm.output, total: llm.input + llm.output },
        llm_requests: llm.requests,
      })),
    };
  }

  /** `GET /usage/by-user` (platform admins): the current month per user, every tenant or one. */
  async byUser(tenantId: string | undefined): Promise<UsageByUser> {
    const period = periodOf(this.now());
    const users = await this.repo.byUser(period, tenantId);
    return { period, users: users.map(({ tenantId: tenant, userId, ...t }) => ({ tenant_id: tenant, user_id: userId, ...commandFigures(t) })) };
  }
}
