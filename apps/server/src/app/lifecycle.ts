import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { type Database, type DatabaseHandle, queryRows } from '../db/database.js';
import { vacuumChangedTables } from '../db/vacuum.js';
import type { Clock } from '../lib/clock.js';
import { Trash } from '../lib/trash.js';
import { recoverPlatformRestore } from '../modules/platform-backup/platform-backup-io.js';
import type { Services } from './services.js';

/** Sessions, captchas and site sessions that expired: removed this often (and tables vacuumed on PGlite). */
const CLEAN_UP_MS = 10 * 60 * 1000;
/** Restores a dead process left half swapped: looked for this often (and the trash emptied). */
const RESTORE_RECOVERY_MS = 60_000;

/**
 * Whether a stopped process may have left work in the database for the `modules`' recovery (a
 * running task, a restore's rows or tables, a failed install's project): one statement, where their
 * checks ran eight one after another on every start, the critical path once the engine is ready.
 */
export async function leftInDatabase(db: Database, modules: Array<{ leftOver(): SQL }>): Promise<boolean> {
  const conditions = modules.map((module) => module.leftOver());
  const [row] = await queryRows<{ left: boolean }>(db, sql`select (${sql.join(conditions, sql` or `)}) as "left"`);
  return row?.left !== false;
}

/**
 * The server's start and stop, in order, in one place. Before listen (`onReady`, or from the moment
 * the database is ready when the app is built while it starts): what a stopped process left is
 * decided (a platform restore, orphaned tasks, restores' journals, template installs); then (`onReady`)
 * the scheduled work starts. After listen: the trash of restores is emptied in the
 * background, never awaited. On close (hooks run last-registered first): the scheduled work and the
 * tasks stop, then the database closes.
 */
export function registerLifecycle(
  app: FastifyInstance,
  services: Services,
  context: {
    config: Config;
    clock: Clock;
    database: DatabaseHandle;
    /** Set while `database` still starts (its engine, migrations). */
    databaseReady?: Promise<void> | undefined;
    closeDatabase: boolean;
  },
): void {
  const { config, clock, database } = context;
  const { auth, sites, media, taskEngine, backups, dbBackups, templates, retention, siteListeners } = services;
  const { periodicBackups, progressHub, platformRepository, twoFactor, apiTokens, sso, fileStore } = services;
  const warn = (message: string) => (error: unknown) => app.log.warn({ err: error }, message);

  const cleanUp = setInterval(() => {
    auth.cleanUp().catch(warn('clean-up failed'));
    twoFactor.cleanUp().catch(warn('pending sign-in clean-up failed'));
    apiTokens.cleanUp().catch(warn('API token clean-up failed'));
    sites.cleanUp().catch(warn('site clean-up failed'));
    sso.cleanUp().catch(warn('single sign-on clean-up failed'));
    if (database.engine === 'pglite') vacuumChangedTables(database.background).catch(warn('vacuum failed'));
  }, CLEAN_UP_MS);
  cleanUp.unref();
  app.addHook('onClose', async () => clearInterval(cleanUp));
  if (context.closeDatabase) app.addHook('onClose', () => database.close());

  /** What a stopped process left is decided, in this order. */
  const recover = async () => {
    const inDatabase = await leftInDatabase(database.background, [taskEngine, backups, templates]).catch(
      (error: unknown) => {
        warn('recovery check failed')(error);
        return true;
      },
    );
    // A platform restore a stopped process left: its files put in place if its data committed, else dropped.
    await recoverPlatformRestore({
      db: database.background,
      dataDir: config.dataDir,
      repo: platformRepository,
      store: config.s3 ? fileStore : undefined,
    }).then(
      (done) => done !== 'none' && app.log.warn({ done }, 'a platform restore a stopped server left'),
      warn('platform restore recovery failed'),
    );
    await taskEngine.start({ ongoing: inDatabase });
    // Restores a stopped server left are finished or dropped (after the engine failed its orphans).
    await dbBackups
      .recover()
      .then(
        (removed) => removed > 0 && app.log.warn({ removed }, 'removed database backup files a stopped server left'),
        warn('database backup recovery failed'),
      );
    await backups
      .recover({ inDatabase })
      .then(
        (recovered) =>
          (recovered.finished || recovered.dropped || recovered.partials) &&
          app.log.warn(recovered, 'finished or dropped backup work a stopped server left'),
        warn('backup recovery failed'),
      );
    // Projects of template installs a stopped server left half made are removed.
    await templates
      .recover({ inDatabase })
      .then(
        (removed) => removed > 0 && app.log.warn({ removed }, 'removed projects of unfinished template installs'),
        warn('template install recovery failed'),
      );
  };
  // A start (main.ts) builds the app while its database starts: the recovery's statements then run as
  // soon as the database is ready, while the routes are registered (the engine works while this
  // process does), and onReady waits for them. Without it (tests) they run at onReady.
  const recovering = context.databaseReady?.then(recover);
  recovering?.catch(() => undefined); // awaited by onReady; not an unhandled rejection meanwhile

  app.addHook('onReady', async () => {
    await (recovering ?? recover());
    retention.schedule();
    // Projects with a port are listened on; a port that cannot be is logged, never fatal.
    await siteListeners.start().catch(warn('project site listeners failed'));
    // Periodic database backups: a look now (a run missed while no server ran), then every 15 s.
    periodicBackups.schedule();
    // Temporary files of uploads a killed server left behind: removed in the background.
    media
      .sweepTemporary(clock())
      .then(
        (removed) => removed > 0 && app.log.info({ removed }, 'removed temporary upload files of stopped uploads'),
        warn('sweeping temporary upload files failed'),
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
      backups.recover().catch(warn('backup recovery failed')),
      dbBackups.recover().catch(warn('database backup recovery failed')),
    ]).then(() => trash.empty());
  }, RESTORE_RECOVERY_MS);
  restoreRecovery.unref();
  app.addHook('onClose', async () => {
    // Stopped during the start: the recovery under way finishes before the tasks and the database stop.
    await recovering?.catch(() => undefined);
    clearInterval(restoreRecovery);
    await trash.stop();
    await siteListeners.close();
    progressHub.close();
    retention.stop();
    periodicBackups.stop();
    await taskEngine.stop();
  });
}
