import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { translate } from '@gantry/shared';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { ArchiveProblem } from '../lib/archive/archive-problem.js';
import type { FileStore } from '../lib/file-store.js';
import { S3FileStore, s3LocationOf } from '../lib/s3-file-store.js';
import { PlatformBackupRepository } from '../modules/platform-backup/platform-backup.repository.js';
import {
  PlatformRestoreRefused,
  restorePlatformBackup,
  safetyBackupFile,
  writePlatformBackup,
} from '../modules/platform-backup/platform-backup-io.js';
import { openConfiguredDatabase } from '../open-database.js';

const USAGE = `Backs up or restores the whole platform: settings, users, tenants, projects, the licence, the
audit log, every project's data and files (issue 13 §4). Uses the server's database (GANTRY_DATA_DIR,
or DATABASE_URL for PostgreSQL); with the embedded engine, stop the server first.

  npm run backup -- platform --out FILE
      Writes the platform to FILE (a zip: tables/*.jsonl, files/…, manifest.json with every entry's
      SHA-256). On PostgreSQL the server may keep running: the tables are read in one snapshot.

  npm run restore -- platform FILE [--yes] [--no-safety-backup]
      Replaces the whole platform with FILE, after verifying all of it. A safety backup of the current
      platform is written first to <data directory>/platform-backups/. Stop the server first. Everyone
      signs in again afterwards. Asks for confirmation unless --yes.

Moving from the embedded engine to PostgreSQL: back up with the server on the embedded engine, then
restore with DATABASE_URL set to the new database (see README.md). Moving the files from the data
directory to object storage (or back) is the same: back up with the old GANTRY_STORAGE, restore with
the new one (GANTRY_STORAGE=s3 and GANTRY_S3_*): the files go into the store configured now.`;

class UsageError extends Error {}

/**
 * GANTRY_STORAGE=s3: the object store whose files the platform's are (undefined: the data
 * directory's), and what lets the process end after (the client's connections closed).
 */
function configuredStore(config: Config): { store: FileStore | undefined; close(): void } {
  if (!config.s3) return { store: undefined, close() {} };
  const location = s3LocationOf(config.s3);
  return { store: new S3FileStore(location), close: () => location.client.destroy() };
}

function describe(error: unknown): string {
  if (error instanceof ArchiveProblem)
    return `The archive is refused: ${translate(error.messageKey, 'en', error.params)}.`;
  if (error instanceof ConfigError || error instanceof PlatformRestoreRefused || error instanceof UsageError)
    return error.message;
  if (error instanceof Error && /lock|already (?:in use|running)/i.test(error.message)) {
    return `${error.message}\nIs the server running on this data directory? Stop it first.`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question(question)).trim() === 'restore';
  } finally {
    prompt.close();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      yes: { type: 'boolean', default: false },
      'no-safety-backup': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, what, file] = positionals;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if ((command !== 'backup' && command !== 'restore') || what !== 'platform') throw new UsageError(USAGE);
  const config = loadConfig();
  const log = (line: string) => console.log(`  ${line}`);
  if (command === 'backup') {
    if (!values.out) throw new UsageError('Name the archive to write: npm run backup -- platform --out FILE');
    const out = path.resolve(values.out);
    if (existsSync(out)) throw new UsageError(`${out} exists already: name a new file.`);
    const database = await openConfiguredDatabase(config, (message) => console.warn(message));
    const files = configuredStore(config);
    try {
      const deps = platformDeps(database, config.dataDir, log, files.store);
      const summary = await writePlatformBackup(deps, out);
      const rows = Object.values(summary.tables).reduce((sum, table) => sum + table.rows, 0);
      console.log(
        `Platform backup written: ${out} (${(summary.bytes / 1024 ** 2).toFixed(1)} MB; ${rows.toLocaleString('en')} rows in ${Object.keys(summary.tables).length} tables, ${summary.files.toLocaleString('en')} files)`,
      );
    } finally {
      files.close();
      await database.close();
    }
    return;
  }

  if (!file) throw new UsageError('Name the archive to restore: npm run restore -- platform FILE');
  const archive = path.resolve(file);
  if (!existsSync(archive)) throw new UsageError(`${archive} does not exist.`);
  const target = config.databaseUrl
    ? 'the PostgreSQL database of DATABASE_URL'
    : `the embedded database in ${config.dataDir}`;
  const filesIn = config.s3
    ? `the files of object storage (bucket ${config.s3.bucket}${config.s3.prefix ? `, prefix ${config.s3.prefix}` : ''})`
    : `the files of ${config.dataDir}`;
  if (
    !values.yes &&
    !(await confirm(
      `This replaces the whole platform in ${target} and ${filesIn} with ${archive}.\nType "restore" to go on: `,
    ))
  ) {
    throw new UsageError('Not restored (confirm by typing "restore", or pass --yes).');
  }
  const database = await openConfiguredDatabase(config, (message) => console.warn(message));
  const files = configuredStore(config);
  try {
    const deps = platformDeps(database, config.dataDir, log, files.store);
    if (!values['no-safety-backup']) {
      const safety = await safetyBackupFile(config.dataDir, 'before-restore');
      const summary = await writePlatformBackup(deps, safety);
      console.log(`Safety backup of the current platform: ${safety} (${(summary.bytes / 1024 ** 2).toFixed(1)} MB)`);
    }
    const manifest = await restorePlatformBackup(deps, archive, { id: 'cli', name: 'npm run restore' });
    console.log(
      `Platform restored from ${archive} (made ${manifest.createTime} on ${manifest.engine}). Everyone signs in again.`,
    );
  } finally {
    files.close();
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(describe(error));
    process.exit(1);
  });
}

/** What a platform backup and restore work on: the configured database (its background handle), data directory and file store. */
function platformDeps(
  database: Awaited<ReturnType<typeof openConfiguredDatabase>>,
  dataDir: string,
  log: (line: string) => void,
  store: ReturnType<typeof configuredStore>['store'],
) {
  return {
    db: database.background,
    dataDir,
    engine: database.engine,
    repo: new PlatformBackupRepository(),
    log,
    store,
  };
}
