import type { Readable } from 'node:stream';
import { errorCode } from '@gantry/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

/**
 * What a multipart route takes (its `config.upload`): every route that receives files declares one,
 * and receives them through this module only. The limits are checked before the body is read where
 * the headers allow (`Content-Length`, see `upload-routes.ts`), and again while it is read.
 */
export interface UploadRule {
  /** The largest file, in bytes; absent: no limit of the route's own (its store decides, e.g. disk room). */
  fileBytes?: number;
  /** Files in one request (1 unless said). */
  files?: number;
  /** Fields beside the files (no limit unless said). */
  fields?: number;
  /** A file over `fileBytes` (default `payloadTooLarge`). */
  tooLarge?: () => AppError;
  /** More files than `files` (default `oneFile`). */
  tooMany?: () => AppError;
  /** Not a multipart body, or no file in it (default `noFile`). */
  missing?: () => AppError;
  /** File names as sent, a path in them kept (so that a store can refuse it), not cut to their last part. */
  keepPaths?: boolean;
}

/** Room for a form's own bytes (boundaries, part headers, small fields) beside its files' bytes. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The most a whole request of the rule may declare; undefined: no bound. */
export function formBytesMax(rule: UploadRule): number | undefined {
  return rule.fileBytes === undefined ? undefined : rule.fileBytes * (rule.files ?? 1) + FORM_OVERHEAD_BYTES;
}

export const tooLargeError = (rule: UploadRule) => rule.tooLarge?.() ?? new AppError('payloadTooLarge');
const missingError = (rule: UploadRule) => rule.missing?.() ?? new AppError('noFile');

/** The route's rule (a route that receives files without declaring one is a programming error). */
function ruleOf(request: FastifyRequest): UploadRule {
  const rule = request.routeOptions.config.upload;
  if (!rule) throw new Error(`${request.method} ${request.url} receives files without config.upload`);
  return rule;
}

/**
 * What a failure while reading a multipart body means for the caller. The parser's own errors carry
 * no status: a form without its boundary, cut short, or with broken part headers is the caller's
 * mistake (`400 validation`, 'upload.malformed'), not a server error. Anything else is passed on.
 */
export function multipartError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const statusCode =
    typeof error === 'object' && error !== null && 'statusCode' in error ? error.statusCode : undefined;
  if (statusCode === undefined && error instanceof Error)
    return new AppError('validation', { message: 'upload.malformed' });
  return error;
}

/** A failure while reading the parts: the parser's limits as the route's errors, the rest as above. */
function partsError(error: unknown, rule: UploadRule): unknown {
  const code = errorCode(error);
  if (code === 'FST_FILES_LIMIT') return rule.tooMany?.() ?? new AppError('oneFile');
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLargeError(rule);
  return multipartError(error);
}

/** One file of a form, in memory. */
export interface FormFile {
  field: string;
  name: string;
  data: Buffer;
}

/**
 * A whole form in memory: its text fields and its files, each file within `fileBytes` (required:
 * memory is bounded). Over it → `tooLarge`; more files → `tooMany`; not multipart → `missing`.
 */
export async function receiveForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; files: FormFile[] }> {
  const rule = ruleOf(request);
  if (rule.fileBytes === undefined) throw new Error(`${request.url}: a form read into memory needs fileBytes`);
  if (!request.isMultipart()) throw missingError(rule);
  const fields: Record<string, string> = {};
  const files: FormFile[] = [];
  try {
    const parts = request.parts({
      limits: { files: rule.files ?? 1, fileSize: rule.fileBytes, fields: rule.fields ?? Number.POSITIVE_INFINITY },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        files.push({ field: part.fieldname, name: part.filename, data });
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw partsError(error, rule);
  }
  return { fields, files };
}

/** The one file of a form, in memory: none or an empty one → `missing`, a second → `tooMany`. */
export async function receiveFile(request: FastifyRequest): Promise<Buffer> {
  const { files } = await receiveForm(request);
  const bytes = files[0]?.data;
  if (!bytes || bytes.length === 0) throw missingError(ruleOf(request));
  return bytes;
}

/**
 * The files of a form, each handed to `store` as a stream as it arrives (to disk), one at a time.
 * A file over `fileBytes` reaches the store with one byte more than the limit, for the store to
 * refuse it with its own error (and remove what it wrote). No file → `missing`, too many → `tooMany`.
 */
export async function streamFiles<T>(
  request: FastifyRequest,
  store: (filename: string, file: Readable) => Promise<T>,
): Promise<T[]> {
  const rule = ruleOf(request);
  if (!request.isMultipart()) throw missingError(rule);
  const stored: T[] = [];
  try {
    const parts = request.files({
      limits: {
        files: rule.files ?? 1,
        fileSize: rule.fileBytes === undefined ? Number.MAX_SAFE_INTEGER : rule.fileBytes + 1,
        fields: rule.fields ?? Number.POSITIVE_INFINITY,
      },
      throwFileSizeLimit: false,
      preservePath: rule.keepPaths === true,
    });
    for await (const part of parts) stored.push(await store(part.filename, part.file));
  } catch (error) {
    throw partsError(error, rule);
  }
  if (stored.length === 0) throw missingError(rule);
  return stored;
}

/** The one file of a form (a rule of one file), streamed to `store`: what `store` answers. */
export async function streamFile<T>(
  request: FastifyRequest,
  store: (filename: string, file: Readable) => Promise<T>,
): Promise<T> {
  const [stored] = await streamFiles(request, store);
  // Never: streamFiles answers at least one file or refuses.
  if (stored === undefined) throw missingError(ruleOf(request));
  return stored;
}
