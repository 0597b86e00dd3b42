import { backupFailureView, grantView } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';
import { auditEntryView } from '../audit/audit.presenter.js';
import type { DashboardService } from './dashboard.service.js';

const counts = z.object({ enabled: z.number(), disabled: z.number() });
const ending = z.array(z.object({ id: z.string(), name: z.string(), endTime: z.string(), remainingTime: z.number() }));

export const dashboardView = z.object({
  tenants: counts.nullable(),
  projects: counts,
  licence: z
    .object({
      kind: z.enum(['platform', 'tenant']),
      grant: grantView,
      measures: z.array(
        z.object({ path: z.string(), granted: z.number().nullable(), allocated: z.number(), used: z.number() }),
      ),
    })
    .nullable(),
  expiring: z.object({ tenants: ending, projects: ending }),
  audit: z.array(auditEntryView),
  /** Periodic backups whose latest run failed (issue 13 §3): project, cycle, time, message. */
  backupFailures: z.array(backupFailureView),
  today: z.string(),
});

export function dashboardRoutes(dashboard: DashboardService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/dashboard',
      {
        config: { action: 'session' },
        schema: { tags: ['dashboard'], response: { 200: dashboardView } },
      },
      async (request) => dashboard.forUser(actorOf(request).user),
    );
  };
}
