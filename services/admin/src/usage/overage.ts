import type { OutboxWriter } from '@svc/bus';
import { htmlOfText, type QUOTA_METRICS } from '@svc/contracts';
import type { Db } from '@svc/db';
import { AdminUserRepository } from '../repositories/admin-user.repository.js';
import { UsageLimitRepository } from '../repositories/usage-limit.repository.js';
import { UsageRepository } from '../repositories/usage.repository.js';
import { TIER_QUOTAS } from './quotas.js';

export type QuotaMetric = (typeof QUOTA_METRICS)[number];

const LABELS: Record<QuotaMetric, string> = {
  commands_per_month: 'commands this month',
  storage_bytes: 'bytes of storage',
  llm_tokens_per_month: 'LLM tokens this month',
};

/** Who hears of a tenant's overage and which tier's quotas apply: the user whose own tenant it is, else the user who used it. */
async function ownerOf(tx: Db, tenantId: string, userId: string | null) {
  const users = new AdminUserRepository(tx);
  const owner = await users.ownerOfTenant(tenantId);
  if (owner || !userId) return owner;
  return users.quotaHolder(userId);
}

/** The quota of `metric` the tenant is past this month, with its owner; undefined when within it (or unlimited, or the owner is unknown yet). */
export async function pastQuota(tx: Db, tenantId: string, userId: string | null, period: string, metric: QuotaMetric) {
  const owner = await ownerOf(tx, tenantId, userId);
  if (!owner) return undefined;
  const limit = (TIER_QUOTAS[owner.tier as keyof typeof TIER_QUOTAS] ?? TIER_QUOTAS.free)[metric];
  if (limit === null) return undefined;
  const used = await usedOf(new UsageRepository(tx), tenantId, period, metric);
  return used > limit ? { owner, used, limit } : undefined;
}

/**
 * Soft overage (Part 2, Limits): after a tenant's counters moved, a quota it is past gives a
 * `usage.quota.exceeded` warning and an e-mail to its owner, at most once a UTC day per tenant and
 * metric (`usage_notices`), in the transaction of the counters. Processing goes on. Says whether
 * the tenant is past the quota (hard limits act on it).
 */
export async function warnOfOverage(tx: Db, out: OutboxWriter, moved: { tenantId: string; userId: string | null; period: string; at: Date; metric: QuotaMetric }): Promise<boolean> {
  const past = await pastQuota(tx, moved.tenantId, moved.userId, moved.period, moved.metric);
  if (!past) return false;
  const { owner, used, limit } = past;
  const day = moved.at.toISOString().slice(0, 10);
  if (!(await new UsageLimitRepository(tx).noticeOnce({ tenantId: moved.tenantId, metric: moved.metric, day, used, limit }))) return true;
  out.publish('usage.quota.exceeded', { tenant_id: moved.tenantId, metric: moved.metric, used, limit, period: moved.period });
  const text = `Your workspace has used ${used} ${LABELS[moved.metric]}; your ${owner.tier} plan includes ${limit}.\n\nNothing has stopped: your commands keep running. Upgrade your plan or reduce usage to stay within it.`;
  out.publish('email.requested', { to: owner.email, subject: 'You are over a usage limit of your plan', text, html: htmlOfText(text), kind: 'usage-quota-exceeded', user_id: owner.userId });
  return true;
}

async function usedOf(usage: UsageRepository, tenantId: string, period: string, metric: QuotaMetric): Promise<number> {
  if (metric === 'commands_per_month') return (await usage.commandTotals(tenantId, period)).executed;
  if (metric === 'storage_bytes') return (await usage.storage(tenantId)).bytes;
  return (await usage.llmByModel(tenantId, period)).reduce((sum, m) => sum + m.input + m.output, 0);
}
