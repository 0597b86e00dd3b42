import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';

/** How long readiness waits for the database: a probe must answer quickly whatever the database does. */
const READY_TIMEOUT_MS = 250;

/**
 * Liveness (the process answers; never touches the database) and readiness: whether the database
 * answers now — `busy` while a long statement holds the embedded engine, `restarting` or `down`.
 */
export function healthRoutes(database: DatabaseHandle) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => {
      const status = await database.status(READY_TIMEOUT_MS);
      if (status === 'ready') return { status: 'ready' };
      return reply.code(503).send({ status });
    });
  };
}
