import type { ErrorCode } from '@gantry/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * What a failure while reading a multipart body means for the caller. The parser's own errors carry
 * no status: a form without its boundary, cut short, or with broken part headers is the caller's
 * mistake (`400 validation`, 'upload.malformed'), not a server error. Anything else is passed on.
 * Every route that reads a multipart body sends its failures through here.
 */
export function multipartError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const { statusCode } = error as { statusCode?: number };
  if (statusCode === undefined && error instanceof Error)
    return new AppError('validation', { message: 'upload.malformed' });
  return error;
}

/**
 * The one file of a multipart/form-data request, read into memory up to `maxBytes`. No file or an
 * empty one → noFile, more than one → oneFile, over the size → `tooLarge`, a broken form → validation.
 */
export async function readOneFile(
  request: FastifyRequest,
  maxBytes: number,
  tooLarge: ErrorCode = 'payloadTooLarge',
): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('noFile');
  let bytes: Buffer | undefined;
  try {
    const parts = request.files({ limits: { files: 1, fileSize: maxBytes } });
    for await (const part of parts) bytes = await part.toBuffer();
  } catch (error) {
    const { code } = error as { code?: string };
    if (code === 'FST_FILES_LIMIT') throw new AppError('oneFile');
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(tooLarge);
    throw multipartError(error);
  }
  if (!bytes || bytes.length === 0) throw new AppError('noFile');
  return bytes;
}
