import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { translate } from '@gantry/shared';
import { ConfigError, loadConfig } from '../config.js';
import { ArchiveProblem } from '../lib/archive/archive-problem.js';
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
restore with DATABASE_URL set to the new database (see README.md).`;

class UsageError extends Error {}

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
    try {
      const deps = { ...platformDeps(database, config.dataDir, log), objectStorage: config.s3 !== undefined };
      const summary = await writePlatformBackup(deps, out);
      const rows = Object.values(summary.tables).reduce((sum, table) => sum + table.rows, 0);
      console.log(
        `Platform backup written: ${out} (${(summary.bytes / 1024 ** 2).toFixed(1)} MB; ${rows.toLocaleString('en')} rows in ${Object.keys(summary.tables).length} tables, ${summary.files.toLocaleString('en')} files)`,
      );
    } finally {
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
  if (
    !values.yes &&
    !(await confirm(
      `This replaces the whole platform in ${target} and the files of ${config.dataDir} with ${archive}.\nType "restore" to go on: `,
    ))
  ) {
    throw new UsageError('Not restored (confirm by typing "restore", or pass --yes).');
  }
  const database = await openConfiguredDatabase(config, (message) => console.warn(message));
  try {
    const deps = platformDeps(database, config.dataDir, log);
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
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(describe(error));
    process.exit(1);
  });
}

/** What a platform backup and restore work on: the configured database (its background handle) and data directory. */
function platformDeps(
  database: Awaited<ReturnType<typeof openConfiguredDatabase>>,
  dataDir: string,
  log: (line: string) => void,
) {
  return { db: database.background, dataDir, engine: database.engine, repo: new PlatformBackupRepository(), log };
}
