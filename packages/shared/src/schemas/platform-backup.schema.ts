import { z } from 'zod';
import { PlatformRestoreState } from '../states.js';

/** The task that writes a platform backup (issue 13 §4). */
export const PLATFORM_BACKUP_TASK = 'platform.backup';

/** A platform backup in `<data>/platform-backups/`. */
export const platformBackupView = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  createTime: z.string(),
});
export type PlatformBackupView = z.infer<typeof platformBackupView>;

/** The file name of a platform backup in a call's path. */
export const platformBackupNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.zip$/);

/** A restore's confirmation: the administrator's password (wire form, as at sign-in). */
export const platformRestoreSchema = z.object({ password: z.string().min(1).max(128) });

/** The platform restore of this server process: none since it started, under way, or how it ended. */
export const platformBackupStatus = z.object({
  state: z.enum(PlatformRestoreState),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  /** Why it failed (nothing changed then). */
  reason: z.string().optional(),
});
export type PlatformBackupStatus = z.infer<typeof platformBackupStatus>;
