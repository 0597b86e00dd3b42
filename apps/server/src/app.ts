import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifyWebsocket from '@fastify/websocket';
import { BACKUP_LIMITS, effectiveFeatures, TEMPLATE_COLLECTIONS } from '@gantry/shared';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { type Config, refusesDevelopmentLicences } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { vacuumChangedTables } from './db/maintenance.js';
import { AppError } from './lib/app-error.js';
import { configureArchiveLimits } from './lib/archive/archive-reader.js';
import { type Clock, systemClock } from './lib/clock.js';
import { DiskFileStore } from './lib/file-store.js';
import { createInvalidationBus } from './lib/invalidation-bus.js';
import { Storage } from './lib/storage.js';
import { Trash } from './lib/trash.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { AuditService } from './modules/audit/audit.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { CaptchaRepository } from './modules/auth/captcha.repository.js';
import { CaptchaService } from './modules/auth/captcha.service.js';
import { LoginAttemptRepository } from './modules/auth/login-attempt.repository.js';
import { PasswordHasher } from './modules/auth/password-hasher.js';
import { SessionRepository } from './modules/auth/session.repository.js';
import { SessionCache } from './modules/auth/session-cache.js';
import { BackupRepository } from './modules/backups/backup.repository.js';
import { backupRoutes } from './modules/backups/backup.routes.js';
import { BackupService } from './modules/backups/backup.service.js';
import { DashboardRepository } from './modules/dashboard/dashboard.repository.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { CycleRepository } from './modules/db-backup-cycles/cycle.repository.js';
import { cycleRoutes } from './modules/db-backup-cycles/cycle.routes.js';
import { CycleService } from './modules/db-backup-cycles/cycle.service.js';
import { DbBackupRepository, DumpSource } from './modules/db-backups/db-backup.repository.js';
import { dbBackupRoutes } from './modules/db-backups/db-backup.routes.js';
import { DbBackupService } from './modules/db-backups/db-backup.service.js';
import { ProjectMaintenance } from './modules/db-backups/maintenance.js';
import { DocumentRepository } from './modules/documents/document.repository.js';
import { documentRoutes } from './modules/documents/document.routes.js';
import { DocumentService } from './modules/documents/document.service.js';
import { FtpSettingsRepository } from './modules/ftp/ftp-settings.repository.js';
import { ftpSettingsRoutes } from './modules/ftp/ftp-settings.routes.js';
import { FtpSettingsService } from './modules/ftp/ftp-settings.service.js';
import type { FtpStorage } from './modules/ftp/ftp-storage.js';
import { createFtpStorage, reportingFtpFailures } from './modules/ftp/ftp-storage.js';
import { SecretBox } from './modules/ftp/secret-box.js';
import { guideRoutes } from './modules/guide/guide.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { LicenceRepository } from './modules/licence/licence.repository.js';
import { licenceRoutes } from './modules/licence/licence.routes.js';
import { LicenceService } from './modules/licence/licence.service.js';
import { LicenceHistoryRepository } from './modules/licence/licence-history.repository.js';
import { LicenceHistoryService } from './modules/licence/licence-history.service.js';
import { type MachineIdentity, readMachineIdentity } from './modules/licence/machine-identity.js';
import { machineInfoRoutes } from './modules/licence/machine-info.routes.js';
import { PlatformLicenceService } from './modules/licence/platform-licence.service.js';
import { trustedKeys } from './modules/licence/trusted-keys.js';
import { MediaRepository } from './modules/media/media.repository.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { MediaService } from './modules/media/media.service.js';
import { Metrics } from './modules/metrics/metrics.js';
import { MetricsRepository } from './modules/metrics/metrics.repository.js';
import { registerMetrics } from './modules/metrics/metrics.routes.js';
import { PlatformBackupRepository } from './modules/platform-backup/platform-backup.repository.js';
import {
  platformBackupRoutes,
  registerPlatformRestoreGuard,
} from './modules/platform-backup/platform-backup.routes.js';
import { PlatformBackupService } from './modules/platform-backup/platform-backup.service.js';
import { recoverPlatformRestore } from './modules/platform-backup/platform-backup-io.js';
import { ProjectRepository } from './modules/projects/project.repository.js';
import { projectRoutes } from './modules/projects/project.routes.js';
import { PROJECTS_AREA, ProjectService } from './modules/projects/project.service.js';
import { regionRoutes } from './modules/regions/region.routes.js';
import { RetentionRepository } from './modules/retention/retention.repository.js';
import { retentionRoutes } from './modules/retention/retention.routes.js';
import { RetentionService } from './modules/retention/retention.service.js';
import { SettingsRepository } from './modules/settings/settings.repository.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { checkCertificatePair } from './modules/sites/certificates.js';
import { SiteRepository } from './modules/sites/site.repository.js';
import { ownOrigin, siteRoutes } from './modules/sites/site.routes.js';
import { SiteService } from './modules/sites/site.service.js';
import { SiteListeners, siteAddress } from './modules/sites/site-listeners.js';
import { TableRepository } from './modules/tables/table.repository.js';
import { tableRoutes } from './modules/tables/table.routes.js';
import { TableService } from './modules/tables/table.service.js';
import { ProgressHub } from './modules/tasks/progress-hub.js';
import { TaskEngine } from './modules/tasks/task.engine.js';
import { TaskRepository } from './modules/tasks/task.repository.js';
import { taskRoutes } from './modules/tasks/task.routes.js';
import { TaskService } from './modules/tasks/task.service.js';
import { TemplateRepository } from './modules/templates/template.repository.js';
import { templateRoutes } from './modules/templates/template.routes.js';
import { TemplateService } from './modules/templates/template.service.js';
import { TenantRepository } from './modules/tenants/tenant.repository.js';
import { tenantRoutes } from './modules/tenants/tenant.routes.js';
import { TenantService } from './modules/tenants/tenant.service.js';
import { ImageService } from './modules/uploads/image.service.js';
import { uploadRoutes } from './modules/uploads/upload.routes.js';
import { UserRepository } from './modules/users/user.repository.js';
import { openConfiguredDatabase } from './open-database.js';
import { registerAuth } from './plugins/auth.js';
import { registerCompression, varyOnAcceptEncoding } from './plugins/compression.js';
import { answerFrameworkError, errorAnswer, registerErrorHandler } from './plugins/error-handler.js';
import { logDestination, loggerOptions, RequestLog } from './plugins/logging.js';
import { registerNoStore } from './plugins/no-store.js';
import { rejectNulCharacters } from './plugins/nul-characters.js';
import { PROJECT_HEADER, ProjectGate } from './plugins/project-gate.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerUnreadBody } from './plugins/unread-body.js';
import { registerUploadRoutes, type UploadRoute } from './plugins/upload-routes.js';
import { rightsOf } from './policy/policy.js';
import './plugins/types.js';

