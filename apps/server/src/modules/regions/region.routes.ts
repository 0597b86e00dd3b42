import type { FastifyInstance } from 'fastify';
import { loadRegionReference } from './region-reference.js';

/**
 * `GET region`: the region reference data (province → city → county, `{c, n, d}`) for the console's
 * region cascader; the same tree the server checks region values against. A signed-in call, so never
 * stored by a cache (plugins/no-store.ts); the console asks for it once per session.
 */
export function regionRoutes() {
  return async function routes(app: FastifyInstance): Promise<void> {
    const { json } = loadRegionReference();
    app.get(
      '/region',
      {
        config: { action: 'session' },
        schema: {
          tags: ['fields'],
          description:
            "China's administrative regions (GB/T 2260) as a tree: `c` the 6-digit code, `n` the name, `d` the regions below.",
        },
      },
      async (_request, reply) =>
        reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(json),
    );
  };
}
