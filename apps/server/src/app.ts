import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { followChanges } from './app/changes.js';
import { registerRequestPipeline } from './app/http.js';
import { registerLifecycle } from './app/lifecycle.js';
import { registerRoutes } from './app/routes.js';
import { buildServices, type Services } from './app/services.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { type Clock, systemClock } from './lib/clock.js';
import { createInvalidationBus } from './lib/invalidation-bus.js';
import { openFileStore } from './lib/open-file-store.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { CaptchaService } from './modules/auth/captcha.service.js';
import type { BackupService } from './modules/backups/backup.service.js';
import type { CycleService } from './modules/db-backup-cycles/cycle.service.js';
import type { FtpSettingsService } from './modules/ftp/ftp-settings.service.js';
import type { createFtpStorage, FtpStorage } from './modules/ftp/ftp-storage.js';
import type { LicenceService } from './modules/licence/licence.service.js';
import type { MachineIdentity } from './modules/licence/machine-identity.js';
import type { PlatformLicenceService } from './modules/licence/platform-licence.service.js';
import type { Metrics } from './modules/metrics/metrics.js';
import type { ProjectService } from './modules/projects/project.service.js';
import type { SettingsService } from './modules/settings/settings.service.js';
import { ownOrigin } from './modules/sites/site.routes.js';
import { siteAddress } from './modules/sites/site-listeners.js';
import type { TaskEngine } from './modules/tasks/task.engine.js';
import type { TemplateService } from './modules/templates/template.service.js';
import type { TenantService } from './modules/tenants/tenant.service.js';
import { openConfiguredDatabase } from './open-database.js';
import type { ActionRoute } from './plugins/auth.js';
import { answerFrameworkError, errorAnswer } from './plugins/error-handler.js';
import { logDestination, loggerOptions, RequestLog, requestLogger } from './plugins/logging.js';
import type { ProjectGate } from './plugins/project-gate.js';
import type { UploadRoute } from './plugins/upload-routes.js';
import './plugins/types.js';

export { API, PORTAL, SPM } from './app/prefixes.js';

export interface AppOptions {
  config: Config;
  /** An open database; when absent the app opens the one the config names and closes it with itself. */
  database?: DatabaseHandle;
  /**
   * The given `database` still starts and is ready when this resolves (main.ts builds the app
   * meanwhile): what a stopped process left is then decided as soon as it is (app/lifecycle.ts).
   */
  databaseReady?: Promise<void>;
  /** Close the given `database` with the app too (main.ts opens it early, while the server loads). */
  closeDatabase?: boolean;
  clock?: Clock;
  logger?: boolean;
  /** Where the log lines go (tests read them); standard output by default. */
  logStream?: DestinationStream;
  /** This machine's identity (the licence's machine binding); read with systeminformation by default. */
  machineIdentity?: () => Promise<MachineIdentity>;
  /** FTP storage of database backups (issue 13 §2); absent: the FTP calls answer that it is not configured. */
  ftpStorage?: FtpStorage;
}

export interface App {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The routes that take files (multipart/form-data), as they were added. */
  multipartRoutes: readonly UploadRoute[];
  /** Every route that declares an action (plugins/auth.ts), as it was added: the API's route table. */
  actionRoutes: readonly ActionRoute[];
  /** The project gate: the project-scoped routes it guards, and a watch on what it lets through. */
  projectGate: ProjectGate;
  services: {
    auth: AuthService;
    settings: SettingsService;
    captcha: CaptchaService;
    licence: LicenceService;
    platformLicence: PlatformLicenceService;
    tenants: TenantService;
    projects: ProjectService;
    /** The task engine: the modules register their task types on it. */
    tasks: TaskEngine;
    /** FTP storage settings and the storage itself (issue 13 §2). */
    ftpSettings: FtpSettingsService;
    ftpStorage: ReturnType<typeof createFtpStorage>;
    /** Periodic database backups (issue 13 §3): `tick()` is the scheduler's look. */
    periodicBackups: CycleService;
    /** Project backups: `recover()` is what a start does with work a stopped server left. */
    backups: BackupService;
    /** Solution templates (issue 14). */
    templates: TemplateService;
  };
}

