import { and, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { sandboxPackages, sandboxes } from '../../db/schema.js';

export type SandboxPackageRow = typeof sandboxPackages.$inferSelect;
/** A synced pack without its bytes. */
export type SandboxPackageSummary = Omit<SandboxPackageRow, 'tarball'>;

const summary = {
  userId: sandboxPackages.userId,
  namespace: sandboxPackages.namespace,
  pack: sandboxPackages.pack,
  version: sandboxPackages.version,
  sha256: sandboxPackages.sha256,
  sizeBytes: sandboxPackages.sizeBytes,
  manifest: sandboxPackages.manifest,
  syncedAt: sandboxPackages.syncedAt,
};

export class SandboxPackageRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a synced pack (replacing the user's earlier sync of it) when the user's packs stay
   * within `limitBytes` with it; otherwise stores nothing and answers the bytes the others hold.
   * The user's sandbox row is locked meanwhile, so that two syncs at once cannot both fit.
   */
  async saveWithin(row: SandboxPackageRow, limitBytes: number): Promise<{ saved: boolean; othersBytes: number }> {
    return this.db.transaction(async (tx) => {
      await tx.select({ userId: sandboxes.userId }).from(sandboxes).where(eq(sandboxes.userId, row.userId)).for('update');
      const [others] = await tx
        .select({ bytes: sql<string>`coalesce(sum(${sandboxPackages.sizeBytes}), 0)` })
        .from(sandboxPackages)
        .where(and(eq(sandboxPackages.userId, row.userId), or(ne(sandboxPackages.namespace, row.namespace), ne(sandboxPackages.pack, row.pack))));
      const othersBytes = Number(others?.bytes ?? 0);
      if (othersBytes + row.sizeBytes > limitBytes) return { saved: false, othersBytes };
      const { userId: _user, namespace: _namespace, pack: _pack, ...replaced } = row;
      await tx.insert(sandboxPackages).values(row).onConflictDoUpdate({ target: [sandboxPackages.userId, sandboxPackages.namespace, sandboxPackages.pack], set: replaced });
      return { saved: true, othersBytes };
    });
  }

  /** The user's synced packs, the latest first. */
  list(userId: string): Promise<SandboxPackageSummary[]> {
    return this.db.select(summary).from(sandboxPackages).where(eq(sandboxPackages.userId, userId)).orderBy(desc(sandboxPackages.syncedAt));
  }

  /** The synced pack of a namespace that has command `name` (the latest synced, should two have it). */
  async withCommand(userId: string, namespace: string, name: string): Promise<SandboxPackageSummary | undefined> {
    const packs = await this.db
      .select(summary)
      .from(sandboxPackages)
      .where(and(eq(sandboxPackages.userId, userId), eq(sandboxPackages.namespace, namespace)))
      .orderBy(desc(sandboxPackages.syncedAt));
    return packs.find((pack) => pack.manifest.commands.some((command) => command.name === name));
  }

  async tarball(userId: string, sha256: string): Promise<Buffer | undefined> {
    const [row] = await this.db
      .select({ tarball: sandboxPackages.tarball })
      .from(sandboxPackages)
      .where(and(eq(sandboxPackages.userId, userId), eq(sandboxPackages.sha256, sha256)))
      .limit(1);
    return row?.tarball;
  }
}
