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
import { actorOf } from '../../plugins/auth.js';
import { gatedProject, projectHeaders, projectQuery } from '../../plugins/project-gate.js';
import { type BackupService, backupContext } from './backup.service.js';
import { deleteRoute, downloadRoute, idParams, projectQuerystring, uploadRoute } from './backup-http.js';

const tags = ['backups'];
export const BACKUP_PREFIX = '/proxy/core/backup';

/** A query parameter holding JSON (`query=`, `excludedDirs=`): parsed, then checked by `schema`. */
function jsonQuery<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .max(100_000)
    .transform((text, ctx) => {
      try {
        const value: unknown = JSON.parse(text);
        return value;
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
          querystring: projectQuerystring.extend({
            excludedDirs: jsonQuery(
              z.array(z.string().max(MEDIA_LIMITS.pathMax)).max(BACKUP_LIMITS.excludedDirsMax),
            ).optional(),
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
          querystring: z.object({ query: jsonQuery(backupExportSchema), ...projectQuery }),
          response: { 200: backupStartView },
        },
      },
      async (request) =>
        backups.startExport(context(request), actorOf(request).user, request.query.query, request.language),
    );

    const importQuery = z.object({ query: jsonQuery(backupImportSchema), ...projectQuery });
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

    downloadRoute(app, {
      url: `${BACKUP_PREFIX}/download/:id`,
      action: 'backup.read',
      tags,
      description: 'The backup file, named by the record (`<name>.zip`), by bearer token or as a browser link.',
      file: (request, id, code) => backups.download(context(request), id, code),
    });

    uploadRoute(app, {
      url: `${BACKUP_PREFIX}/upload`,
      action: 'backup.write',
      tags,
      description:
        "Adds a backup file (multipart, one `.zip` file) to the project's backups, verified whole first; the record " +
        'is named after the file (other symbols than letters, digits, dot and underscore made one underscore). ' +
        '`password`: the code of a protected file. Answers {status: "OK"} and the record.',
      maxBytes: backups.uploadMaxBytes,
      response: backupView.extend({ status: z.literal('OK'), recordStatus: backupView.shape.status }),
      store: async (request, filename, file, code) => {
        const stored = await backups.upload(context(request), filename, file, code);
        return { ...stored, status: 'OK' as const, recordStatus: stored.status };
      },
    });

    typed.get(
      BACKUP_PREFIX,
      {
        config: { action: 'backup.read', project: 'read' },
        schema: {
          tags,
          description: `${LIST_QUERY_DESCRIPTION} Fields: id, name, type (export, import), status, safety, bytes, createTime, updateTime. Default sort createTime desc.`,
          headers: projectHeaders,
          querystring: listQuerystring.extend({ ...projectQuery }),
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
          querystring: projectQuerystring,
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
            querystring: projectQuerystring,
            body: backupRenameSchema,
            response: { 200: backupView },
          },
        },
        async (request) => backups.rename(context(request), request.params.id, request.body.name),
      );
    }

    deleteRoute(app, {
      url: `${BACKUP_PREFIX}/:id`,
      action: 'backup.delete',
      tags,
      description: 'Deletes a record and its file; 200 means success.',
      remove: (request, id) => backups.remove(context(request), id),
    });
  };
}
