import type { Readable } from 'node:stream';
import { BACKUP_LIMITS, toWholeMb } from '@gantry/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { streamFile, type UploadRule } from '../../lib/upload-receiver.js';
import { projectHeaders, projectQuery } from '../../plugins/project-gate.js';
import type { Action } from '../../policy/policy.js';

/**
 * What the project and database backup routes share (the project: the project gate): ids, codes,
 * file names, and the shapes of their download, upload and delete routes.
 */
export const idParams = z.object({ id: z.string().min(1).max(64) });
export const password = z.string().max(BACKUP_LIMITS.passwordMax).optional();
/** The project in the query (as the spec's calls also send it). */
export const projectQuerystring = z.object(projectQuery);

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

/** A backup file to send: its stream, the name it is saved as, its size when known (not for an encrypted one). */
export interface ArchiveFile {
  stream: Readable;
  name: string;
  size?: number;
}

function sendZip(reply: FastifyReply, file: ArchiveFile) {
  if (file.size !== undefined) reply.header('content-length', file.size);
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', disposition(file.name))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.stream);
}

interface RouteOf {
  url: string;
  action: Action;
  tags: string[];
  description: string;
}

/**
 * `GET <url>/:id`: a backup file; with `password`, an AES-256 zip made as it is sent. As a browser
 * link it may carry `token` and `x-request-project` in the query.
 */
export function downloadRoute(
  app: FastifyInstance,
  route: RouteOf & { file: (request: FastifyRequest, id: string, code: string | undefined) => Promise<ArchiveFile> },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    route.url,
    {
      config: { action: route.action, project: 'read', tokenInQuery: true },
      schema: {
        tags: route.tags,
        description: route.description,
        headers: projectHeaders,
        params: idParams,
        querystring: projectQuerystring.extend({ password, token: z.string().max(256).optional() }),
      },
    },
    async (request, reply) =>
      sendZip(reply, await route.file(request, request.params.id, request.query.password || undefined)),
  );
}

/** `POST <url>`: one backup file (multipart `file`) with its optional code, stored by `store`. */
export function uploadRoute(
  app: FastifyInstance,
  route: RouteOf & {
    maxBytes: number;
    /** The answer's schema (the fastify serializer checks `store`'s answer against it). */
    response: z.ZodType;
    store: (request: FastifyRequest, filename: string, file: Readable, code: string | undefined) => Promise<unknown>;
  },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    route.url,
    {
      config: { action: route.action, project: 'read', upload: backupUpload(route.maxBytes) },
      schema: {
        tags: route.tags,
        consumes: ['multipart/form-data'],
        description: route.description,
        headers: projectHeaders,
        querystring: projectQuerystring.extend({ password }),
        response: { 200: route.response },
      },
    },
    async (request) =>
      streamFile(request, (filename, file) =>
        route.store(request, filename, file, request.query.password || undefined),
      ),
  );
}

/** `DELETE <url>/:id`: 200 `{status: "OK"}` means success. */
export function deleteRoute(
  app: FastifyInstance,
  route: RouteOf & { remove: (request: FastifyRequest, id: string) => Promise<void> },
): void {
  app.withTypeProvider<ZodTypeProvider>().delete(
    route.url,
    {
      config: { action: route.action, project: 'read' },
      schema: {
        tags: route.tags,
        description: route.description,
        headers: projectHeaders,
        params: idParams,
        querystring: projectQuerystring,
        response: { 200: z.object({ status: z.literal('OK') }) },
      },
    },
    async (request) => {
      await route.remove(request, request.params.id);
      return { status: 'OK' as const };
    },
  );
}
