import {
  BACKUP_LIMITS,
  backupExportSchema,
  backupImportSchema,
  backupRenameSchema,
  backupSizeView,
  backupStartView,
  backupView,
  MEDIA_LIMITS,
  restorePlanView,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countAnswer, LIST_QUERY_DESCRIPTION, listQuerystring } from '../../lib/list-response.js';
import { streamFile } from '../../lib/upload-receiver.js';
import { actorOf } from '../../plugins/auth.js';
import { gatedProject, projectHeaders, projectQuery } from '../../plugins/project-gate.js';
import { type BackupService, backupContext } from './backup.service.js';
import { backupUpload, disposition, idParams, password } from './backup-http.js';

const tags = ['backups'];
export const BACKUP_PREFIX = '/proxy/core/backup';

/** A query parameter holding JSON (`query=`, `excludedDirs=`): parsed, then checked by `schema`. */
function jsonQuery<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .max(100_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'list.badQuery' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

/**
 * Project backups (backups-data-designer.md §7 "Project backup calls") under `proxy/core/backup`,
 * the project through the project gate (its header, or `projectId` in the query, as the spec's calls
 * also send it). Registered with the multipart plugin (uploads stream to disk).
 */
export function backupRoutes(backups: BackupService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const context = (request: FastifyRequest) => backupContext(gatedProject(request));

    typed.get(
      `${BACKUP_PREFIX}/getSizeAndTime`,
      {
        config: { action: 'backup.read', project: 'read' },
        schema: {
          tags,
          description:
            'What a backup would hold, per content kind: whole MB (`size`), `bytes`, and `count` (documents or ' +
            'files). `excludedDirs`: a JSON list of media folders left out.',
          headers: projectHeaders,
          querystring: z.object({
            excludedDirs: jsonQuery(
              z.array(z.string().max(MEDIA_LIMITS.pathMax)).max(BACKUP_LIMITS.excludedDirsMax),
            ).optional(),
            projectId: z.string().max(64).optional(),
          }),
          response: { 200: backupSizeView },
        },
      },
      async (request) => backups.sizes(context(request), request.query.excludedDirs ?? []),
    );

    typed.get(
      `${BACKUP_PREFIX}/export`,
      {
        config: { action: 'backup.write', project: 'read' },
        schema: {
          tags,
          description:
            'Starts a backup (a task): `query` = JSON {name, item, moduleRules (keys: the data modules) or mongoItem, ' +
            'excludedDirs, requestId}. The selection links are applied. Answers the task id (the backup record ' +
            'gets the same id when it succeeds) and the request id its progress (`historycomputed`) is keyed by.',
          headers: projectHeaders,
          querystring: z.object({ query: jsonQuery(backupExportSchema), projectId: z.string().max(64).optional() }),
          response: { 200: backupStartView },
        },
      },
      async (request) =>
        backups.startExport(context(request), actorOf(request).user, request.query.query, request.language),
    );

    const importQuery = z.object({ query: jsonQuery(backupImportSchema), projectId: z.string().max(64).optional() });
    typed.get(
      `${BACKUP_PREFIX}/import`,
      {
        config: { action: 'backup.write', project: 'write' },
        schema: {
          tags,
          description:
            'Starts a restore (a task): `query` = JSON {id (the backup), item, moduleRules (module → 0 overwrite, ' +
            '1 keep, 2 clear then add) or mongoItem with itemType, name, requestId}. The archive is verified whole ' +
            'first; a safety backup of what is replaced is taken; data is applied in one transaction and files ' +
            'swapped in. Answers the task id and request id.',
          headers: projectHeaders,
          querystring: importQuery,
          response: { 200: backupStartView },
        },
      },
      async (request) =>
        backups.startImport(context(request), actorOf(request).user, request.query.query, request.language),
    );

    typed.get(
      `${BACKUP_PREFIX}/import/plan`,
      {
        config: { action: 'backup.read', project: 'read' },
        schema: {
          tags,
          description:
            'The dry run of a restore (same `query` as import): per module the documents added, overwritten, kept ' +
            'and deleted; per file kind the files added, replaced and removed. Changes nothing.',
          headers: projectHeaders,
          querystring: importQuery,
          response: { 200: restorePlanView },
        },
      },
      async (request) => backups.plan(context(request), request.query.query),
    );

    typed.get(
      `${BACKUP_PREFIX}/download/:id`,
      {
        config: { action: 'backup.read', project: 'read', tokenInQuery: true },
        schema: {
          tags,
          description:
            'The backup file, named by the record (`<name>.zip`). As a browser link it may carry `token` and ' +
            '`x-request-project` in the query. With `password`: an AES-256 encrypted zip that 7-Zip opens with it.',
          headers: projectHeaders,
          params: idParams,
          querystring: z.object({
            password,
            token: z.string().max(256).optional(),
            ...projectQuery,
          }),
        },
      },
      async (request, reply) => {
        const where = context(request);
        const file = await backups.download(where, request.params.id, request.query.password || undefined);
        if (file.size !== undefined) reply.header('content-length', file.size);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', disposition(file.name))
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(file.stream);
      },
    );

    typed.post(
      `${BACKUP_PREFIX}/upload`,
      {
        config: { action: 'backup.write', project: 'read', upload: backupUpload(backups.uploadMaxBytes) },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description:
            'Adds a backup file (multipart, one `.zip` file; a name of letters, digits, dot and underscore) to the ' +
            "project's backups, verified whole first. `password`: the code of a protected file. Answers " +
            '{status: "OK"} and the record.',
          headers: projectHeaders,
          querystring: z.object({ password, projectId: z.string().max(64).optional() }),
          response: { 200: backupView.extend({ status: z.literal('OK'), recordStatus: z.literal('succeed') }) },
        },
      },
      async (request) => {
        const where = context(request);
        const stored = await streamFile(request, (filename, file) =>
          backups.upload(where, filename, file, request.query.password || undefined),
        );
        return { ...stored, status: 'OK' as const, recordStatus: stored.status };
      },
    );

    typed.get(
      BACKUP_PREFIX,
      {
        config: { action: 'backup.read', project: 'read' },
        schema: {
          tags,
          description: `${LIST_QUERY_DESCRIPTION} Fields: id, name, type (export, import), status, safety, bytes, createTime, updateTime. Default sort createTime desc.`,
          headers: projectHeaders,
          querystring: listQuerystring.extend({ projectId: z.string().max(64).optional() }),
          response: { 200: z.array(backupView) },
        },
      },
      async (request, reply) => {
        const { items, total } = await backups.list(context(request), request.query.query);
        if (total) countAnswer(reply, total);
        return items;
      },
    );

    typed.get(
      `${BACKUP_PREFIX}/:id`,
      {
        config: { action: 'backup.read', project: 'read' },
        schema: {
          tags,
          description: 'One backup or restore record.',
          headers: projectHeaders,
          params: idParams,
          querystring: z.object({ projectId: z.string().max(64).optional() }),
          response: { 200: backupView },
        },
      },
      async (request) => backups.get(context(request), request.params.id),
    );

    for (const method of ['patch', 'put'] as const) {
      typed[method](
        `${BACKUP_PREFIX}/:id`,
        {
          config: { action: 'backup.write', project: 'read' },
          schema: {
            tags,
            description: 'Renames a record (only the name is editable; at most 30 characters).',
            headers: projectHeaders,
            params: idParams,
            querystring: z.object({ projectId: z.string().max(64).optional() }),
            body: backupRenameSchema,
            response: { 200: backupView },
          },
        },
        async (request) => backups.rename(context(request), request.params.id, request.body.name),
      );
    }

    typed.delete(
      `${BACKUP_PREFIX}/:id`,
      {
        config: { action: 'backup.delete', project: 'read' },
        schema: {
          tags,
          description: 'Deletes a record and its file; 200 means success.',
          headers: projectHeaders,
          params: idParams,
          querystring: z.object({ projectId: z.string().max(64).optional() }),
          response: { 200: z.object({ status: z.literal('OK') }) },
        },
      },
      async (request) => {
        await backups.remove(context(request), request.params.id);
        return { status: 'OK' as const };
      },
    );
  };
}