/**
 * Builds the server and only assembles it: the database, the logger and the cache-change bus; the
 * services (app/services.ts); who follows which change (app/changes.ts); what every request goes
 * through (app/http.ts); the start and stop order (app/lifecycle.ts); the routes (app/routes.ts).
 */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // The database opens before the logger exists; its later messages (restarts) go to the log.
  let databaseLog = (message: string) => console.warn(message);
  // Project sites served by their domain (issue 15 §2): the Host header picks the project, once the
  // sites' listeners exist (below).
  let hostRewrite = (request: IncomingMessage): string => request.url ?? '/';
  const database = options.database ?? (await openConfiguredDatabase(config, (message) => databaseLog(message)));

  // Prometheus metrics (GANTRY_METRICS_TOKEN): with the token unset none of them exists, no event
  // is counted, no request hook runs and prom-client is not even loaded (0.1 s of a start).
  const metrics: Metrics | undefined = config.metricsToken
    ? new (await import('./modules/metrics/metrics.js')).Metrics()
    : undefined;
  // The one error handler, also for what Fastify meets before any route (frameworkErrors).
  const answerError = errorAnswer(database, metrics && (() => metrics.statementTimeout()));

  const logStream = options.logger === false ? undefined : (options.logStream ?? logDestination());
  const app = Fastify({
    logger: logStream ? { ...loggerOptions(config.logLevel), stream: logStream } : false,
    // One line per request instead of Fastify's two; a request's own logger made only when used.
    logController: new RequestLog(logStream),
    childLoggerFactory: requestLogger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    rewriteUrl: (request) => hostRewrite(request),
    frameworkErrors: (error, request, reply) => answerFrameworkError(answerError, error, request, reply),
    schemaController: { compilersFactory: { buildValidator: noDefaultCompiler, buildSerializer: noDefaultCompiler } },
  });
  databaseLog = (message) => app.log.warn(message);
  if (metrics) database.embedded?.onStop((stop) => metrics.engineStopped(stop.reason));
  // Cached sessions, licence and settings hear of changes made by any server process on this database.
  const invalidation = await createInvalidationBus({
    engine: database.engine,
    url: config.databaseUrl,
    db: database.db,
    log: app.log,
  });
  app.addHook('onClose', () => invalidation.close());

  const services = buildServices({
    app,
    fileStore: await openFileStore(config),
    config,
    clock,
    database,
    invalidation,
    metrics,
    machineIdentity: options.machineIdentity,
    ftpStorage: options.ftpStorage,
  });
  followChanges(invalidation, services, app.log);
  hostRewrite = (request) => {
    const projectId = services.siteListeners.projectOfHost(request.headers.host);
    if (!projectId) return request.url ?? '/';
    ownOrigin.add(request);
    return siteAddress(projectId, request.url ?? '/');
  };
  const { multipartRoutes, actionRoutes } = await registerRequestPipeline(app, services, {
    config,
    clock,
    database,
    metrics,
    answerError,
  });
  registerLifecycle(app, services, {
    config,
    clock,
    database,
    databaseReady: options.databaseReady,
    closeDatabase: !options.database || options.closeDatabase === true,
  });
  await registerRoutes(app, services, { config, database });
  return {
    app,
    database,
    multipartRoutes,
    actionRoutes,
    projectGate: services.projectGate,
    services: exposed(services),
  };
}

/**
 * Fastify's default schema compilers (ajv, fast-json-stringify) are loaded when the app is made unless
 * factories are given (~0.1 s of a start), and none would be used: every route's schemas are zod,
 * compiled by the compilers app/http.ts sets before any route. Only a scope that added shared schemas
 * of its own (`addSchema`; none does) would ask for a factory.
 */
function noDefaultCompiler(): never {
  throw new Error('no default schema compiler: schemas are zod, compiled by the compilers app/http.ts sets');
}

/** The services tests and the process entry reach for. */
function exposed(services: Services): App['services'] {
  const { auth, settings, captcha, licence, platformLicence, tenants, projects, taskEngine } = services;
  const { ftpSettings, ftpStorage, periodicBackups, backups, templates } = services;
  return {
    auth,
    settings,
    captcha,
    licence,
    platformLicence,
    tenants,
    projects,
    tasks: taskEngine,
    ftpSettings,
    ftpStorage,
    periodicBackups,
    backups,
    templates,
  };
}
