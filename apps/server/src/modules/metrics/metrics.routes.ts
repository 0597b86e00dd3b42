import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PoolStats } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Metrics, ScrapeCounts } from './metrics.js';

/** The label of requests no route matched (unknown paths): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export const METRICS_PATH = '/metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether `header` is `Bearer <token>`. Both sides are hashed first, so the comparison takes the
 * same time whatever the length or the first differing byte of what was sent.
 */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  // A missing header is compared too (against a hash nobody's token has), so it takes as long.
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

export interface MetricsSources {
  counts(): Promise<ScrapeCounts>;
  pools(): PoolStats[];
  /** Whole days the platform licence still covers (0 without one). */
  licenceDays(): Promise<number>;
}

/**
 * Request metrics (every answer, by the route's pattern: bounded labels) and `GET /metrics`, for
 * `Authorization: Bearer <GANTRY_METRICS_TOKEN>` only. Called only when the token is set: unset,
 * there is no hook and no route (404).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string, sources: MetricsSources): void {
  const expected = digest(token);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  // Outside the API prefix, like /healthz: no session is read (the token is not a session token).
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized');
    }
    const [counts, licenceDays] = await Promise.all([sources.counts(), sources.licenceDays()]);
    const text = await metrics.scrape({ counts, pools: sources.pools(), licenceDays });
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
