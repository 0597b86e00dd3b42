import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';
import { taskView } from '../tasks/task.routes.js';
import type { RetentionService } from './retention.service.js';

const tags = ['settings'];

/** The retention clean-up as the settings page shows it: its last run, and a run now. */
export function retentionRoutes(retention: RetentionService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/setting/bbs_realtime/last-run',
      {
        config: { action: 'settings.read' },
        schema: {
          tags,
          description: 'The newest retention clean-up (hourly, or asked for): when, its state, what it removed.',
          response: { 200: z.object({ task: taskView.nullable() }) },
        },
      },
      async (request) => ({ task: await retention.lastRun(request.language) }),
    );
    typed.post(
      '/setting/bbs_realtime/run',
      {
        config: { action: 'settings.write' },
        schema: { tags, description: 'Runs the retention clean-up now (a task).', response: { 200: taskView } },
      },
      async (request) => retention.runNow(actorOf(request).user.id, request.language),
    );
  };
}
