import { BACKUP_LIMITS, effectiveFeatures } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import { type Config, refusesDevelopmentLicences } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { configureArchiveLimits } from '../lib/archive/archive-reader.js';
import type { Clock } from '../lib/clock.js';
import type { FileStore } from '../lib/file-store.js';
import type { InvalidationBus } from '../lib/invalidation-bus.js';
import { Storage } from '../lib/storage.js';
import { ApiTokenRepository } from '../modules/api-tokens/api-token.repository.js';
import { ApiTokenService } from '../modules/api-tokens/api-token.service.js';
import { AuditRepository } from '../modules/audit/audit.repository.js';
import { AuditService } from '../modules/audit/audit.service.js';
import { AuthService } from '../modules/auth/auth.service.js';
import { CaptchaRepository } from '../modules/auth/captcha.repository.js';
import { CaptchaService } from '../modules/auth/captcha.service.js';
import { LoginAttemptRepository } from '../modules/auth/login-attempt.repository.js';
import { PasswordHasher } from '../modules/auth/password-hasher.js';
import { SessionRepository } from '../modules/auth/session.repository.js';
import { SessionCache } from '../modules/auth/session-cache.js';
import { BackupRepository } from '../modules/backups/backup.repository.js';
import { BackupService } from '../modules/backups/backup.service.js';
import { DashboardRepository } from '../modules/dashboard/dashboard.repository.js';
import { DashboardService } from '../modules/dashboard/dashboard.service.js';
import { CycleRepository } from '../modules/db-backup-cycles/cycle.repository.js';
import { CycleService } from '../modules/db-backup-cycles/cycle.service.js';
import { DbBackupRepository, DumpSource } from '../modules/db-backups/db-backup.repository.js';
import { DbBackupService } from '../modules/db-backups/db-backup.service.js';
import { RestoringProjects } from '../modules/db-backups/restore-guard.js';
import { DocumentRepository } from '../modules/documents/document.repository.js';
import { DocumentService } from '../modules/documents/document.service.js';
import { FtpSettingsRepository } from '../modules/ftp/ftp-settings.repository.js';
import { FtpSettingsService } from '../modules/ftp/ftp-settings.service.js';
import type { FtpStorage } from '../modules/ftp/ftp-storage.js';
import { createFtpStorage, reportingFtpFailures } from '../modules/ftp/ftp-storage.js';
import { SecretBox } from '../modules/ftp/secret-box.js';
import { LicenceRepository } from '../modules/licence/licence.repository.js';
import { LicenceService } from '../modules/licence/licence.service.js';
import { LicenceHistoryRepository } from '../modules/licence/licence-history.repository.js';
import { type MachineIdentity, readMachineIdentity } from '../modules/licence/machine-identity.js';
import { PlatformLicenceService } from '../modules/licence/platform-licence.service.js';
import { trustedKeys } from '../modules/licence/trusted-keys.js';
import { MediaRepository } from '../modules/media/media.repository.js';
import { MediaService } from '../modules/media/media.service.js';
import type { Metrics } from '../modules/metrics/metrics.js';
import { PlatformBackupRepository } from '../modules/platform-backup/platform-backup.repository.js';
import { PlatformBackupService } from '../modules/platform-backup/platform-backup.service.js';
import { ProjectRepository } from '../modules/projects/project.repository.js';
import { PROJECTS_AREA, ProjectService } from '../modules/projects/project.service.js';
import { RetentionRepository } from '../modules/retention/retention.repository.js';
import { RetentionService } from '../modules/retention/retention.service.js';
import { SettingsRepository } from '../modules/settings/settings.repository.js';
import { SettingsService } from '../modules/settings/settings.service.js';
import { checkCertificatePair } from '../modules/sites/certificates.js';
import { SiteRepository } from '../modules/sites/site.repository.js';
import { SiteService } from '../modules/sites/site.service.js';
import { SiteListeners } from '../modules/sites/site-listeners.js';
import { OidcRelyingParty } from '../modules/sso/oidc-relying-party.js';
import { SsoRepository } from '../modules/sso/sso.repository.js';
import { passwordLoginAllowed, SsoService } from '../modules/sso/sso.service.js';
import { TableRepository } from '../modules/tables/table.repository.js';
import { TableService } from '../modules/tables/table.service.js';
import { TableShift } from '../modules/tables/table-shift.js';
import { ProgressHub } from '../modules/tasks/progress-hub.js';
import { TaskEngine } from '../modules/tasks/task.engine.js';
import { TaskRepository } from '../modules/tasks/task.repository.js';
import { TaskService } from '../modules/tasks/task.service.js';
import { TemplateRepository } from '../modules/templates/template.repository.js';
import { TemplateService } from '../modules/templates/template.service.js';
import { TenantRepository } from '../modules/tenants/tenant.repository.js';
import { TenantService } from '../modules/tenants/tenant.service.js';
import { TwoFactorRepository } from '../modules/two-factor/two-factor.repository.js';
import { TwoFactorService } from '../modules/two-factor/two-factor.service.js';
import { UserRepository } from '../modules/users/user.repository.js';
import { ProjectGate } from '../plugins/project-gate.js';
import '../plugins/types.js';

const TASK_CONCURRENCY = 2;

/** What the services are built from: the server (its logger), the configuration, the open database. */
export interface ServiceContext {
  app: FastifyInstance;
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  invalidation: InvalidationBus;
  metrics: Metrics | undefined;
  machineIdentity?: (() => Promise<MachineIdentity>) | undefined;
  ftpStorage?: FtpStorage | undefined;
  /** Project files (media, html, archives, certificates, images): `lib/open-file-store.ts`. */
  fileStore: FileStore;
}

