import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { TEMPLATE_COLLECTIONS } from '@gantry/shared';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { apiTokenRoutes } from '../modules/api-tokens/api-token.routes.js';
import { auditRoutes } from '../modules/audit/audit.routes.js';
import { authRoutes, type ProfileExtras } from '../modules/auth/auth.routes.js';
import { backupRoutes } from '../modules/backups/backup.routes.js';
import { dashboardRoutes } from '../modules/dashboard/dashboard.routes.js';
import { cycleRoutes } from '../modules/db-backup-cycles/cycle.routes.js';
import { dbBackupRoutes } from '../modules/db-backups/db-backup.routes.js';
import { documentRoutes } from '../modules/documents/document.routes.js';
import { ftpSettingsRoutes } from '../modules/ftp/ftp-settings.routes.js';
import { guideRoutes } from '../modules/guide/guide.routes.js';
import { healthRoutes } from '../modules/health/health.routes.js';
import { licenceRoutes } from '../modules/licence/licence.routes.js';
import { LicenceHistoryService } from '../modules/licence/licence-history.service.js';
import { machineInfoRoutes } from '../modules/licence/machine-info.routes.js';
import type { Holding } from '../modules/licence/platform-licence.service.js';
import { mediaRoutes } from '../modules/media/media.routes.js';
import { platformBackupRoutes } from '../modules/platform-backup/platform-backup.routes.js';
import { projectRoutes } from '../modules/projects/project.routes.js';
import { regionRoutes } from '../modules/regions/region.routes.js';
import { retentionRoutes } from '../modules/retention/retention.routes.js';
import { settingsRoutes } from '../modules/settings/settings.routes.js';
import { siteRoutes } from '../modules/sites/site.routes.js';
import { ssoRoutes } from '../modules/sso/sso.routes.js';
import { tableRoutes } from '../modules/tables/table.routes.js';
import { taskRoutes } from '../modules/tasks/task.routes.js';
import { templateRoutes } from '../modules/templates/template.routes.js';
import { tenantRoutes } from '../modules/tenants/tenant.routes.js';
import { twoFactorRoutes } from '../modules/two-factor/two-factor.routes.js';
import { ImageService } from '../modules/uploads/image.service.js';
import { uploadRoutes } from '../modules/uploads/upload.routes.js';
import type { UserRow } from '../modules/users/user.repository.js';
import { varyOnAcceptEncoding } from '../plugins/compression.js';
import { rightsOf } from '../policy/policy.js';
import { API, PORTAL, SPM } from './prefixes.js';
import type { Services } from './services.js';
import '../plugins/types.js';

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

/** Every route group under its prefix, the API description, and the console's built files. */
export async function registerRoutes(
  app: FastifyInstance,
  services: Services,
  context: { config: Config; database: DatabaseHandle },
): Promise<void> {
  const { config, database } = context;
  const { sites, settings, media, tables, fileStore, auth, platformLicence, tenants, projects, templates } = services;
  const { licence, licenceHistory, dashboard, audit, documents, backups, dbBackups, periodicBackups } = services;
  const { retention, ftpSettings, taskService, progressHub, projectGate, platformBackups, storage } = services;
  const { sso } = services;
  await app.register(healthRoutes(database));
  await app.register(guideRoutes(settings));
  await app.register(
    siteRoutes({ sites, settings, media, tables, store: fileStore, loginRatePerMinute: config.loginRatePerMinute }),
  );
  // The same extras while the user row and its holding are the same (login/current/user reuses its answer).
  const extras = new WeakMap<UserRow, { holding: Holding; value: Awaited<ReturnType<ProfileExtras>> }>();
  await app.register(
    authRoutes(auth, config.loginRatePerMinute, async (user) => {
      const holding = await platformLicence.holding(user);
      const known = extras.get(user);
      if (known?.holding === holding) return known.value;
      const value = { ...holding, rights: rightsOf(user), evaluation: config.licenceEvaluation };
      extras.set(user, { holding, value });
      return value;
    }),
    { prefix: SPM },
  );
  await app.register(twoFactorRoutes(services.twoFactor, config.loginRatePerMinute), { prefix: SPM });
  await app.register(apiTokenRoutes(services.apiTokens), { prefix: SPM });
  await app.register(ssoRoutes(sso, config.loginRatePerMinute), { prefix: SPM });
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
  await app.register(tableRoutes(tables, services.tableShift), { prefix: SPM });
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
}
