import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@svc/db';
import { usageCommands, usageLlm, usageStorage, usageStorageMonths } from '../db/schema.js';

export interface CommandTotals {
  executed: number;
  succeeded: number;
  failed: number;
  executionMs: number;
}

export interface CommandRun {
  period: string;
  tenantId: string;
  userId: string;
  /** `@<namespace>/<name>`; a namespace alone for events that did not name their pack. */
  pack: string;
  /** The pack's version that ran; '' when the event did not say. */
  version: string;
  succeeded: boolean;
  durationMs: number;
}

export interface StorageReport {
  period: string;
  tenantId: string;
  bytes: number;
  keys: number;
  version: number;
}

export interface LlmReport {
  period: string;
  tenantId: string;
  userId: string;
  pack: string;
  version: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

export interface LlmTotals {
  model: string;
  input: number;
  output: number;
  requests: number;
}

/** A pack's month: its runs (per version too) and the LLM calls its commands reported. */
export interface PackTotals extends CommandTotals {
  pack: string;
  /** Runs per version; runs of an unknown version (counted before events named it) are left out. */
  versions: Record<string, number>;
  llm: { input: number; output: number; requests: number };
}

/**
 * The summed rows of a batch by their key, so that two batches handled at once (two replicas)
 * lock the rows they share in the same order and never wait on each other in a circle.
 */
const inKeyOrder = <R>(rows: Map<string, R>): R[] => [...rows.keys()].sort().map((key) => rows.get(key)!);

/** The value a row of an upsert proposed for `column` (Postgres's `excluded`). */
const excluded = (column: AnyPgColumn) => sql.raw(`excluded."${column.name}"`);

const totals = {
  executed: sql<number>`coalesce(sum(${usageCommands.executed}), 0)::int`,
  succeeded: sql<number>`coalesce(sum(${usageCommands.succeeded}), 0)::int`,
  failed: sql<number>`coalesce(sum(${usageCommands.failed}), 0)::int`,
  executionMs: sql<number>`coalesce(sum(${usageCommands.executionMs}), 0)::bigint`.mapWith(Number),
};

/** The usage read model: counters kept up to date by events, read per tenant, pack and user. */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  /** Runs of one batch, summed per month, tenant, user and pack: one statement. */
  async addCommandRuns(runs: CommandRun[]): Promise<void> {
    const rows = new Map<string, Omit<CommandRun, 'succeeded' | 'durationMs'> & CommandTotals>();
    for (const run of runs) {
      const key = JSON.stringify([run.period, run.tenantId, run.userId, run.pack, run.version]);
      const row = rows.get(key) ?? { period: run.period, tenantId: run.tenantId, userId: run.userId, pack: run.pack, version: run.version, executed: 0, succeeded: 0, failed: 0, executionMs: 0 };
      row.executed += 1;
      row.succeeded += run.succeeded ? 1 : 0;
      row.failed += run.succeeded ? 0 : 1;
      row.executionMs += Math.max(0, Math.round(run.durationMs));
      rows.set(key, row);
    }
    if (rows.size === 0) return;
    await this.db
      .insert(usageCommands)
      .values(inKeyOrder(rows))
      .onConflictDoUpdate({
        target: [usageCommands.period, usageCommands.tenantId, usageCommands.userId, usageCommands.pack, usageCommands.version],
        set: {
          executed: sql`${usageCommands.executed} + ${excluded(usageCommands.executed)}`,
          succeeded: sql`${usageCommands.succeeded} + ${excluded(usageCommands.succeeded)}`,
          failed: sql`${usageCommands.failed} + ${excluded(usageCommands.failed)}`,
          executionMs: sql`${usageCommands.executionMs} + ${excluded(usageCommands.executionMs)}`,
        },
      });
  }

  /** Token reports of one batch, summed per month, tenant, user, pack, version and model: one statement. */
  async addLlmReports(reports: LlmReport[]): Promise<void> {
    const rows = new Map<string, LlmReport & { requests: number }>();
    for (const report of reports) {
      const key = JSON.stringify([report.period, report.tenantId, report.userId, report.pack, report.version, report.model]);
      const row = rows.get(key) ?? { ...report, inputTokens: 0, outputTokens: 0, requests: 0 };
      row.inputTokens += report.inputTokens;
      row.outputTokens += report.outputTokens;
      row.requests += 1;
      rows.set(key, row);
    }
    if (rows.size === 0) return;
    await this.db
      .insert(usageLlm)
      .values(inKeyOrder(rows))
      .onConflictDoUpdate({
        target: [usageLlm.period, usageLlm.tenantId, usageLlm.userId, usageLlm.pack, usageLlm.version, usageLlm.model],
        set: {
          inputTokens: sql`${usageLlm.inputTokens} + ${excluded(usageLlm.inputTokens)}`,
          outputTokens: sql`${usageLlm.outputTokens} + ${excluded(usageLlm.outputTokens)}`,
          requests: sql`${usageLlm.requests} + ${excluded(usageLlm.requests)}`,
        },
      });
  }

  /** A tenant's tokens of a month per model, the most used first. */
  async llmByModel(tenantId: string, period: string): Promise<LlmTotals[]> {
    const input = sql<number>`coalesce(sum(${usageLlm.inputTokens}), 0)::bigint`.mapWith(Number);
    const output = sql<number>`coalesce(sum(${usageLlm.outputTokens}), 0)::bigint`.mapWith(Number);
    return this.db
      .select({ model: usageLlm.model, input, output, requests: sql<number>`coalesce(sum(${usageLlm.requests}), 0)::int` })
      .from(usageLlm)
      .where(and(eq(usageLlm.tenantId, tenantId), eq(usageLlm.period, period)))
      .groupBy(usageLlm.model)
      .orderBy(desc(sql`${input} + ${output}`), usageLlm.model);
  }

