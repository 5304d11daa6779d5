import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { secrets } from '../db/schema.js';

export type SecretRow = typeof secrets.$inferSelect;

/** Which pack of which tenant. */
export interface SecretScope {
  tenantId: string;
  namespace: string;
  pack: string;
}

const ofPack = (scope: SecretScope) => and(eq(secrets.tenantId, scope.tenantId), eq(secrets.namespace, scope.namespace), eq(secrets.pack, scope.pack));
const ofSecret = (scope: SecretScope, name: string) => and(ofPack(scope), eq(secrets.name, name));

export class SecretRepository {
  constructor(private readonly db: Db) {}

  /** Every secret of a pack, sealed, by name. */
  async list(scope: SecretScope): Promise<SecretRow[]> {
    return this.db.select().from(secrets).where(ofPack(scope)).orderBy(asc(secrets.name));
  }

  async find(scope: SecretScope, name: string): Promise<SecretRow | undefined> {
    const [row] = await this.db.select().from(secrets).where(ofSecret(scope, name));
    return row;
  }

  async count(scope: SecretScope): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(secrets).where(ofPack(scope));
    return row?.n ?? 0;
  }

  /** Creates or replaces a secret; a replaced one keeps its `created_at`. */
  async write(scope: SecretScope, name: string, sealed: Buffer, now: Date): Promise<SecretRow> {
    const [row] = await this.db
      .insert(secrets)
      .values({ ...scope, name, sealed, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [secrets.tenantId, secrets.namespace, secrets.pack, secrets.name], set: { sealed, updatedAt: now } })
      .returning();
    return row!;
  }

  async delete(scope: SecretScope, name: string): Promise<boolean> {
    const removed = await this.db.delete(secrets).where(ofSecret(scope, name)).returning({ name: secrets.name });
    return removed.length > 0;
  }
}
