import { BACKUP_LIMITS, toWholeMb } from '@gantry/shared';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { UploadRule } from '../../lib/upload-receiver.js';

/** What the project and database backup routes share: ids, codes, file names (the project: the project gate). */
export const idParams = z.object({ id: z.string().min(1).max(64) });
export const password = z.string().max(BACKUP_LIMITS.passwordMax).optional();

/** `attachment` with the name as ASCII (others replaced) and as UTF-8 (RFC 6266, 5987). */
export function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The upload of one backup archive (project, database, template package), streamed to disk up to `maxBytes`. */
export function backupUpload(maxBytes: number): UploadRule {
  return {
    fileBytes: maxBytes,
    fields: 10,
    tooLarge: () => new AppError('backupTooLarge', { params: { max: toWholeMb(maxBytes) } }),
  };
}
