import { z } from 'zod';
import { BACKUP_LIMITS } from '../backups.js';
import { DB_BACKUP_KINDS } from '../db-backups.js';
import { MEDIA_LIMITS } from '../media.js';
import { JobState, TaskState } from '../states.js';
import { chosenKinds, jsonText } from './chosen-kinds.js';

/** The chosen parts: `{fileServer: true, database: true}` (§7 "item: {part: true}") or their list; at least one. */
export const dbBackupItemSchema = chosenKinds(DB_BACKUP_KINDS);

/** Media folders a dump leaves out: a list, or its JSON text (`GET db-backup/stats?excludedDirs=`). */
export const dbBackupExcludedDirsSchema = jsonText(
  z.array(z.string().max(MEDIA_LIMITS.pathMax)).max(BACKUP_LIMITS.excludedDirsMax),
);

/** `POST db-backup/dump` (§7): name (max 30), the parts, the media folders left out. */
export const dbBackupDumpSchema = z.object({
  name: z
    .string({ error: 'backup.nameRequired' })
    .trim()
    .min(1, { error: 'backup.nameRequired' })
    .max(BACKUP_LIMITS.nameMax, { error: 'backup.nameTooLong' }),
  item: dbBackupItemSchema,
  excludedDirs: dbBackupExcludedDirsSchema.default([]),
});
export type DbBackupDumpBody = z.infer<typeof dbBackupDumpSchema>;

/** `POST db-backup/restore?id=` (§7): the chosen parts set to true. */
export const dbBackupRestoreSchema = dbBackupItemSchema;

const itemView = z.object({ fileServer: z.boolean(), html: z.boolean(), database: z.boolean() });

/**
 * What went wrong in a job that still succeeded (a dump whose FTP copy failed): a message `key` and its
 * `params` (a param that is itself a message key, e.g. `reason: 'ftp.error.refused'`, is translated
 * too), so that a console shows it in its own language; `message` is that text in the caller's language.
 */
export const backupWarningView = z.object({
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
});
export type BackupWarningView = z.infer<typeof backupWarningView>;

/** A database backup record (§3): fileSize in whole MB (`bytes` exact). */
export const dbBackupView = z.object({
  id: z.string(),
  name: z.string(),
  item: itemView,
  updateTime: z.string(),
  createTime: z.string(),
  fileSize: z.number(),
  bytes: z.number(),
  type: z.literal('dump'),
  /** The spec's word for a database backup record's state is the task's (`success`). */
  status: z.literal(TaskState.Succeeded),
  /** The project the archive was made from (another one for an uploaded backup of another project). */
  sourceProjectId: z.string(),
  /** Present when the backup succeeded with a problem (its FTP copy failed). */
  warning: backupWarningView.optional(),
});
export type DbBackupView = z.infer<typeof dbBackupView>;

/** An FTP backup record (§3): what the FTP server holds, fileSize in whole MB. */
export const ftpBackupView = z.object({
  id: z.string(),
  name: z.string(),
  item: itemView,
  uploadTime: z.string(),
  fileSize: z.number(),
});
export type FtpBackupView = z.infer<typeof ftpBackupView>;

/** `GET db-backup/{jobId}` (§4): running until success or failed; `log` is the outcome in words. */
export const dbBackupJobView = z.object({
  id: z.string(),
  type: z.enum(['dump', 'restore']),
  status: z.enum(JobState),
  progress: z.number(),
  log: z.string(),
  /** A job that succeeded with a problem (a dump whose FTP copy failed): what to warn of. */
  warning: backupWarningView.optional(),
});
export type DbBackupJobView = z.infer<typeof dbBackupJobView>;

/** `GET db-backup/stats`: per part, whole MB (`size`) and bytes. */
export const dbBackupStatsView = z.array(
  z.object({ name: z.enum(DB_BACKUP_KINDS), size: z.number(), bytes: z.number(), count: z.number() }),
);
export type DbBackupStatsView = z.infer<typeof dbBackupStatsView>;

/** What a dump or restore start answers: the job id. */
export const dbBackupStartView = z.object({ id: z.string() });
