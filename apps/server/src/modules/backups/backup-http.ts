import type { Readable } from 'node:stream';
import { BACKUP_LIMITS } from '@gantry/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { multipartError } from '../../lib/read-upload.js';

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

/** The one file of a multipart upload, handed to `store` as a stream; no file or a second one is refused. */
export async function storeOneUpload<T>(
  request: FastifyRequest,
  store: (filename: string, file: Readable) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new AppError('noFile');
  let stored: { value: T } | undefined;
  try {
    const parts = request.files({ limits: { files: 1, fileSize: Number.MAX_SAFE_INTEGER, fields: 10 } });
    for await (const part of parts) stored = { value: await store(part.filename, part.file) };
  } catch (error) {
    const { code } = error as { code?: string };
    if (code === 'FST_FILES_LIMIT') throw new AppError('oneFile');
    throw multipartError(error);
  }
  if (!stored) throw new AppError('noFile');
  return stored.value;
}
