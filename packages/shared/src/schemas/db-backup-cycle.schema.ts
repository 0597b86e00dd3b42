import { z } from 'zod';
import { JobState } from '../states.js';
import { PERIODIC_BACKUP_LIMITS as L } from '../validations.js';

/**
 * Periodic database backup cycles (issue 13 §3; backups-data-designer.md §3 "Periodic backup cycle":
 * name, definition in hours, enabled; the calls are ours, docs/API.md): `GET|POST db-backup/cycles`,
 * `PATCH|DELETE db-backup/cycles/{id}`, the project in `x-request-project`.
 */
const name = z
  .string({ error: 'dbBackupCycle.nameRequired' })
  .trim()
  .min(1, { error: 'dbBackupCycle.nameRequired' })
  .max(L.nameMax, { error: 'dbBackupCycle.nameTooLong' });
const hours = z
  .number({ error: 'dbBackupCycle.hoursRange' })
  .int({ error: 'dbBackupCycle.hoursRange' })
  .min(L.hoursMin, { error: 'dbBackupCycle.hoursRange' })
  .max(L.hoursMax, { error: 'dbBackupCycle.hoursRange' });
const keep = z
  .number({ error: 'dbBackupCycle.keepRange' })
  .int({ error: 'dbBackupCycle.keepRange' })
  .min(L.keepMin, { error: 'dbBackupCycle.keepRange' })
  .max(L.keepMax, { error: 'dbBackupCycle.keepRange' });
const enabled = z.boolean({ error: 'dbBackupCycle.enabledRequired' });

export const dbBackupCycleCreateSchema = z.object({
  name,
  hours,
  enabled: enabled.default(true),
  keep: keep.default(L.keepDefault),
});
export type DbBackupCycleCreateBody = z.infer<typeof dbBackupCycleCreateSchema>;

/** A change: any of the fields (a new period or enabling restarts the count from now). */
export const dbBackupCycleUpdateSchema = z.object({
  name: name.optional(),
  hours: hours.optional(),
  enabled: enabled.optional(),
  keep: keep.optional(),
});
export type DbBackupCycleUpdateBody = z.infer<typeof dbBackupCycleUpdateSchema>;

export const dbBackupCycleView = z.object({
  id: z.string(),
  name: z.string(),
  hours: z.number(),
  enabled: z.boolean(),
  keep: z.number(),
  /** When the next run is due (null while disabled). */
  nextRunTime: z.string().nullable(),
  /** When the latest run started (null: never ran). */
  lastRunTime: z.string().nullable(),
  /** The latest run's outcome: running, success or failed with its message (null: never ran). */
  lastResult: z
    .object({
      status: z.enum(JobState),
      message: z.string(),
      endTime: z.string().nullable(),
      /** The dump job (`GET db-backup/{jobId}` shows its log). */
      jobId: z.string(),
    })
    .nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type DbBackupCycleView = z.infer<typeof dbBackupCycleView>;

/** A failed periodic backup as the dashboard lists it. */
export const backupFailureView = z.object({
  projectId: z.string(),
  projectName: z.string(),
  cycleId: z.string(),
  cycleName: z.string(),
  time: z.string(),
  message: z.string(),
});
export type BackupFailureView = z.infer<typeof backupFailureView>;
