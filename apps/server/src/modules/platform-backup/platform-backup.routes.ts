import {
  platformBackupNameSchema,
  platformBackupStatus,
  platformBackupView,
  platformRestoreSchema,
} from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { streamFile } from '../../lib/upload-receiver.js';
import { actorOf } from '../../plugins/auth.js';
import { disposition } from '../backups/backup-http.js';
import type { PlatformBackupService } from './platform-backup.service.js';

const tags = ['platform-backups'];
export const PLATFORM_BACKUP_PREFIX = '/platform-backup';
/** The one call a platform restore lets through: how the restore is going. */
export const PLATFORM_RESTORE_STATUS = `${PLATFORM_BACKUP_PREFIX}/restore-status`;
const nameParams = z.object({ name: platformBackupNameSchema });

/**
 * Whole-platform backups from the settings area (issue 13 §4), the administrator's, under
 * `/portal/rest/platform-backup`. Registered with the multipart plugin (uploads stream to disk).
 */
export function platformBackupRoutes(service: PlatformBackupService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.get(
      PLATFORM_BACKUP_PREFIX,
      {
        config: { action: 'platformBackup.read' },
        schema: {
          tags,
          description: 'The platform backups of this server (`<data>/platform-backups/`), newest first.',
          response: { 200: z.array(platformBackupView) },
        },
      },
      () => service.list(),
    );

    typed.post(
      PLATFORM_BACKUP_PREFIX,
      {
        config: { action: 'platformBackup.write' },
        schema: {
          tags,
          description:
            'Starts a platform backup (every table and every file area of the data directory) as a task; answers ' +
            'its id (the task manager and `proxy/ws/historycomputed` show its progress).',
          querystring: z.object({ requestId: z.string().max(64).optional() }),
          response: { 200: z.object({ taskId: z.string() }) },
        },
      },
      async (request) => ({ taskId: await service.start(actorOf(request), request.query.requestId) }),
    );

    typed.get(
      PLATFORM_RESTORE_STATUS,
      {
        config: { action: 'public' },
        schema: {
          tags,
          description:
            'How the platform restore of this server process is going: idle, restoring, succeeded or failed (with ' +
            'its log). No session needed: a restore signs everyone out.',
          response: { 200: platformBackupStatus },
        },
      },
      (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return service.status();
      },
    );

    typed.get(
      `${PLATFORM_BACKUP_PREFIX}/:name/download`,
      {
        config: { action: 'platformBackup.read', tokenInQuery: true },
        schema: {
          tags,
          description: 'The platform backup file; bearer token, or `token` in the query as a browser link.',
          params: nameParams,
          querystring: z.object({ token: z.string().max(256).optional() }),
        },
      },
      async (request, reply) => {
        const file = await service.download(request.params.name);
        return reply
          .header('content-length', file.size)
          .header('content-type', 'application/zip')
          .header('content-disposition', disposition(file.name))
          .header('cache-control', 'no-store')
          .send(file.stream);
      },
    );

    typed.delete(
      `${PLATFORM_BACKUP_PREFIX}/:name`,
      {
        config: { action: 'platformBackup.write' },
        schema: { tags, description: 'Deletes a platform backup file.', params: nameParams },
      },
      async (request) => {
        await service.remove(actorOf(request), request.params.name);
        return {};
      },
    );

    typed.post(
      `${PLATFORM_BACKUP_PREFIX}/upload`,
      {
        // No size of its own: the upload stops short of filling the disk (the service).
        config: { action: 'platformBackup.write', upload: { fields: 10 } },
        schema: {
          tags,
          consumes: ['multipart/form-data'],
          description:
            'Adds a platform backup file (multipart field `file`, one `.zip`), verified whole first (every hash, ' +
            'every row, known tables, no path outside its folder). Answers the listed file.',
          response: { 200: platformBackupView },
        },
      },
      (request) => streamFile(request, (filename, file) => service.upload(filename, file, request.language)),
    );

    typed.post(
      `${PLATFORM_BACKUP_PREFIX}/:name/restore`,
      {
        config: { action: 'platformBackup.write' },
        schema: {
          tags,
          description:
            'Replaces the whole platform with the backup, confirmed by the administrator’s password (wire form). ' +
            'Refused while tasks run. Answers at once; meanwhile every API call but `restore-status` answers 503 ' +
            '`platformRestoring`. Afterwards everyone signs in again.',
          params: nameParams,
          body: platformRestoreSchema,
        },
      },
      async (request) => {
        await service.restore(actorOf(request), request.params.name, request.body.password);
        return {};
      },
    );
  };
}

/**
 * The maintenance guard of a platform restore: every API call but the status answers 503 while it
 * runs (the database is being replaced under them). Registered on the whole app, before auth.
 */
export function registerPlatformRestoreGuard(app: FastifyInstance, service: PlatformBackupService, apiPrefix: string) {
  const status = `${apiPrefix}${PLATFORM_RESTORE_STATUS}`;
  // Callback-style: every request passes here, and an async hook costs a promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!service.restoring) return done();
    const url = request.url.split('?')[0] ?? '';
    done(url.startsWith(`${apiPrefix}/`) && url !== status ? new AppError('platformRestoring') : undefined);
  });
}
