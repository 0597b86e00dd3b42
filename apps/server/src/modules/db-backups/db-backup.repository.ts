import { TaskState } from '@gantry/shared';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { CopyOut, Database } from '../../db/database.js';
import { dbBackups, tasks } from '../../db/schema.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';
import { BackupRepository, type BackupRow } from '../backups/backup.repository.js';

export type DbBackupRow = typeof dbBackups.$inferSelect;

/** The database backup list (`GET db-backup/backup?query=`): the spec's filter is type dump, status success. */
export const DB_BACKUP_RESOURCE: ResourceDef = {
  name: 'db-backup',
  id: 'id',
  fields: {
    id: { sql: dbBackups.id, type: 'string', sort: true },
    name: { sql: dbBackups.name, type: 'string', sort: true },
    type: { sql: dbBackups.type, type: 'string' },
    status: { sql: dbBackups.status, type: 'string' },
    bytes: { sql: dbBackups.bytes, type: 'number', sort: true },
    createTime: { sql: dbBackups.createTime, type: 'date', sort: true },
    updateTime: { sql: dbBackups.updateTime, type: 'date', sort: true },
  },
  defaultSort: { createTime: -1 },
  defaultLimit: 1_000,
  maxLimit: 1_000,
};

/** All SQL of database backup records. Every statement is keyed by the project (tenant isolation). */
export class DbBackupRepository {
  constructor(private readonly db: Database) {}

  async insert(row: DbBackupRow): Promise<void> {
    await this.db.insert(dbBackups).values(row);
  }

  async find(projectId: string, id: string): Promise<DbBackupRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dbBackups)
      .where(and(eq(dbBackups.projectId, projectId), eq(dbBackups.id, id)));
    return row;
  }

  list(projectId: string, query: ListQuery): Promise<DbBackupRow[]> {
    return this.db
      .select()
      .from(dbBackups)
      .where(and(eq(dbBackups.projectId, projectId), query.where))
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
  }

  total(projectId: string, where: SQL | undefined): Promise<ListTotal> {
    return cappedCount(this.db, dbBackups, and(eq(dbBackups.projectId, projectId), where));
  }

  /** Records what went wrong in a backup that still succeeded (its FTP copy failed). */
  async setWarning(projectId: string, id: string, warning: DbBackupRow['warning']): Promise<void> {
    await this.db
      .update(dbBackups)
      .set({ warning })
      .where(and(eq(dbBackups.projectId, projectId), eq(dbBackups.id, id)));
  }

  async remove(projectId: string, id: string): Promise<DbBackupRow | undefined> {
    const [row] = await this.db
      .delete(dbBackups)
      .where(and(eq(dbBackups.projectId, projectId), eq(dbBackups.id, id)))
      .returning();
    return row;
  }

  /** Whether a task of one of `types` is running or waiting for a project (a restore: the project's data calls are refused). */
  async running(projectId: string, types: string[]): Promise<boolean> {
    const [row] = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.projectId, projectId), inArray(tasks.type, types), eq(tasks.status, TaskState.Ongoing)))
      .limit(1);
    return row !== undefined;
  }
}

/** A backup record as `writeBackup` hands it over → the database backup record it is. */
export function dumpRowOf(row: BackupRow): DbBackupRow {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    type: 'dump',
    status: TaskState.Succeeded,
    item: { fileServer: row.item.fileServer, html: row.item.html, database: row.item.mongodb },
    excludedDirs: row.excludedDirs,
    documents: row.documents,
    bytes: row.bytes,
    file: row.file ?? `${row.id}.zip`,
    sourceProjectId: row.sourceProjectId,
    taskId: row.taskId,
    warning: null,
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

/**
 * The project backups' repository as a dump's writer sees it: it reads the project's documents the
 * same way, and the finished archive's record goes to the database backup list instead (so the
 * archive writer, `writeBackup`, is shared as it is).
 */
export class DumpSource extends BackupRepository {
  constructor(
    db: Database,
    background: Database,
    private readonly dumps: DbBackupRepository,
    copyOut?: CopyOut,
  ) {
    super(db, background, undefined, { copyOut });
  }

  override async insert(row: BackupRow): Promise<void> {
    await this.dumps.insert(dumpRowOf(row));
  }
}
