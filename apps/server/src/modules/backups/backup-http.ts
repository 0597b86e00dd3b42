import { BACKUP_LIMITS, toWholeMb } from '@gantry/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { UploadRule } from '../../lib/upload-receiver.js';

/** What the project and database backup routes share: the project header, ids, codes, file names. */
export const PROJECT_HEADER = 'x-request-project';
export const projectHeader = z.looseObject({ [PROJECT_HEADER]: z.string().max(64).optional() });
export const idParams = z.object({ id: z.string().min(1).max(64) });
export const password = z.string().max(BACKUP_LIMITS.passwordMax).optional();

/** The project of a call: its `x-request-project` header, else what the query names (browser links). */
export function projectOf(request: FastifyRequest, fromQuery?: string): string | undefined {
  const value = request.headers[PROJECT_HEADER];
  if (typeof value === 'string' && value !== '') return value;
  return fromQuery || undefined;
}

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
