import { ADMIN_USER_ID, grantView, measureValues } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { actorOf } from '../../plugins/auth.js';
import type { GrantTarget, LicenceService } from './licence.service.js';

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
export function licenceRoutes(licence: LicenceService) {
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
          description: 'The installed platform licence (platform-spm) with what is allocated and used.',
          response: {
            200: z.object({
              id: z.string(),
              grant: grantView,
              allocated: measureValues,
              used: measureValues,
              installedAt: z.string(),
            }),
          },
        },
      },
      async (request) => {
        const info = await licence.platformInfo(actorOf(request).user);
        if (!info) throw new AppError('licenceMissing', { status: 404 });
        return info;
      },
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
      async (request) => {
        const { user } = actorOf(request);
        const { target, owner, except } = request.query;
        let grantTarget: GrantTarget;
        if (target === 'tenant') {
          if (!user.isAdmin) throw new AppError('forbidden');
          grantTarget = { kind: 'tenant', tenantId: except };
        } else {
          const ownerId = owner || (user.isAdmin ? ADMIN_USER_ID : user.id);
          if (!user.isAdmin && ownerId !== user.id) throw new AppError('forbidden');
          grantTarget = { kind: 'project', ownerId, projectId: except };
        }
        return licence.view(await licence.pool(licence.db, grantTarget));
      },
    );
  };
}