  /** Records a storage report: the latest size (never replaced by an older version) and the month's operations. */
  async addStorageReport(report: StorageReport): Promise<void> {
    await this.db
      .insert(usageStorage)
      .values({ tenantId: report.tenantId, bytes: report.bytes, keys: report.keys, version: report.version })
      .onConflictDoUpdate({
        target: usageStorage.tenantId,
        set: { bytes: report.bytes, keys: report.keys, version: report.version },
        setWhere: sql`${usageStorage.version} < ${report.version}`,
      });
    await this.db
      .insert(usageStorageMonths)
      .values({ period: report.period, tenantId: report.tenantId, operations: 1, peakBytes: report.bytes })
      .onConflictDoUpdate({
        target: [usageStorageMonths.period, usageStorageMonths.tenantId],
        set: { operations: sql`${usageStorageMonths.operations} + 1`, peakBytes: sql`greatest(${usageStorageMonths.peakBytes}, ${report.bytes})` },
      });
  }

  async commandTotals(tenantId: string, period: string): Promise<CommandTotals> {
    const [row] = await this.db.select(totals).from(usageCommands).where(and(eq(usageCommands.tenantId, tenantId), eq(usageCommands.period, period)));
    return row!;
  }

  async storage(tenantId: string): Promise<{ bytes: number; keys: number }> {
    const [row] = await this.db.select({ bytes: usageStorage.bytes, keys: usageStorage.keys }).from(usageStorage).where(eq(usageStorage.tenantId, tenantId));
    return row ?? { bytes: 0, keys: 0 };
  }

  async storageMonths(tenantId: string, periods: string[]): Promise<Map<string, { operations: number; peakBytes: number }>> {
    const rows = await this.db
      .select({ period: usageStorageMonths.period, operations: usageStorageMonths.operations, peakBytes: usageStorageMonths.peakBytes })
      .from(usageStorageMonths)
      .where(and(eq(usageStorageMonths.tenantId, tenantId), inArray(usageStorageMonths.period, periods)));
    return new Map(rows.map((r) => [r.period, { operations: r.operations, peakBytes: r.peakBytes }]));
  }

  async commandMonths(tenantId: string, periods: string[]): Promise<Map<string, CommandTotals>> {
    const rows = await this.db
      .select({ period: usageCommands.period, ...totals })
      .from(usageCommands)
      .where(and(eq(usageCommands.tenantId, tenantId), inArray(usageCommands.period, periods)))
      .groupBy(usageCommands.period);
    return new Map(rows.map(({ period, ...rest }) => [period, rest]));
  }

  /** A tenant's month per pack, the most run first (then by name): runs per version and LLM calls with them. */
  async byPack(tenantId: string, period: string): Promise<PackTotals[]> {
    const [runs, calls] = await Promise.all([
      this.db
        .select({ pack: usageCommands.pack, version: usageCommands.version, ...totals })
        .from(usageCommands)
        .where(and(eq(usageCommands.tenantId, tenantId), eq(usageCommands.period, period)))
        .groupBy(usageCommands.pack, usageCommands.version),
      this.db
        .select({
          pack: usageLlm.pack,
          input: sql<number>`coalesce(sum(${usageLlm.inputTokens}), 0)::bigint`.mapWith(Number),
          output: sql<number>`coalesce(sum(${usageLlm.outputTokens}), 0)::bigint`.mapWith(Number),
          requests: sql<number>`coalesce(sum(${usageLlm.requests}), 0)::int`,
        })
        .from(usageLlm)
        .where(and(eq(usageLlm.tenantId, tenantId), eq(usageLlm.period, period)))
        .groupBy(usageLlm.pack),
    ]);
    const packs = new Map<string, PackTotals>();
    const entryOf = (pack: string): PackTotals => {
      const known = packs.get(pack);
      if (known) return known;
      const entry = { pack, versions: {}, executed: 0, succeeded: 0, failed: 0, executionMs: 0, llm: { input: 0, output: 0, requests: 0 } };
      packs.set(pack, entry);
      return entry;
    };
    for (const { pack, version, ...run } of runs) {
      const entry = entryOf(pack);
      entry.executed += run.executed;
      entry.succeeded += run.succeeded;
      entry.failed += run.failed;
      entry.executionMs += run.executionMs;
      if (version) entry.versions[version] = (entry.versions[version] ?? 0) + run.executed;
    }
    for (const { pack, ...llm } of calls) entryOf(pack).llm = llm;
    return [...packs.values()].sort((a, b) => b.executed - a.executed || (a.pack < b.pack ? -1 : a.pack > b.pack ? 1 : 0));
  }

  async byUser(period: string, tenantId?: string): Promise<Array<CommandTotals & { tenantId: string; userId: string }>> {
    const where = tenantId ? and(eq(usageCommands.period, period), eq(usageCommands.tenantId, tenantId)) : eq(usageCommands.period, period);
    return this.db
      .select({ tenantId: usageCommands.tenantId, userId: usageCommands.userId, ...totals })
      .from(usageCommands)
      .where(where)
      .groupBy(usageCommands.tenantId, usageCommands.userId)
      .orderBy(desc(totals.executed), usageCommands.userId);
  }
}
