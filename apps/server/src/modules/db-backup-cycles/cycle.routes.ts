import { dbBackupCycleCreateSchema, dbBackupCycleUpdateSchema, dbBackupCycleView } from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';
import { gatedProject, projectHeaders } from '../../plugins/project-gate.js';
import { backupContext } from '../backups/backup.service.js';
import type { CycleService } from './cycle.service.js';

const tags = ['db-backups'];
const PREFIX = '/db-backup/cycles';
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Periodic database backup cycles (issue 13 §3) under `/portal/rest/db-backup/cycles`, the project
 * through the project gate: list, create, change, delete.
 */
export function cycleRoutes(service: CycleService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const context = (request: FastifyRequest) => backupContext(gatedProject(request));

    typed.get(
      PREFIX,
      {
        config: { action: 'dbBackupCycle.read', project: 'read' },
        schema: {
          tags,
          description:
            "The project's periodic backup cycles, oldest first: every `hours` hours, keeping the last `keep` " +
            'periodic dumps; `nextRunTime` (null while disabled), `lastRunTime`, `lastResult` (running, success or ' +
            'failed with its message; `jobId` is the dump job).',
          headers: projectHeaders,
          response: { 200: z.array(dbBackupCycleView) },
        },
      },
      async (request) => service.list(context(request)),
    );

    typed.post(
      PREFIX,
      {
        config: { action: 'dbBackupCycle.write', project: 'read' },
        schema: {
          tags,
          description:
            'Creates a cycle: `name` (1–30), `hours` (whole, 1–8760), `enabled` (default true), `keep` (1–100, ' +
            'default 7). The first run is due `hours` after now. At most 20 cycles per project.',
          headers: projectHeaders,
          body: dbBackupCycleCreateSchema,
          response: { 200: dbBackupCycleView },
        },
      },
      async (request) => service.create(actorOf(request), context(request), request.body),
    );

    typed.patch(
      `${PREFIX}/:id`,
      {
        config: { action: 'dbBackupCycle.write', project: 'read' },
        schema: {
          tags,
          description:
            'Changes any of `name`, `hours`, `enabled`, `keep`. A new period, or enabling, restarts the count ' +
            'from now; a name or keep change does not.',
          headers: projectHeaders,
          params: idParams,
          body: dbBackupCycleUpdateSchema,
          response: { 200: dbBackupCycleView },
        },
      },
      async (request) => service.update(actorOf(request), context(request), request.params.id, request.body),
    );

    typed.delete(
      `${PREFIX}/:id`,
      {
        config: { action: 'dbBackupCycle.write', project: 'read' },
        schema: {
          tags,
          description: 'Deletes a cycle; the dumps it made stay in the backup list. 200 means success.',
          headers: projectHeaders,
          params: idParams,
          response: { 200: z.object({ status: z.literal('OK') }) },
        },
      },
      async (request) => {
        await service.remove(actorOf(request), context(request), request.params.id);
        return { status: 'OK' as const };
      },
    );
  };
}
