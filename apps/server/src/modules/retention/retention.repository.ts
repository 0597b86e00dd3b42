import { TIME_SERIES_COLLECTION } from '@gantry/shared';
import { and, count, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { auditLog, projectDocuments } from '../../db/schema.js';

const isRecord = eq(projectDocuments.collection, TIME_SERIES_COLLECTION);

/** The SQL of time-series retention: data records of every project, oldest first, in small batches. */
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  /** Data records stored before `cutoff`, counted up to `cap` (for progress). */
  async countOlderThan(cutoff: Date, cap: number): Promise<number> {
    const capped = this.db
      .select({ one: sql`1`.as('one') })
      .from(projectDocuments)
      .where(and(isRecord, lt(projectDocuments.createTime, cutoff)))
      .limit(cap)
      .as('capped');
    const [row] = await this.db.select({ n: count() }).from(capped);
    return row?.n ?? 0;
  }

  /** Deletes up to `batch` audit entries written before `cutoff`, oldest first; answers how many went. */
  async deleteAuditOlderThan(cutoff: Date, batch: number): Promise<number> {
    const oldest = this.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(lt(auditLog.at, cutoff))
      .orderBy(auditLog.at, auditLog.id)
      .limit(batch);
    const deleted = await this.db.delete(auditLog).where(inArray(auditLog.id, oldest)).returning({ id: auditLog.id });
    return deleted.length;
  }

  /** Deletes up to `batch` data records stored before `cutoff`; answers how many went. */
  async deleteOlderThan(cutoff: Date, batch: number): Promise<number> {
    const oldest = this.db
      .select({
        projectId: projectDocuments.projectId,
        collection: projectDocuments.collection,
        id: projectDocuments.id,
      })
      .from(projectDocuments)
      .where(and(isRecord, lt(projectDocuments.createTime, cutoff)))
      .orderBy(projectDocuments.createTime)
      .limit(batch);
    const deleted = await this.db
      .delete(projectDocuments)
      .where(
        inArray(sql`(${projectDocuments.projectId}, ${projectDocuments.collection}, ${projectDocuments.id})`, oldest),
      )
      .returning({ id: projectDocuments.id });
    return deleted.length;
  }
}
