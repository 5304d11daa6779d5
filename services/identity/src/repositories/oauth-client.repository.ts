import { eq } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { oauthClients } from '../db/schema.js';

export type OAuthClientRow = typeof oauthClients.$inferSelect;

export class OAuthClientRepository {
  constructor(private readonly db: Db) {}

  async insert(clientId: string, metadata: Record<string, unknown>): Promise<OAuthClientRow> {
    const [row] = await this.db.insert(oauthClients).values({ clientId, metadata }).returning();
    return row!;
  }

  async find(clientId: string): Promise<OAuthClientRow | undefined> {
    const [row] = await this.db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
    return row;
  }
}
