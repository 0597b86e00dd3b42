import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/database.js';

/** How long readiness waits for the database: a probe must answer quickly whatever the database does. */
const READY_TIMEOUT_MS = 250;
/** The liveness answer, as JSON. */
const ALIVE = JSON.stringify({ status: 'ok' });

/**
 * Liveness (the process answers; never touches the database) and readiness: whether the database
 * answers now — `busy` while a long statement holds the embedded engine, `restarting` or `down`.
 */
export function healthRoutes(database: DatabaseHandle) {
  return async (app: FastifyInstance) => {
    // Polled constantly: the answer written once, sent as it is (no promise, no serialisation), and
    // never compressed (a few bytes, far below the threshold): no compression hooks on either probe.
    app.get('/healthz', { compress: false }, (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(ALIVE),
    );
    app.get('/readyz', { compress: false }, async (_request, reply) => {
      const status = await database.status(READY_TIMEOUT_MS);
      if (status === 'ready') return { status: 'ready' };
      return reply.code(503).send({ status });
    });
  };
}
