import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { registrationSessions } from '../db/schema.js';

export type RegistrationRow = typeof registrationSessions.$inferSelect;
export type RegistrationChanges = Partial<Omit<RegistrationRow, 'id' | 'createdAt'>>;

export class RegistrationRepository {
  constructor(private readonly db: Db) {}

  async create(id: string, ref: string, now: Date): Promise<void> {
    await this.db.insert(registrationSessions).values({ id, ref, createdAt: now, updatedAt: now }).onConflictDoNothing();
  }

  async find(id: string): Promise<RegistrationRow | undefined> {
    const [row] = await this.db.select().from(registrationSessions).where(eq(registrationSessions.id, id));
    return row;
  }

  async lock(id: string): Promise<RegistrationRow | undefined> {
    const [row] = await this.db.select().from(registrationSessions).where(eq(registrationSessions.id, id)).for('update');
    return row;
  }

  async findByPaymentIntent(paymentIntent: string): Promise<RegistrationRow | undefined> {
    const [row] = await this.db.select().from(registrationSessions).where(eq(registrationSessions.paymentIntent, paymentIntent));
    return row;
  }

  /** Keeps a minted code on a pending session that has none yet; false when another got there first. */
  async keepCode(id: string, accessCodeId: string, code: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(registrationSessions)
      .set({ accessCodeId, code, updatedAt: now })
      .where(and(eq(registrationSessions.id, id), eq(registrationSessions.status, 'pending'), isNull(registrationSessions.accessCodeId)))
      .returning({ id: registrationSessions.id });
    return rows.length === 1;
  }

  async lockByPaymentIntent(paymentIntent: string): Promise<RegistrationRow | undefined> {
    const [row] = await this.db.select().from(registrationSessions).where(eq(registrationSessions.paymentIntent, paymentIntent)).for('update');
    return row;
  }

  async update(id: string, changes: RegistrationChanges, now: Date): Promise<void> {
    await this.db
      .update(registrationSessions)
      .set({ ...changes, updatedAt: now })
      .where(eq(registrationSessions.id, id));
  }
}
