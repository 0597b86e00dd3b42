import type { FastifyInstance } from 'fastify';
import { addToVary } from '../lib/vary.js';
import { PROJECT_HEADER } from './project-gate.js';

const EXPOSED = 'count, count-estimated, next-cursor, Content-Disposition, ftp-configured';
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED = `Authorization, Content-Type, Accept-Language, ${PROJECT_HEADER}`;
const MAX_AGE = '600';

/**
 * Cross-origin access, as @fastify/cors answered it with these options (any origin reflected, no
 * credentials; tokens travel in `Authorization`), switched at run time by `enabled` (the enableCors
 * setting). Every answer varies on `Origin`. A request without an Origin (same-origin calls, probes,
 * API clients) costs that header and nothing else: the settings are not asked, nothing is allocated
 * (issue 33: the plugin spread its options, rebuilt the route options and made closures on every
 * request). With an Origin and CORS on: the origin and the exposed headers; a preflight (OPTIONS with
 * Access-Control-Request-Method) is answered 204 at once with the methods, headers and max-age, one
 * without that header 400. Otherwise the request goes on as if no Origin were sent (an OPTIONS: 404).
 */
export function registerCors(app: FastifyInstance, enabled: () => Promise<boolean>): void {
  app.addHook('onRequest', (request, reply, done) => {
    addToVary(reply, 'Origin');
    const origin = request.headers.origin;
    if (!origin) return done();
    enabled().then(
      (on) => {
        if (!on) return done();
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', EXPOSED);
        if (request.raw.method !== 'OPTIONS') return done();
        if (!request.headers['access-control-request-method']) {
          reply.status(400).type('text/plain').send('Invalid Preflight Request');
          return;
        }
        reply.header('access-control-allow-methods', METHODS);
        reply.header('access-control-allow-headers', ALLOWED);
        reply.header('access-control-max-age', MAX_AGE);
        reply.code(204).header('content-length', '0').send();
      },
      // Settings unreadable: no cross-origin access, and the request itself goes on to its answer.
      () => done(),
    );
  });
  // Lets an OPTIONS request reach the hook above on any path; one that gets past it is not found.
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}
