import type { Database } from '../../db/database.js';
import { auditLog } from '../../db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditEntry = Omit<typeof auditLog.$inferInsert, 'id' | 'at'>;

export class AuditRepository {
  constructor(private readonly db: Database) {}

  async record(entry: AuditEntry, db: Database = this.db, at?: Date): Promise<void> {
    await db.insert(auditLog).values({ ...entry, ...(at ? { at } : {}) });
  }
}
