import {
  grantView,
  LICENCE_FILE_MAX_BYTES,
  licenceCheck,
  licenceInfo,
  machineView,
  measureValues,
  translate,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { receiveFile, type UploadRule } from '../../lib/upload-receiver.js';
import { actorOf } from '../../plugins/auth.js';
import type { LicenceService } from './licence.service.js';
import type { PlatformLicenceService } from './platform-licence.service.js';

const poolView = z.object({
  parent: grantView.nullable(),
  parentKind: z.enum(['platform', 'tenant']),
  allocated: measureValues,
  available: measureValues,
  today: z.string(),
});

/**
 * The platform licence and the pools grants are allocated from. Registered under `/portal/rest`:
 * the licence-info service lives at `rest/license/…` (spec README, contract 1), the pool beside the
 * session calls at `rest/spm/login/…`.
 */
export function licenceRoutes(licence: LicenceService, platform: PlatformLicenceService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['licence'];

    app.get(
      '/license/info',
      {
        // Platform-wide totals cover every tenant: the administrator's alone.
        config: { action: 'licence.info' },
        schema: {
          tags,
          description:
            'The installed platform licence (platform-spm): what it says, whether it grants anything today ' +
            '(state, reason), remaining days and the reminder, what is allocated and used. 404 when none.',
          response: { 200: licenceInfo },
        },
      },
      async (request) => {
        const [info, usage] = await Promise.all([platform.info(), licence.usageOf(actorOf(request).user)]);
        if (!info || !usage) throw new AppError('licenceMissing', { status: 404, message: 'licence.none' });
        const { reason } = info.status;
        return {
          id: 'platform-spm' as const,
          ...info.summary,
          state: info.state,
          reason: reason ? translate(reason.key, request.language, reason.params) : null,
          remainingDays: info.remainingDays,
          reminder: info.reminder,
          allocated: usage.allocated,
          used: usage.used,
          installedAt: info.installedAt,
        };
      },
    );

    app.get(
      '/license/machine',
      {
        config: { action: 'licence.write' },
        schema: { tags, description: "This machine's code, to send to the vendor.", response: { 200: machineView } },
      },
      async () => {
        const { machineCode, machine } = await platform.machine();
        return { machineCode, machine };
      },
    );

    const upload = { tags, consumes: ['multipart/form-data'], response: { 200: licenceCheck } };
    const licenceFile: UploadRule = {
      fileBytes: LICENCE_FILE_MAX_BYTES,
      tooLarge: () => new AppError('licenceTooLarge'),
    };
    const fileText = async (request: FastifyRequest) => {
      const bytes = await receiveFile(request);
      try {
        // ignoreBOM keeps a byte-order mark in the text, where the exact-text check refuses it.
        return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        throw new AppError('licenceMalformed');
      }
    };
    app.post(
      '/license/verify',
      {
        config: { action: 'licence.write', upload: licenceFile },
        schema: { ...upload, description: 'Checks a licence file (multipart `file`) and says what it would change.' },
      },
      async (request) => platform.check(await fileText(request)),
    );
    app.post(
      '/license/upload',
      {
        config: { action: 'licence.write', upload: licenceFile },
        schema: {
          ...upload,
          description: 'Applies a licence file (multipart `file`); a refused file changes nothing.',
        },
      },
      async (request) => platform.apply(await fileText(request), actorOf(request)),
    );

    app.get(
      '/spm/login/current/unUse/license',
      {
        config: { action: 'licence.read' },
        schema: {
          tags,
          description:
            'The pool a grant is allocated from: target=tenant (the platform, administrator) or ' +
            'target=project for an owner (a tenant names only itself). `except` leaves out the grant being edited.',
          querystring: z.object({
            target: z.enum(['tenant', 'project']).default('project'),
            owner: z.string().max(64).optional(),
            except: z.string().max(64).optional(),
          }),
          response: { 200: poolView },
        },
      },
      async (request) => licence.poolFor(actorOf(request).user, request.query),
    );
  };
}
