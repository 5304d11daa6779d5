import type { Db } from '@svc/db';
import { AuditRepository, type NewAuditRow } from '../repositories/audit.repository.js';

/** The admin audit log's writes: one row per admin or metrics request (`audited`), nothing secret in it. */
export class AuditService {
  constructor(private readonly db: Db) {}

  record(row: NewAuditRow): Promise<void> {
    return new AuditRepository(this.db).insert(row);
  }
}
