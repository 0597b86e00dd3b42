import type { FastifyInstance } from 'fastify';
import { loadRegionReference } from './region-reference.js';

/**
 * `GET region`: the region reference data (province → city → county, `{c, n, d}`) for the console's
 * region cascader; the same tree the server checks region values against. It changes only with the
 * package, so it is cached by the browser for a day.
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
        reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'private, max-age=86400')
          .send(json),
    );
  };
}
