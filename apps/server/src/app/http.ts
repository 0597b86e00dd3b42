import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { AppError } from '../lib/app-error.js';
import type { Clock } from '../lib/clock.js';
import type { Metrics } from '../modules/metrics/metrics.js';
import { MetricsRepository } from '../modules/metrics/metrics.repository.js';
import { registerMetrics } from '../modules/metrics/metrics.routes.js';
import { registerPlatformRestoreGuard } from '../modules/platform-backup/platform-backup.routes.js';
import { registerBackOfficeGate } from '../modules/sites/back-office-gate.js';
import { type ActionRoute, registerAuth } from '../plugins/auth.js';
import { registerCompression } from '../plugins/compression.js';
import { registerCors } from '../plugins/cors.js';
import { type ErrorAnswer, registerErrorHandler } from '../plugins/error-handler.js';
import { registerNoStore } from '../plugins/no-store.js';
import { rejectNulCharacters } from '../plugins/nul-characters.js';
import { registerSecurityHeaders } from '../plugins/security-headers.js';
import { registerTenantContext } from '../plugins/tenant-context.js';
import { registerUnreadBody } from '../plugins/unread-body.js';
import { registerUploadRoutes, type UploadRoute } from '../plugins/upload-routes.js';
import { API } from './prefixes.js';
import type { Services } from './services.js';
import '../plugins/types.js';

/**
 * What every request goes through, in order: its tenant's statement context, validation and serialisation by the routes' zod
 * schemas, the one error handler, the unread-body rule, upload limits, the session, metrics, the NUL
 * check, the project gate, the back office's sign-in gate, the platform restore guard; then CORS,
 * security headers, rate limits, the websocket, compression and the API description. Answers the routes
 * that take files and every route with its action (the route table, for tests that go over all of it).
 */
export async function registerRequestPipeline(
  app: FastifyInstance,
  services: Services,
  context: {
    config: Config;
    clock: Clock;
    database: DatabaseHandle;
    metrics: Metrics | undefined;
    answerError: ErrorAnswer;
  },
): Promise<{ multipartRoutes: readonly UploadRoute[]; actionRoutes: readonly ActionRoute[] }> {
  const { config, clock, database, metrics } = context;
  const { auth, platformLicence, projectGate, platformBackups, settings } = services;
  const metricsToken = config.metricsToken;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Each request's statements are counted against its tenant (fair sharing of the database), only
  // where the database shares its pool (not an in-process PGlite: tests).
  if (database.admission) registerTenantContext(app);
  registerErrorHandler(app, context.answerError);
  // An answer given before its request's body was read leaves the connection usable (or closes it).
  registerUnreadBody(app);
  // Every route that takes files, from the route table: its declared limits checked before its body is read.
  const multipartRoutes = registerUploadRoutes(app);
  const actionRoutes = registerAuth(app, auth, API);
  // Every project-scoped route through the project gate: another tenant's project 404, a disabled one
  // read-only, a restoring one 423. A hook of each such route, so it runs after every request's own
  // checks (the session, the NUL check) and before the upload limits; registered before any route
  // is added, so that none escapes it.
  projectGate.register(app);
  // Answers of a session's calls (and those that carry a token) are never cached.
  registerNoStore(app, API);
  if (metrics && metricsToken) {
    const metricsRepository = new MetricsRepository(database.db);
    registerMetrics(app, metrics, metricsToken, {
      counts: () => metricsRepository.counts(clock()),
      pools: () => database.pools?.() ?? [],
      licenceDays: async () => {
        const installed = await platformLicence.info();
        return installed?.state === 'valid' ? installed.remainingDays : 0;
      },
    });
  }
  rejectNulCharacters(app);
  // Every back-office call but the sign-in ones through its sign-in gate (its caller on the request).
  registerBackOfficeGate(app, services.sites);
  // While a platform restore replaces the database, every API call but its status waits it out (503).
  registerPlatformRestoreGuard(app, platformBackups, API);
  // Cross-origin access follows the enableCors setting at run time (asked only when an Origin is sent).
  registerCors(app, () => settings.get().then((current) => current.enableCors));
  registerSecurityHeaders(app);
  await app.register(fastifyRateLimit, { global: false, errorResponseBuilder: () => new AppError('tooManyRequests') });
  // The progress channel (modules/tasks); at most 64 KiB per message from a client.
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await registerCompression(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Gantry API', version: '0.1.0', description: 'Administration console of the Gantry platform.' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  return { multipartRoutes, actionRoutes };
}
