import { and, desc, lt, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { auditLog } from '../../db/schema.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery } from '../../lib/list-query/list-query.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditEntry = Omit<typeof auditLog.$inferInsert, 'id' | 'at'>;

export class AuditRepository {
  constructor(private readonly db: Database) {}

  async record(entry: AuditEntry, tx: Database, at?: Date): Promise<void> {
    await tx.insert(auditLog).values({ ...entry, ...(at ? { at } : {}) });
  }

  async list(query: ListQuery, scope: SQL | undefined): Promise<{ rows: AuditRow[]; total?: ListTotal }> {
    const where = and(scope, query.where);
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
    return query.withCount ? { rows, total: await this.count(where) } : { rows };
  }

  /** Exact up to COUNT_CAP entries, estimated above (`cappedCount`): the log only grows. */
  count(where: SQL | undefined): Promise<ListTotal> {
    return cappedCount(this.db, auditLog, where);
  }

  /** Up to `limit` entries below id `before` (all when undefined), newest first: one page of an export. */
  async pageBefore(where: SQL | undefined, before: number | undefined, limit: number): Promise<AuditRow[]> {
    return this.db
      .select()
      .from(auditLog)
      .where(and(where, before === undefined ? undefined : lt(auditLog.id, before)))
      .orderBy(desc(auditLog.id))
      .limit(limit);
  }

  async recent(scope: SQL | undefined, limit: number): Promise<AuditRow[]> {
    return this.db.select().from(auditLog).where(scope).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
  }
}
