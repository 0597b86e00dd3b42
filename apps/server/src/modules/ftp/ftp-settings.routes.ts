import { ftpSettingsInputSchema, ftpSettingsSchema, ftpTestResultSchema } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';
import type { FtpSettingsService } from './ftp-settings.service.js';

/** The administrator's FTP storage settings (issue 13 §2), under `/portal/rest/db-backup/`. */
export function ftpSettingsRoutes(ftp: FtpSettingsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/db-backup/ftp-settings',
      {
        config: { action: 'ftpSettings.read', project: 'none' },
        schema: {
          tags: ['db-backup'],
          description: 'FTP storage settings; the password is never answered, only `passwordSet`.',
          response: { 200: ftpSettingsSchema },
        },
      },
      async () => ftp.view(),
    );

    app.put(
      '/db-backup/ftp-settings',
      {
        config: { action: 'ftpSettings.write', project: 'none' },
        schema: {
          tags: ['db-backup'],
          description: 'Saves the FTP storage settings; without `password` the stored one is kept.',
          body: ftpSettingsInputSchema,
          response: { 200: ftpSettingsSchema },
        },
      },
      async (request) => ftp.replace(actorOf(request), request.body),
    );

    app.post(
      '/db-backup/ftp-settings/test',
      {
        config: { action: 'ftpSettings.write', project: 'none' },
        schema: {
          tags: ['db-backup'],
          description:
            'Tries the posted settings (the stored password when none is posted): connect, log in, enter or create the folder, write, read and delete a probe file. ' +
            "`failure` names the step that failed; `message` says it in the caller's language.",
          body: ftpSettingsInputSchema,
          response: { 200: ftpTestResultSchema },
        },
      },
      async (request) => ftp.test(request.body, request.language),
    );
  };
}