export const PORTAL = '/portal';
export const API = `${PORTAL}/rest`;
export const SPM = `${API}/spm`;
/** Long tasks (backups, restores, clean-ups) running side by side in one process. */
const TASK_CONCURRENCY = 2;
/** How often expired sessions, codes and old attempt counters are removed. */
const CLEAN_UP_MS = 10 * 60 * 1000;

export interface AppOptions {
  config: Config;
  /** An open database; when absent the app opens the one the config names and closes it with itself. */
  database?: DatabaseHandle;
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
 * Route groups that take files (multipart/form-data): the multipart plugin is registered for them
 * alone, since it adds two async hooks to every request of the scope it is in.
 */
const withFiles =
  (routes: FastifyPluginAsync): FastifyPluginAsync =>
  async (scope) => {
    await scope.register(fastifyMultipart);
    await scope.register(routes);
  };

/** Builds the server: repositories → services → routes, wired by hand so the graph is readable here. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  // The database opens before the logger exists; its later messages (restarts) go to the log.
  let databaseLog = (message: string) => console.warn(message);
  // Project sites served by their domain (issue 15 §2): the Host header picks the project (set below).
  let hostRewrite = (request: IncomingMessage): string => request.url ?? '/';
  const database = options.database ?? (await openConfiguredDatabase(config, (message) => databaseLog(message)));
  const { db } = database;

  // Prometheus metrics (GANTRY_METRICS_TOKEN): with the token unset none of them exists, no event
  // is counted and no request hook runs.
  const metricsToken = config.metricsToken;
  const metrics = metricsToken ? new Metrics() : undefined;
  // The one error handler, also for what Fastify meets before any route (frameworkErrors).
  const answerError = errorAnswer(database, metrics && (() => metrics.statementTimeout()));

  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions(config.logLevel), stream: options.logStream ?? logDestination() },
    // One line per request instead of Fastify's two.
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    rewriteUrl: (request) => hostRewrite(request),
    frameworkErrors: (error, request, reply) => answerFrameworkError(answerError, error, request, reply),
  });
  databaseLog = (message) => app.log.warn(message);
  if (metrics) database.embedded?.onStop((stop) => metrics.engineStopped(stop.reason));
  // Cached sessions, licence and settings hear of changes made by any server process on this database.
  const invalidation = await createInvalidationBus({
    engine: database.engine,
    url: config.databaseUrl,
    db,
    log: app.log,
  });
  app.addHook('onClose', () => invalidation.close());

  const settings = new SettingsService(new SettingsRepository(db, invalidation), app.log, invalidation);
  const captcha = new CaptchaService(new CaptchaRepository(db), clock);
  const hasher = new PasswordHasher(config.hashConcurrency, config.hashQueue);
  const auth = new AuthService({
    users: new UserRepository(db),
    sessions: new SessionRepository(db),
    attempts: new LoginAttemptRepository(db),
    captcha,
    settings,
    hasher,
    clock,
    bus: invalidation,
    sessionCache: new SessionCache(5_000, 10_000),
  });
  const storage = new Storage(config.dataDir);
  const licenceRepository = new LicenceRepository(db, invalidation);
  const auditRepository = new AuditRepository(db);
  const audit = new AuditService(auditRepository, clock);
  // FTP storage of database backups (issue 13 §2): the administrator's settings (the password sealed
  // under the key of stored secrets, opened on first use) and the storage that reads them.
  let secretBox: Promise<SecretBox> | undefined;
  const openSecrets = () => {
    secretBox ??= SecretBox.open({ configured: config.secretKey, dataDir: config.dataDir }).catch((error: unknown) => {
      secretBox = undefined;
      throw error;
    });
    return secretBox;
  };
  const ftpSettings = new FtpSettingsService({
    db,
    repo: new FtpSettingsRepository(db),
    audit,
    clock,
    secrets: openSecrets,
    log: app.log,
  });
  const ftpStorage = createFtpStorage({ settings: ftpSettings, log: app.log });
  const licenceHistory = new LicenceHistoryRepository(db);
  const platformLicence = new PlatformLicenceService({
    db,
    repo: licenceRepository,
    history: licenceHistory,
    audit,
    clock,
    trusted: trustedKeys(config.licencePublicKeys, config.env === 'production'),
    production: refusesDevelopmentLicences(config),
    machine: options.machineIdentity ?? readMachineIdentity,
    bus: invalidation,
  });
  const licence = new LicenceService(db, licenceRepository, clock, (record) => platformLicence.signedGrant(record));
  const projectRepository = new ProjectRepository(db, clock);
  const tenants = new TenantService({
    db,
    repo: new TenantRepository(db, projectRepository.counts),
    licence,
    platformLicence,
    audit,
    auth,
    clock,
  });
  // Project sites (issue 15): each project's own port, its domain on the main port.
  const siteRepository = new SiteRepository(db);
  const siteListeners = new SiteListeners(app, config.host, siteRepository, app.log, {
    httpsPort: config.sitesHttpsPort,
    readCertificate: (projectId, name) => storage.read(PROJECTS_AREA, `${projectId}/cert/${name}`),
  });
  invalidation.subscribe((change) => {
    const followed =
      change.kind === 'site'
        ? siteListeners.changed(change.projectId, false)
        : change.kind === 'all'
          ? siteListeners.resync()
          : undefined;
    if (change.kind === 'site') sites.forget(change.projectId);
    // A tenant disabled or enabled (its row): the front sites' cached project states go too.
    if (change.kind === 'all' || change.kind === 'user') sites.forgetAll();
    followed?.catch((error: unknown) => app.log.warn({ err: error }, 'project site listeners not updated'));
  });
  hostRewrite = (request) => {
    const projectId = siteListeners.projectOfHost(request.headers.host);
    if (!projectId) return request.url ?? '/';
    ownOrigin.add(request);
    return siteAddress(projectId, request.url ?? '/');
  };
  const projects = new ProjectService({
    db,
    repo: projectRepository,
    licence,
    platformLicence,
    audit,
    storage,
    clock,
    pagesInDatabase: database.engine === 'postgres',
    expand: async () => (await settings.get()).projectExpand,
    sitePorts: async () => (await settings.get()).sitePorts,
    sites: {
      claimPort: (projectId, port) => siteListeners.claimPort(projectId, port),
      changed: async (projectId) => {
        sites.forget(projectId);
        await siteListeners
          .changed(projectId)
          .catch((error: unknown) => app.log.warn({ err: error, projectId }, 'project site listeners not updated'));
        // The other server processes on this database follow too (their listeners, Host maps, certificates).
        await invalidation
          .publish({ kind: 'site', projectId })
          .catch((error: unknown) => app.log.warn({ err: error, projectId }, 'project site change not announced'));
      },
      checkCertificate: (key, pem) => {
        checkCertificatePair(key, pem, clock());
      },
    },
  });
  const dashboard = new DashboardService(new DashboardRepository(db), auditRepository, licence, (user) =>
    periodicBackups.failures(user),
  );
  const documentRepository = new DocumentRepository(db);
  const dbBackupRepository = new DbBackupRepository(db);
  const maintenance = new ProjectMaintenance(dbBackupRepository);
  // The one place a request's project is read, checked for the caller and put on the request.
  const projectGate = new ProjectGate({ projects: documentRepository, maintenance, now: () => clock().getTime() });
  const documents = new DocumentService(documentRepository, clock);
  const tables = new TableService(
    new TableRepository(db, database.engine),
    documents,
    clock,
    (error, message) => app.log.warn({ err: error }, message),
    invalidation,
  );
  // Cached project owners and table definitions hear of changes made by any process.
  invalidation.subscribe((change) => {
    projectGate.apply(change);
    tables.apply(change);
  });
  const fileStore = new DiskFileStore(config.dataDir);
  const media = new MediaService(fileStore, new MediaRepository(db), settings, config.mediaFileMaxBytes);
  // Project sites (issue 15): front sites, back offices and their own sessions.
  const sites = new SiteService({
    db,
    repo: siteRepository,
    attempts: new LoginAttemptRepository(db),
    captcha,
    settings,
    hasher,
    clock,
    ssoAllowed: async (project) => effectiveFeatures(project.grant?.features).has('Oauth'),
  });
  const taskRepository = new TaskRepository(db);
  const taskEngine = new TaskEngine(taskRepository, clock, {
    concurrency: TASK_CONCURRENCY,
    pollMs: 2_000,
    reportMs: 500,
    staleMs: 30_000,
    onlyProcess: database.engine === 'pglite',
    log: app.log,
  });
  if (metrics) taskEngine.onFinish((finish) => metrics.taskFinished(finish.type, finish.status, finish.seconds));
  const taskService = new TaskService(taskRepository, taskEngine);
  const backupRepository = new BackupRepository(
    db,
    database.background,
    invalidation,
    database.copyOut,
    config.ownPartitionMinDocuments,
  );
  configureArchiveLimits({
    expandedBytesMax: config.archiveExpandedMaxBytes,
    diskReserveBytes: BACKUP_LIMITS.diskReserveBytes,
  });
  const backups = new BackupService(backupRepository, documentRepository, fileStore, taskEngine, clock, {
    dataDir: config.dataDir,
    uploadMaxBytes: config.backupUploadMaxBytes,
    safetyKeep: config.safetyBackupsKeep,
    onlyProcess: database.engine === 'pglite',
    metrics: metrics?.archives,
  });
  const templates = new TemplateService({
    repo: new TemplateRepository(db, invalidation),
    backupRepo: backupRepository,
    projectRepo: projectRepository,
    projects,
    backups,
    store: fileStore,
    storage,
    tasks: taskEngine,
    clock,
    dataDir: config.dataDir,
  });
  const dbBackupFtp = options.ftpStorage ?? ftpStorage;
  const dbBackups = new DbBackupService({
    repo: dbBackupRepository,
    source: new DumpSource(db, database.background, dbBackupRepository, database.copyOut),
    backupRepo: backupRepository,
    backups,
    store: fileStore,
    tasks: taskEngine,
    taskRepo: taskRepository,
    maintenance,
    clock,
    ftp: metrics
      ? reportingFtpFailures(dbBackupFtp, (operation, failure) => metrics.ftpFailure(operation, failure))
      : dbBackupFtp,
    dataDir: config.dataDir,
    onlyProcess: database.engine === 'pglite',
    metrics: metrics?.archives,
  });
  const periodicBackups = new CycleService({
    db,
    repo: new CycleRepository(db),
    dbBackups,
    audit,
    clock,
    language: async () => (await settings.get()).language,
    log: app.log,
  });
  const progressHub = new ProgressHub(taskRepository, clock);
  // Task rows written here reach the progress channel at once, not at its next tick.
  taskEngine.onChange(() => progressHub.nudge());
  const retention = new RetentionService(
    new RetentionRepository(database.background),
    taskRepository,
    taskEngine,
    settings,
    clock,
    config.retentionPauseMs,
  );

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, answerError);
  // An answer given before its request's body was read leaves the connection usable (or closes it).
  registerUnreadBody(app);
  // Every route that takes files, from the route table: its declared limits checked before its body is read.
  const multipartRoutes = registerUploadRoutes(app);
  registerAuth(app, auth, API);
  // Answers of a session's calls (and those that carry a token) are never cached.
  registerNoStore(app, API);
  if (metrics && metricsToken) {
    const metricsRepository = new MetricsRepository(db);
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
  // Every project-scoped route through the project gate (after the session and the NUL check):
  // another tenant's project 404, a disabled one read-only, a restoring one 423.
  projectGate.register(app);
  const cleanUp = setInterval(() => {
    auth.cleanUp().catch((error: unknown) => app.log.warn({ err: error }, 'clean-up failed'));
    sites.cleanUp().catch((error: unknown) => app.log.warn({ err: error }, 'site clean-up failed'));
    if (database.engine === 'pglite') {
      vacuumChangedTables(database.background).catch((error: unknown) => app.log.warn({ err: error }, 'vacuum failed'));
    }
  }, CLEAN_UP_MS);
  cleanUp.unref();
  app.addHook('onClose', async () => clearInterval(cleanUp));
  if (!options.database || options.closeDatabase) app.addHook('onClose', () => database.close());
  const platformRepository = new PlatformBackupRepository();
  const platformBackups = new PlatformBackupService({
    db: database.background,
    dataDir: config.dataDir,
    engine: database.engine,
    repo: platformRepository,
    tasks: taskEngine,
    bus: invalidation,
    audit,
    clock,
    users: new UserRepository(db),
    verifyPassword: (userId, password) => auth.verifyPassword(userId, password),
    log: app.log,
  });
  // While a platform restore replaces the database, every API call but its status waits it out (503).
  registerPlatformRestoreGuard(app, platformBackups, API);
  // onClose hooks run last-registered first: the tasks stop (and record why) before the database closes.
  app.addHook('onReady', async () => {
    // A platform restore a stopped process left: its files put in place if its data committed, else dropped.
    await recoverPlatformRestore({ db: database.background, dataDir: config.dataDir, repo: platformRepository }).then(
      (done) => done !== 'none' && app.log.warn({ done }, 'a platform restore a stopped server left'),
      (error: unknown) => app.log.warn({ err: error }, 'platform restore recovery failed'),
    );
    await taskEngine.start();
    // Restores a stopped server left are finished or dropped (after the engine failed its orphans).
    await dbBackups.recover().then(
      (removed) => removed > 0 && app.log.warn({ removed }, 'removed database backup files a stopped server left'),
      (error: unknown) => app.log.warn({ err: error }, 'database backup recovery failed'),
    );
    await backups.recover().then(
      (recovered) =>
        (recovered.finished || recovered.dropped || recovered.partials) &&
        app.log.warn(recovered, 'finished or dropped backup work a stopped server left'),
      (error: unknown) => app.log.warn({ err: error }, 'backup recovery failed'),
    );
    // Projects of template installs a stopped server left half made are removed.
    await templates.recover().then(
      (removed) => removed > 0 && app.log.warn({ removed }, 'removed projects of unfinished template installs'),
      (error: unknown) => app.log.warn({ err: error }, 'template install recovery failed'),
    );
    retention.schedule();
    // Projects with a port are listened on; a port that cannot be is logged, never fatal.
    await siteListeners
      .start()
      .catch((error: unknown) => app.log.warn({ err: error }, 'project site listeners failed'));
    // Periodic database backups: a look now (a run missed while no server ran), then every 15 s.
    periodicBackups.schedule();
    // Temporary files of uploads a killed server left behind: removed in the background.
    media.sweepTemporary(clock()).then(
      (removed) => removed > 0 && app.log.info({ removed }, 'removed temporary upload files of stopped uploads'),
      (error: unknown) => app.log.warn({ err: error }, 'sweeping temporary upload files failed'),
    );
  });
  // What restores left (the recovery above only decided and moved it into the trash, renames): removed
  // in the background once the server listens, a few files at a time; a kill leaves the rest to the
  // next start. Never awaited: a start never waits for it.
  const trash = new Trash(config.dataDir, app.log);
  app.addHook('onListen', async () => {
    void trash.empty();
  });
  // A restore whose data committed while its files were being swapped in, in a process that then died:
  // finished here (on PostgreSQL once that process's task is failed as stale); the trash emptied of
  // what restores since put in it.
  const restoreRecovery = setInterval(() => {
    void Promise.all([
      backups.recover().catch((error: unknown) => app.log.warn({ err: error }, 'backup recovery failed')),
      dbBackups.recover().catch((error: unknown) => app.log.warn({ err: error }, 'database backup recovery failed')),
    ]).then(() => trash.empty());
  }, 60_000);
  restoreRecovery.unref();
  app.addHook('onClose', async () => {
    clearInterval(restoreRecovery);
    await trash.stop();
    await siteListeners.close();
    progressHub.close();
    retention.stop();
    periodicBackups.stop();
    await taskEngine.stop();
  });

  await app.register(fastifyCors, {
    // Cross-origin access follows the enableCors setting at run time.
    origin: (origin, callback) => {
      // No Origin header (same-origin calls, probes, API clients): nothing to decide, and no
      // reason to wait for the settings (a busy database must not hold up /healthz).
      if (!origin) return callback(null, false);
      settings.get().then(
        (s) => callback(null, s.enableCors),
        // Settings unreadable: no cross-origin access, and the request itself goes on to its answer.
        () => callback(null, false),
      );
    },
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', PROJECT_HEADER],
    exposedHeaders: ['count', 'count-estimated', 'next-cursor', 'Content-Disposition', 'ftp-configured'],
    maxAge: 600,
  });
  await registerSecurityHeaders(app);
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

  await app.register(healthRoutes(database));
  await app.register(guideRoutes(settings));
  await app.register(
    siteRoutes({ sites, settings, media, tables, store: fileStore, loginRatePerMinute: config.loginRatePerMinute }),
  );
  await app.register(
    authRoutes(auth, config.loginRatePerMinute, async (user) => ({
      ...(await platformLicence.holding(user)),
      rights: rightsOf(user),
      evaluation: config.licenceEvaluation,
    })),
    { prefix: SPM },
  );
  await app.register(settingsRoutes(settings), { prefix: SPM });
  await app.register(withFiles(uploadRoutes(new ImageService(storage), SPM)), { prefix: SPM });
  await app.register(tenantRoutes(tenants, config.loginRatePerMinute), { prefix: SPM });
  await app.register(
    withFiles(
      projectRoutes(projects, (actor, body, language) =>
        templates.createProject(
          actor,
          { ...body, type: body.type ?? '', collections: [...TEMPLATE_COLLECTIONS] },
          language,
        ),
      ),
    ),
    { prefix: SPM },
  );
  await app.register(withFiles(licenceRoutes(licence, platformLicence)), { prefix: API });
  await app.register(machineInfoRoutes(new LicenceHistoryService(licenceHistory)), { prefix: API });
  await app.register(dashboardRoutes(dashboard), { prefix: SPM });
  await app.register(auditRoutes(audit), { prefix: SPM });
  await app.register(
    documentRoutes(documents, (projectId) => media.projectFileBytes(projectId)),
    { prefix: API },
  );
  await app.register(tableRoutes(tables), { prefix: SPM });
  await app.register(regionRoutes(), { prefix: SPM });
  await app.register(withFiles(mediaRoutes(media)), { prefix: SPM });
  await app.register(withFiles(backupRoutes(backups)), { prefix: SPM });
  await app.register(withFiles(dbBackupRoutes(dbBackups)), { prefix: API });
  await app.register(cycleRoutes(periodicBackups), { prefix: API });
  await app.register(retentionRoutes(retention), { prefix: SPM });
  await app.register(withFiles(templateRoutes(templates)), { prefix: SPM });
  await app.register(ftpSettingsRoutes(ftpSettings), { prefix: API });
  await app.register(taskRoutes({ tasks: taskService, hub: progressHub, auth, gate: projectGate }), {
    prefix: SPM,
  });
  app.get(`${API}/openapi.json`, { config: { action: 'public' }, schema: { hide: true } }, async () => app.swagger());

  app.get('/', (_request, reply) => reply.redirect(`${PORTAL}/`));
  app.get(PORTAL, (_request, reply) => reply.redirect(`${PORTAL}/`));
  if (existsSync(path.join(config.consoleDir, 'index.html'))) {
    await app.register(async (files) => {
      varyOnAcceptEncoding(files);
      await files.register(fastifyStatic, {
        root: config.consoleDir,
        prefix: `${PORTAL}/`,
        cacheControl: false,
        // The build writes .br and .gz beside each text file (apps/console/vite.config.ts): sent as they are.
        preCompressed: true,
        // Built assets carry a content hash in their name; index.html must be asked for each time,
        // or an upgraded server would be sent to old asset names.
        setHeaders: (res, filePath) =>
          res.setHeader(
            'cache-control',
            /[\\/]assets[\\/]/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
          ),
      });
    });
  }

  await app.register(withFiles(platformBackupRoutes(platformBackups)), { prefix: API });
  return {
    app,
    database,
    multipartRoutes,
    projectGate,
    services: {
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
    },
  };
}
