/**
 * Database backups of a project (backups-data-designer.md §2 "Database backup dialog", §3 "Database
 * backup record", §4 "Database backup or restore job", §7; issue 13 §1): a dump is the whole project
 * (every collection and its time series, the media library, the html package), in the same archive
 * as project backups. Pure: no I/O, no zod (see schemas/db-backup.schema.ts).
 */

/** What a database backup holds: the media library, the html package, the whole database. */
export const DB_BACKUP_KINDS = ['fileServer', 'html', 'database'] as const;
export type DbBackupKind = (typeof DB_BACKUP_KINDS)[number];
export type DbBackupItem = Record<DbBackupKind, boolean>;

/** The task types of a dump and of a database restore (the jobs `GET db-backup/{jobId}` answers). */
export const DB_BACKUP_TASK_DUMP = 'dbBackup.dump';
export const DB_BACKUP_TASK_RESTORE = 'dbBackup.restore';

export const DB_BACKUP_LIMITS = {
  /** The console polls a job this often (§9 "Job polling 1000 ms"). */
  jobPollMs: 1000,
} as const;

/** The name of a database backup's download when it has none (§7 "blob saved as {name}.zip"). */
export const DB_BACKUP_DEFAULT_FILE = 'database backup file';
