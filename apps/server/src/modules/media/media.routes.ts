import {
  MEDIA_LIMITS,
  mediaNameParam,
  mediaPathParam,
  mediaPathView,
  mediaTreeNode,
  mediaUploadedView,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { streamFiles, type UploadRule } from '../../lib/upload-receiver.js';
import { actorOf } from '../../plugins/auth.js';
import { gatedProject, PROJECT_HEADER, projectHeaders, projectQuery } from '../../plugins/project-gate.js';
import type { MediaService } from './media.service.js';

const tags = ['media'];
export const MEDIA_PREFIX = '/proxy/core/mediaLibrary';
/** Paths are checked by the service (`checkMediaPath`), which names the reason; here only their size. */
const mediaPath = mediaPathParam;
const flag = z.enum(['true', 'false']).optional();

/** Images a browser may show inline (`?inline=true`); anything else, SVG included, is an attachment. */
const INLINE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
};

/** `attachment`/`inline` with the name as ASCII (others replaced) and as UTF-8 (RFC 6266, 5987). */
function disposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A media upload (the console's and a project site's back office): up to filesPerUpload files, each
 * streamed to disk within the server's limit, their names as sent (a name with a path is refused by
 * the store, never cut to its last part).
 */
export function mediaUpload(media: MediaService): UploadRule {
  return {
    fileBytes: media.maxFileBytes,
    files: MEDIA_LIMITS.filesPerUpload,
    fields: 20,
    keepPaths: true,
    tooLarge: () => new AppError('mediaFileTooLarge', { params: { max: media.maxFileBytes } }),
    tooMany: () => new AppError('mediaTooManyFiles', { params: { max: MEDIA_LIMITS.filesPerUpload } }),
  };
}

/**
 * The media library (issue 11 §2) under `proxy/core/mediaLibrary`, the project in the
 * project gate's header. Paths are relative to the library's root (`images/logo.png`; the root
 * is `''`); `public/…` is the platform's public folder where it is shown. Registered with the
 * multipart plugin (uploads stream to disk).
 */
export function mediaRoutes(media: MediaService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const context = (request: FastifyRequest) => media.context(actorOf(request).user, gatedProject(request));

    typed.get(
      `${MEDIA_PREFIX}/all/dir`,
      {
        config: { action: 'project.data.read', project: 'read' },
        schema: {
          tags,
          description:
            'The folder tree (nodes path, name, type, child), from `path` (default the root). `files=true` adds ' +
            `the files (size, updateTime). At most ${MEDIA_LIMITS.treeNodesMax} nodes; past that the tree is cut ` +
            'and the header `x-tree-truncated: true` says so.',
          headers: projectHeaders,
          querystring: z.object({ path: mediaPath.optional(), files: flag }),
          response: { 200: z.array(mediaTreeNode) },
        },
      },
      async (request, reply) => {
        const answer = await media.tree(
          await context(request),
          request.query.path ?? '',
          request.query.files === 'true',
        );
        if (answer.truncated) reply.header('x-tree-truncated', 'true');
        return answer.nodes;
      },
    );

    typed.post(
      `${MEDIA_PREFIX}/upload`,
      {
        config: { action: 'project.data.write', project: 'write', upload: mediaUpload(media) },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description:
            'Uploads the files of a multipart form (any field names; each file keeps its name) into the folder ' +
            '`path` (default the root; it must exist). Each file is streamed to disk, through a temporary file ' +
            `renamed when complete; at most ${MEDIA_LIMITS.filesPerUpload} files, each up to the server's limit ` +
            '(2 GiB by default, GANTRY_MEDIA_FILE_MAX_BYTES). A file of the same name is an error unless ' +
            '`overwrite=true`. Answers the stored files.',
          headers: projectHeaders,
          querystring: z.object({ path: mediaPath.optional(), overwrite: flag }),
          response: { 200: mediaUploadedView },
        },
      },
      async (request) => {
        const where = await context(request);
        const folder = media.uploadFolder(where, request.query.path ?? '');
        // One byte more than the limit reaches the store, which refuses the file and removes it.
        return streamFiles(request, (name, file) =>
          media.upload(where, folder, name, file, request.query.overwrite === 'true'),
        );
      },
    );

    typed.post(
      `${MEDIA_PREFIX}/dir`,
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description: 'Creates the folder `path` and any missing parents; the folder existing is 409 mediaExists.',
          headers: projectHeaders,
          body: z.object({ path: mediaPath }),
          response: { 200: mediaTreeNode },
        },
      },
      async (request) => media.mkdir(await context(request), request.body.path),
    );

    typed.post(
      `${MEDIA_PREFIX}/rename`,
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description: 'Renames the file or folder `path` to `name` in the same folder; answers the new path.',
          headers: projectHeaders,
          body: z.object({ path: mediaPath, name: mediaNameParam }),
          response: { 200: mediaPathView },
        },
      },
      async (request) => media.rename(await context(request), request.body.path, request.body.name),
    );

    typed.post(
      `${MEDIA_PREFIX}/move`,
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description:
            'Moves the file or folder `path` into the folder `to` (`""`: the root), keeping its name; answers ' +
            'the new path. Nothing is replaced: a name taken in `to` is 409 mediaExists.',
          headers: projectHeaders,
          body: z.object({ path: mediaPath, to: mediaPath }),
          response: { 200: mediaPathView },
        },
      },
      async (request) => media.move(await context(request), request.body.path, request.body.to),
    );

    typed.delete(
      MEDIA_PREFIX,
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description: 'Removes the file or folder `path` (a folder with everything in it).',
          headers: projectHeaders,
          querystring: z.object({ path: mediaPath }),
          response: { 200: mediaPathView },
        },
      },
      async (request) => {
        await media.remove(await context(request), request.query.path);
        return { path: request.query.path };
      },
    );

    typed.get(
      `${MEDIA_PREFIX}/download`,
      {
        config: { action: 'project.data.read', project: 'read', tokenInQuery: true },
        schema: {
          tags,
          description:
            'Streams the file `path` as an attachment. As a browser link it may carry `token` and ' +
            '`x-request-project` in the query. `inline=true` shows PNG, JPEG, GIF, WebP, BMP and ICO images ' +
            'in the page (previews); other files are always attachments.',
          headers: projectHeaders,
          querystring: z.object({
            path: mediaPath,
            inline: flag,
            token: z.string().max(256).optional(),
            [PROJECT_HEADER]: projectQuery[PROJECT_HEADER],
          }),
        },
      },
      async (request, reply) => {
        const file = await media.download(await context(request), request.query.path);
        const extension = file.name.toLowerCase().split('.').pop() ?? '';
        const inlineType = request.query.inline === 'true' ? INLINE_TYPES[extension] : undefined;
        return reply
          .header('content-type', inlineType ?? 'application/octet-stream')
          .header('content-length', file.size)
          .header('content-disposition', disposition(inlineType ? 'inline' : 'attachment', file.name))
          .header('last-modified', file.updateTime.toUTCString())
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(file.stream);
      },
    );
  };
}