/**
 * Repositories → services, wired by hand in dependency order (nothing is used before it is made), so
 * the graph reads from top to bottom.
 */
export function buildServices(context: ServiceContext) {
  const { app, config, clock, database, invalidation, metrics, fileStore } = context;
  const { db } = database;
  const settings = new SettingsService(new SettingsRepository(db, invalidation), app.log, invalidation);
  const captcha = new CaptchaService(new CaptchaRepository(db), clock);
  const hasher = new PasswordHasher(config.hashConcurrency, config.hashQueue);
  const ssoRepository = new SsoRepository(db);
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
    passwordLoginAllowed: (user) => passwordLoginAllowed(ssoRepository, user),
  });
  const storage = new Storage(config.dataDir, config.s3 ? fileStore : undefined);
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
  // Two-factor sign-in (issue 34 §2): its secrets sealed under the same key as the FTP password.
  const twoFactor = new TwoFactorService({
    db,
    repo: new TwoFactorRepository(db),
    auth,
    audit,
    settings,
    secrets: openSecrets,
    clock,
  });
  auth.useSecondFactor(twoFactor);
  // API tokens (issue 34 §3): the session lookup asks them of `gty_` tokens.
  const apiTokens = new ApiTokenService({ db, repo: new ApiTokenRepository(db), audit, clock });
  auth.useApiTokens(apiTokens);
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
    machine: context.machineIdentity ?? readMachineIdentity,
    ...(config.licenceBinding === 'platform' ? { platformId: () => licenceRepository.platformId() } : {}),
    bus: invalidation,
  });
  const licence = new LicenceService(db, licenceRepository, clock, (record) => platformLicence.signedGrant(record));
  const projectRepository = new ProjectRepository(db, clock);
  const tenantRepository = new TenantRepository(db, projectRepository.counts);
  // Single sign-on (issue 34 §1): the client secret sealed like the FTP password.
  const sso = new SsoService({
    db,
    repo: ssoRepository,
    users: new UserRepository(db),
    tenants: tenantRepository,
    auth,
    audit,
    rp: new OidcRelyingParty(),
    clock,
    secrets: openSecrets,
    log: app.log,
  });
  const tenants = new TenantService({
    db,
    repo: tenantRepository,
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
  const projects = new ProjectService({
    db,
    repo: projectRepository,
    licence,
    platformLicence,
    audit,
    storage,
    store: fileStore,
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
  const documentRepository = new DocumentRepository(db);
  const dbBackupRepository = new DbBackupRepository(db);
  const restoringProjects = new RestoringProjects(dbBackupRepository);
  // The one place a request's project is read, checked for the caller and put on the request.
  const projectGate = new ProjectGate({
    projects: documentRepository,
    restoringProjects,
    now: () => clock().getTime(),
  });
  const documents = new DocumentService(documentRepository, clock);
  const tableRepository = new TableRepository(db, database.engine);
  const tables = new TableService(
    tableRepository,
    documents,
    clock,
    (error, message) => app.log.warn({ err: error }, message),
    invalidation,
  );
  // Shift table: the target project through the project gate as a write call (404, 409, 423).
  const tableShift = new TableShift({
    repo: tableRepository,
    tables,
    audit,
    resolve: async (actor, projectId) => {
      const project = await projectGate.resolve(actor.user, projectId, 'write');
      await restoringProjects.assertOpen(projectId);
      return project;
    },
  });
  const media = new MediaService(fileStore, new MediaRepository(db), settings, config.mediaFileMaxBytes);
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
    database,
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
    archivesInStore: config.s3 !== undefined,
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
    shelf: config.s3 ? fileStore : undefined,
  });
  const dbBackupFtp = context.ftpStorage ?? ftpStorage;
  const dbBackups = new DbBackupService({
    repo: dbBackupRepository,
    source: new DumpSource(db, database.background, dbBackupRepository, database.copyOut),
    backupRepo: backupRepository,
    backups,
    store: fileStore,
    tasks: taskEngine,
    taskRepo: taskRepository,
    restoringProjects,
    clock,
    ftp: metrics
      ? reportingFtpFailures(dbBackupFtp, (operation, failure) => metrics.ftpFailure(operation, failure))
      : dbBackupFtp,
    dataDir: config.dataDir,
    onlyProcess: database.engine === 'pglite',
    metrics: metrics?.archives,
    archivesInStore: config.s3 !== undefined,
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
  const dashboard = new DashboardService(new DashboardRepository(db), auditRepository, licence, (user) =>
    periodicBackups.failures(user),
  );
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
    store: config.s3 ? fileStore : undefined,
  });

  return {
    settings,
    captcha,
    auth,
    twoFactor,
    apiTokens,
    storage,
    audit,
    ftpSettings,
    ftpStorage,
    sso,
    licenceHistory,
    platformLicence,
    licence,
    tenants,
    siteListeners,
    sites,
    projects,
    documentRepository,
    projectGate,
    documents,
    tables,
    tableShift,
    fileStore,
    media,
    taskEngine,
    taskService,
    backups,
    templates,
    dbBackups,
    periodicBackups,
    dashboard,
    progressHub,
    retention,
    platformRepository,
    platformBackups,
  };
}

export type Services = ReturnType<typeof buildServices>;
