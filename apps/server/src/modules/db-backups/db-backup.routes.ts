import {
  dbBackupDumpSchema,
  dbBackupExcludedDirsSchema,
  dbBackupJobView,
  dbBackupRestoreSchema,
  dbBackupStartView,
  dbBackupStatsView,
  dbBackupView,
  ftpBackupView,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countAnswer, LIST_QUERY_DESCRIPTION, listQuerystring } from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { gatedProject, projectHeaders, projectQuery } from '../../plugins/project-gate.js';
import { backupContext } from '../backups/backup.service.js';
import { deleteRoute, downloadRoute, projectQuerystring, uploadRoute } from '../backups/backup-http.js';
import type { DbBackupService } from './db-backup.service.js';

const tags = ['db-backups'];
export const DB_BACKUP_PREFIX = '/db-backup';

/**
 * Database backups (backups-data-designer.md §7 "Database backup calls"; issue 13 §1) under
 * `/portal/rest/db-backup`, the project through the project gate (its header, or the query for links).
 * Registered with the multipart plugin (uploads stream to disk).
 */
export function dbBackupRoutes(service: DbBackupService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const context = (request: FastifyRequest) => backupContext(gatedProject(request));

    typed.get(
      `${DB_BACKUP_PREFIX}/stats`,
      {
        config: { action: 'dbBackup.read', project: 'read' },
        schema: {
          tags,
          description:
            'What a database backup would hold, per part (fileServer, html, database): whole MB (`size`), `bytes`, ' +
            '`count` (files or documents). `excludedDirs`: a JSON list of media folders left out.',
          headers: projectHeaders,
          querystring: z.object({ excludedDirs: dbBackupExcludedDirsSchema.optional(), ...projectQuery }),
          response: { 200: dbBackupStatsView },
        },
      },
      async (request) => service.stats(context(request), request.query.excludedDirs ?? []),
    );

    typed.post(
      `${DB_BACKUP_PREFIX}/dump`,
      {
        config: { action: 'dbBackup.write', project: 'read' },
        schema: {
          tags,
          description:
            'Starts a database backup (a job): {name (max 30), item: {fileServer, html, database: true}, excludedDirs}. ' +
            '`database` is every collection of the project with its time series. Answers the job id (the backup ' +
            'gets the same id). When FTP storage is on, the archive is pushed there too.',
          headers: projectHeaders,
          querystring: projectQuerystring,
          body: dbBackupDumpSchema,
          response: { 200: dbBackupStartView },
        },
      },
      async (request) => service.startDump(context(request), actorOf(request).user, request.body, request.language),
    );

    const restoreSchema = (what: string) => ({
      tags,
      description:
        `Starts a restore of ${what} (a job): the body sets the parts to restore to true ({fileServer, html, ` +
        "database}). Each part replaces the project's whole part: the database in one transaction, files staged " +
        "and swapped in with a journal. Meanwhile the project's data calls answer 423 projectRestoring. Answers the job id.",
      headers: projectHeaders,
      querystring: z.object({ id: z.string().min(1).max(64), ...projectQuery }),
      body: dbBackupRestoreSchema,
      response: { 200: dbBackupStartView },
    });
    typed.post(
      `${DB_BACKUP_PREFIX}/restore`,
      { config: { action: 'dbBackup.write', project: 'write' }, schema: restoreSchema('a database backup (`id`)') },
      async (request) =>
        service.startRestore(context(request), actorOf(request).user, request.query.id, request.body, request.language),
    );
    typed.post(
      `${DB_BACKUP_PREFIX}/ftp/restore`,
      {
        config: { action: 'dbBackup.write', project: 'write' },
        schema: restoreSchema('a backup on the FTP server (`id`), verified first'),
      },
      async (request) =>
        service.startFtpRestore(
          context(request),
          actorOf(request).user,
          request.query.id,
          request.body,
          request.language,
        ),
    );

    typed.get(
      `${DB_BACKUP_PREFIX}/backup`,
      {
        config: { action: 'dbBackup.read', project: 'read' },
        schema: {
          tags,
          description: `The database backups of the project. ${LIST_QUERY_DESCRIPTION} Fields: id, name, type (dump), status (success), bytes, createTime, updateTime. Default sort createTime desc. A backup whose FTP copy failed has \`warning\` ({key, params, message}).`,
          headers: projectHeaders,
          querystring: listQuerystring.extend(projectQuery),
          response: { 200: z.array(dbBackupView) },
        },
      },
      async (request, reply) => {
        const { items, total } = await service.list(context(request), request.query.query, request.language);
        if (total) countAnswer(reply, total);
        return items;
      },
    );

    typed.get(
      `${DB_BACKUP_PREFIX}/ftp`,
      {
        config: { action: 'dbBackup.read', project: 'read' },
        schema: {
          tags,
          description:
            'What the FTP server holds for the project: id, name, item, uploadTime, fileSize (MB). The header ' +
            '`ftp-configured` says whether FTP storage is configured: when it is not (`false`), the list is empty ' +
            "(200). An FTP server that fails answers 502 dbBackupFtpFailed, its reason in the caller's language.",
          headers: projectHeaders,
          querystring: projectQuerystring,
          response: { 200: z.array(ftpBackupView) },
        },
      },
      async (request, reply) => {
        const { items, configured } = await service.ftpList(context(request));
        reply.header('ftp-configured', String(configured));
        return items;
      },
    );

    deleteRoute(app, {
      url: `${DB_BACKUP_PREFIX}/backup/:id`,
      action: 'dbBackup.delete',
      tags,
      description: 'Deletes a database backup and its file; 200 means success.',
      remove: (request, id) => service.remove(context(request), id),
    });
    deleteRoute(app, {
      url: `${DB_BACKUP_PREFIX}/ftp/:id`,
      action: 'dbBackup.delete',
      tags,
      description: 'Deletes a backup (and its sidecar) from the FTP server; 200 means success.',
      remove: (request, id) => service.ftpRemove(context(request), id),
    });

    downloadRoute(app, {
      url: `${DB_BACKUP_PREFIX}/download/:id`,
      action: 'dbBackup.read',
      tags,
      description: 'The database backup file (`<name>.zip`), by bearer token or as a browser link.',
      file: (request, id, code) => service.download(context(request), id, code),
    });
    downloadRoute(app, {
      url: `${DB_BACKUP_PREFIX}/ftp/download/:id`,
      action: 'dbBackup.read',
      tags,
      description: 'A backup on the FTP server, fetched and verified, then sent as `download` sends one.',
      file: (request, id, code) => service.ftpDownload(context(request), id, code),
    });

    uploadRoute(app, {
      url: `${DB_BACKUP_PREFIX}/upload`,
      action: 'dbBackup.write',
      tags,
      description:
        'Adds a database backup file (multipart field `file`, one `.zip`; the size limit of project backup ' +
        'uploads), verified whole first; named as a project backup upload is. `password`: the code of a ' +
        'protected file. Answers the record (its `id` means success); otherwise an error with its message.',
      maxBytes: service.uploadMaxBytes,
      response: dbBackupView,
      store: (request, filename, file, code) =>
        service.upload(context(request), filename, file, code, request.language),
    });

    typed.get(
      `${DB_BACKUP_PREFIX}/:jobId`,
      {
        config: { action: 'dbBackup.read', project: 'read' },
        schema: {
          tags,
          description:
            'A dump or restore job of the project (polled each second): status running, success or failed, and ' +
            "`log`, the outcome in words (a failure's reason first); `warning` ({key, params, message}) when a " +
            'dump succeeded but its FTP copy failed.',
          headers: projectHeaders,
          params: z.object({ jobId: z.string().min(1).max(64) }),
          querystring: projectQuerystring,
          response: { 200: dbBackupJobView },
        },
      },
      async (request) => service.job(context(request), request.params.jobId, request.language),
    );
  };
}
