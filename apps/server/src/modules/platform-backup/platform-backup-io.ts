import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MEDIA_TEMP_PREFIX } from '@gantry/shared';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { type ArchiveEntry, ArchiveReader } from '../../lib/archive/archive-reader.js';
import { LineSplitter } from '../../lib/archive/entry-checks.js';
import { ZipFileWriter } from '../../lib/archive/zip-file-writer.js';
import { type FileStore, FileStoreError } from '../../lib/file-store.js';
import { inPool } from '../../lib/in-pool.js';
import { moveToTrash } from '../../lib/trash.js';
import { APP_VERSION } from '../backups/backup-export.js';
import { elapsed, ensureFolder, extractEntry } from '../backups/backup-restore.js';
import { PLATFORM_ARCHIVE, PLATFORM_LIMITS, type PlatformManifest, verifyPlatformArchive } from './platform-archive.js';
import { NOT_ARCHIVED, type PlatformBackupRepository } from './platform-backup.repository.js';

/**
 * Entries of the data directory a platform backup leaves out and a restore leaves in place: the
 * embedded engine's files (the database goes as tables), this machine's secret key, restore
 * journals, and the platform backups themselves (a backup never holds the backups).
 */
export const KEPT_AREAS = new Set(['pglite', 'pglite.lock', 'secret.key', 'restore-journals', 'platform-backups']);
/** The restore's journal: present from before its commit until its files are in place. */
const JOURNAL = '.platform-restore.json';
/** Rows sent to the database in one statement, by bytes of JSON. */
const INSERT_RUN_BYTES = 4 * 1024 * 1024;
/** Files written to object storage at once by a restore (each upload holds at most 24 MiB). */
const STORE_WRITES_AT_ONCE = 3;

export class PlatformRestoreRefused extends Error {}

export interface PlatformBackupDeps {
  db: Database;
  dataDir: string;
  engine: 'pglite' | 'postgres';
  repo: PlatformBackupRepository;
  log: (line: string) => void;
  /**
   * GANTRY_STORAGE=s3: the object store, whose areas are the platform's files (the data directory
   * then holds only this node's scratch). Without it, the data directory's areas are.
   */
  store?: FileStore | undefined;
}

export interface PlatformBackupSummary {
  bytes: number;
  tables: Record<string, { rows: number }>;
  files: number;
}

const journalSchema = z.object({
  id: z.string(),
  staging: z.string(),
  /** Set once every area the restore replaces has been moved aside. */
  movedAside: z.boolean(),
  /**
   * Where the files go: the data directory (`staging` a folder path), or the object store
   * (`staging` an area of it, `.platform-restore-<id>`).
   */
  target: z.enum(['disk', 'store']).default('disk'),
});
type Journal = z.infer<typeof journalSchema>;

/** Whether a top-level name is an area of the platform (not kept, not a restore's or the trash's). */
const isPlatformArea = (name: string) => !KEPT_AREAS.has(name) && !name.startsWith('.');

/** A data directory's top-level areas (what a platform backup holds and a restore replaces). */
async function areasOf(dataDir: string): Promise<string[]> {
  const entries = await readdir(dataDir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => isPlatformArea(entry.name))
    .filter((entry) => entry.isDirectory() || entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** An object store's top-level areas (the same names as on disk: `projects`, `backups`, `templates`, …). */
async function storeAreasOf(store: FileStore): Promise<string[]> {
  return (await store.areas()).filter(isPlatformArea);
}

/** A file a platform backup holds: its name under `files/` and how to read it. */
interface PlatformFile {
  name: string;
  open(): Promise<{ stream: Readable; size: number; updateTime: Date } | undefined>;
}

/** Regular files under `root`, relative, leaving out temporary files of uploads and backups in progress. */
async function* filesUnder(root: string, relative = ''): AsyncGenerator<string> {
  const folder = path.join(root, relative);
  const info = await stat(folder);
  if (info.isFile()) {
    yield relative;
    return;
  }
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith(MEDIA_TEMP_PREFIX) || entry.name.startsWith('.partial-')) continue;
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) yield* filesUnder(root, child);
    else if (entry.isFile()) yield child;
  }
}

/** Every file of the data directory's areas. */
async function* diskFiles(dataDir: string): AsyncGenerator<PlatformFile> {
  for (const area of await areasOf(dataDir)) {
    const root = path.join(dataDir, area);
    for await (const relative of filesUnder(root)) {
      const source = relative === '' ? root : path.join(root, relative);
      yield {
        name: relative === '' ? area : `${area}/${relative}`,
        open: async () => {
          const { size, mtime } = await stat(source);
          return { stream: createReadStream(source), size, updateTime: mtime };
        },
      };
    }
  }
}

/**
 * Every file of the object store's areas, each streamed from the store when its turn comes (never
 * a whole file in memory); one deleted since it was listed is left out (undefined).
 */
async function* storeFiles(store: FileStore): AsyncGenerator<PlatformFile> {
  for (const area of await storeAreasOf(store)) {
    for await (const entry of store.entries(area, PLATFORM_LIMITS.entriesMax)) {
      if (entry.type !== 'file' || (entry.segments.at(-1) ?? '').startsWith('.partial-')) continue;
      yield {
        name: `${area}/${entry.segments.join('/')}`,
        open: () =>
          store.read(area, entry.segments).catch((error: unknown) => {
            if (error instanceof FileStoreError && error.problem === 'notFound') return undefined;
            throw error;
          }),
      };
    }
  }
}

/**
 * Writes the whole platform to `file`: every table (one REPEATABLE READ snapshot) and every file area
 * of the store configured (the data directory's, or the object store's). `file` must not exist; it is removed when the backup fails.
 */
export async function writePlatformBackup(deps: PlatformBackupDeps, file: string): Promise<PlatformBackupSummary> {
  const began = performance.now();
  const zip = await ZipFileWriter.create(file);
  try {
    const entries: PlatformManifest['entries'] = [];
    const tables: PlatformManifest['tables'] = {};
    const archived = (await deps.repo.tables(deps.db)).filter((table) => !NOT_ARCHIVED.has(table));
    const migrations = await deps.repo.schemaMigrations(deps.db);
    const addTable = async (table: string, lines: AsyncIterable<Buffer>) => {
      let rows = 0;
      const counted = async function* () {
        for await (const chunk of lines) {
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows++;
          yield chunk;
        }
      };
      entries.push(await zip.add(`${PLATFORM_ARCHIVE.tablesDir}/${table}.jsonl`, counted()));
      tables[table] = { rows };
    };
    if (deps.engine === 'postgres') {
      // One snapshot of every table: PostgreSQL serves the other calls meanwhile.
      await deps.db.transaction(
        async (tx) => {
          for (const table of archived) await addTable(table, deps.repo.rowLines(tx, table));
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    } else {
      // The embedded engine has one session: page by page, so the server's other calls run between pages.
      for (const table of archived) await addTable(table, deps.repo.rowLinesByKey(deps.db, table));
    }
    deps.log(`tables: ${archived.length} in ${elapsed(began)}`);
    const filesBegan = performance.now();
    let files = 0;
    for await (const stored of deps.store ? storeFiles(deps.store) : diskFiles(deps.dataDir)) {
      if (`${PLATFORM_ARCHIVE.filesDir}/${stored.name}`.length > PLATFORM_LIMITS.pathMax) {
        deps.log(`left out (path too long): ${stored.name}`);
        continue;
      }
      const opened = await stored.open();
      if (!opened) {
        deps.log(`left out (deleted while the backup ran): ${stored.name}`);
        continue;
      }
      entries.push(
        await zip.add(`${PLATFORM_ARCHIVE.filesDir}/${stored.name}`, opened.stream, {
          lastModified: opened.updateTime,
          expectedSize: opened.size,
        }),
      );
      files++;
    }
    deps.log(`files: ${files}${deps.store ? ' from object storage' : ''} in ${elapsed(filesBegan)}`);

    const manifest: PlatformManifest = {
      format: PLATFORM_ARCHIVE.format,
      version: PLATFORM_ARCHIVE.version,
      createTime: new Date().toISOString(),
      appVersion: APP_VERSION,
      engine: deps.engine,
      schema: { migrations },
      tables,
      entries,
    };
    const text = Buffer.from(JSON.stringify(manifest));
    await zip.add(PLATFORM_ARCHIVE.manifest, [text], { expectedSize: text.length });
    const bytes = await zip.finish();
    deps.log(`archive: ${bytes} bytes in ${elapsed(began)}`);
    return { bytes, tables, files };
  } catch (error) {
    await zip.abort().catch(() => {});
    await rm(file, { force: true });
    throw error;
  }
}

async function writeJournal(dataDir: string, journal: Journal): Promise<void> {
  const file = path.join(dataDir, JOURNAL);
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(journal));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/**
 * Puts the staged areas in place: every current area is moved aside (once, recorded in the journal),
 * then every staged one moved in, then what was moved aside removed. Safe to run again after a crash.
 */
async function swapAreas(dataDir: string, journal: Journal): Promise<void> {
  const aside = `${journal.staging}.old`;
  if (!journal.movedAside) {
    await mkdir(aside, { recursive: true });
    for (const area of await areasOf(dataDir)) await rename(path.join(dataDir, area), path.join(aside, area));
    journal.movedAside = true;
    await writeJournal(dataDir, journal);
  }
  const staged = await readdir(journal.staging).catch(() => []);
  for (const area of staged) await rename(path.join(journal.staging, area), path.join(dataDir, area));
  // What was set aside goes to the trash (renames: quick at a start too; removed in the background).
  await moveToTrash(dataDir, aside, 'platform-restore-old');
  await moveToTrash(dataDir, journal.staging, 'platform-restore');
  await rm(path.join(dataDir, JOURNAL), { force: true });
}

/**
 * `swapAreas` in the object store: each live area copied aside, then each staged one copied in (server-side
 * copies, then deletes), then what was set aside and the staging area deleted. A copy cut short is
 * finished when run again (`resume`), so this too is safe to run again after a crash at any point.
 */
async function swapStoreAreas(store: FileStore, dataDir: string, journal: Journal): Promise<void> {
  const aside = `${journal.staging}.old`;
  if (!journal.movedAside) {
    for (const area of await storeAreasOf(store)) await store.moveArea(area, `${aside}/${area}`, { resume: true });
    journal.movedAside = true;
    await writeJournal(dataDir, journal);
  }
  for (const area of await store.areas(journal.staging)) {
    await store.moveArea(`${journal.staging}/${area}`, area, { resume: true });
  }
  await store.removeArea(aside);
  await store.removeArea(journal.staging);
  await rm(path.join(dataDir, JOURNAL), { force: true });
}

/** The store a journal's files go to; with no store configured any more (GANTRY_STORAGE changed) refused. */
function storeOf(deps: Pick<PlatformBackupDeps, 'store'>): FileStore {
  if (!deps.store) {
    throw new PlatformRestoreRefused(
      'A platform restore into object storage was cut short: start with the same GANTRY_STORAGE=s3 settings so that it is finished or dropped.',
    );
  }
  return deps.store;
}

/**
 * A restore a stopped process left: its files put in place when its data committed, else its staged
 * files moved to the trash (renames only: quick before a start listens). Answers what was done.
 */
export async function recoverPlatformRestore(
  deps: Pick<PlatformBackupDeps, 'db' | 'dataDir' | 'repo' | 'store'>,
): Promise<'none' | 'finished' | 'dropped'> {
  let journal: Journal;
  try {
    journal = journalSchema.parse(JSON.parse(await readFile(path.join(deps.dataDir, JOURNAL), 'utf8')));
  } catch {
    return 'none';
  }
  const committed = await deps.repo.restoreCommitted(deps.db, journal.id);
  if (journal.target === 'store') {
    const store = storeOf(deps);
    if (committed) {
      await swapStoreAreas(store, deps.dataDir, journal);
      return 'finished';
    }
    // Not committed: nothing was set aside yet (that follows the commit); the staged objects go.
    await store.removeArea(journal.staging);
    await rm(path.join(deps.dataDir, JOURNAL), { force: true });
    return 'dropped';
  }
  if (committed) {
    await swapAreas(deps.dataDir, journal);
    return 'finished';
  }
  await moveToTrash(deps.dataDir, journal.staging, 'platform-restore');
  await moveToTrash(deps.dataDir, `${journal.staging}.old`, 'platform-restore-old');
  await rm(path.join(deps.dataDir, JOURNAL), { force: true });
  return 'dropped';
}

/** Inserts one table's lines, a run of about INSERT_RUN_BYTES at a time. */
async function insertTable(
  deps: PlatformBackupDeps,
  tx: Database,
  reader: ArchiveReader,
  table: string,
): Promise<number> {
  const entry = reader.entries.find(
    (candidate) => candidate.filename === `${PLATFORM_ARCHIVE.tablesDir}/${table}.jsonl`,
  );
  if (!entry) throw new ArchiveProblem('missing', { path: `${PLATFORM_ARCHIVE.tablesDir}/${table}.jsonl` });
  let run: string[] = [];
  let runBytes = 0;
  const pending: string[][] = [];
  const lines = new LineSplitter(
    PLATFORM_LIMITS.lineBytesMax,
    (line) => {
      run.push(line);
      runBytes += line.length;
      if (runBytes >= INSERT_RUN_BYTES) {
        pending.push(run);
        run = [];
        runBytes = 0;
      }
    },
    (number) => {
      throw new ArchiveProblem('badDocument', { module: table, line: number });
    },
  );
  const parents = await deps.repo.foreignKeys(tx, table);
  let inserted = 0;
  await reader.read(entry, async (chunk) => {
    lines.push(chunk);
    for (let batch = pending.shift(); batch; batch = pending.shift()) {
      inserted += await deps.repo.insertRows(tx, table, `[${batch.join(',')}]`, parents);
    }
  });
  lines.end();
  for (const batch of [...pending, run]) {
    if (batch.length > 0) inserted += await deps.repo.insertRows(tx, table, `[${batch.join(',')}]`, parents);
  }
  return inserted;
}

/** The archive's files staged in the data directory (refused first when it lacks the room). */
async function stageOnDisk(
  deps: PlatformBackupDeps,
  reader: ArchiveReader,
  id: string,
  fileBytes: number,
): Promise<Journal> {
  const free = await statfs(deps.dataDir);
  if (free.bavail * free.bsize < fileBytes + 64 * 1024 * 1024) {
    throw new PlatformRestoreRefused(
      `The data directory needs ${Math.ceil(fileBytes / 1024 ** 2)} MB free for the archive's files; it has ${Math.floor((free.bavail * free.bsize) / 1024 ** 2)} MB.`,
    );
  }
  const staging = path.join(deps.dataDir, `.platform-restore-${id}`);
  await mkdir(staging, { recursive: true });
  try {
    for (const { entry, relative } of archivedFiles(reader)) {
      const target = path.join(staging, ...relative);
      await mkdir(path.dirname(target), { recursive: true });
      const handle = await open(target, 'wx', 0o600);
      try {
        await reader.read(entry, async (chunk) => {
          await handle.write(chunk);
        });
      } finally {
        await handle.close();
      }
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return { id, staging, movedAside: false, target: 'disk' };
}

/**
 * The archive's files staged in the object store, in the area `.platform-restore-<id>` (each top-level
 * area of the archive a folder of it), streamed a few at once. A file at the top of the archive's
 * data directory (no area) has no place in the store and is left out.
 */
async function stageInStore(
  deps: PlatformBackupDeps,
  store: FileStore,
  reader: ArchiveReader,
  id: string,
): Promise<Journal> {
  const staging = `.platform-restore-${id}`;
  const files: Array<{ entry: ArchiveEntry; area: string; segments: string[] }> = [];
  for (const { entry, relative } of archivedFiles(reader)) {
    const [area, ...segments] = relative;
    if (!area || segments.length === 0) {
      deps.log(`left out (a file outside every area, which object storage has no place for): ${relative.join('/')}`);
      continue;
    }
    files.push({ entry, area: `${staging}/${area}`, segments });
  }
  try {
    // Each folder once, parents first (the files of one folder follow one another in the archive).
    const folders = new Set<string>();
    for (const { area, segments } of files) {
      const folder = segments.slice(0, -1);
      const key = `${area}/${folder.join('/')}`;
      if (folder.length === 0 || folders.has(key)) continue;
      await ensureFolder(store, area, folder);
      folders.add(key);
    }
    await inPool(files, STORE_WRITES_AT_ONCE, ({ entry, area, segments }) =>
      extractEntry(reader, entry, store, area, segments),
    );
  } catch (error) {
    await store.removeArea(staging);
    throw error;
  }
  return { id, staging, movedAside: false, target: 'store' };
}

/** The archive's files (entries under `files/`), each with its path below it. */
function* archivedFiles(reader: ArchiveReader): Generator<{ entry: ArchiveEntry; relative: string[] }> {
  const prefix = `${PLATFORM_ARCHIVE.filesDir}/`;
  for (const entry of reader.entries) {
    if (entry.directory || !entry.filename.startsWith(prefix)) continue;
    yield { entry, relative: entry.filename.slice(prefix.length).split('/') };
  }
}

/**
 * Replaces the whole platform with the archive `file`: verified whole first; the files staged in the
 * data directory; one transaction empties every table and puts the archive's rows back (and writes
 * the audit entry that marks the commit); then the file areas are swapped in, with a journal that
 * a crash leaves for `recoverPlatformRestore`.
 */
export async function restorePlatformBackup(
  deps: PlatformBackupDeps,
  file: string,
  actor: { id: string; name: string },
): Promise<PlatformManifest> {
  const began = performance.now();
  const recovered = await recoverPlatformRestore(deps);
  if (recovered !== 'none') deps.log(`an earlier restore a stopped process left: ${recovered}`);
  const reader = await ArchiveReader.open(file, undefined, { maxEntries: PLATFORM_LIMITS.entriesMax });
  try {
    const tables = await deps.repo.tables(deps.db);
    const migrations = await deps.repo.schemaMigrations(deps.db);
    const { manifest, fileBytes } = await verifyPlatformArchive(reader, { knownTables: new Set(tables) });
    if (manifest.schema.migrations !== migrations) {
      throw new PlatformRestoreRefused(
        `The archive was made by a Gantry whose database has ${manifest.schema.migrations} schema migrations; this one has ${migrations}. Restore it with the version that made it, then upgrade.`,
      );
    }
    deps.log(`archive verified (${reader.entries.length} entries) in ${elapsed(began)}`);
    const id = randomUUID();
    const stagingBegan = performance.now();
    const journal: Journal = deps.store
      ? await stageInStore(deps, deps.store, reader, id)
      : await stageOnDisk(deps, reader, id, fileBytes);
    deps.log(
      `files staged (${Math.ceil(fileBytes / 1024 ** 2)} MB${deps.store ? ', in object storage' : ''}) in ${elapsed(stagingBegan)}`,
    );
    await writeJournal(deps.dataDir, journal);

    const dataBegan = performance.now();
    const order = await deps.repo.insertOrder(
      deps.db,
      tables.filter((table) => manifest.tables[table]),
    );
    try {
      await deps.db.transaction(async (tx) => {
        await deps.repo.truncateAll(tx, tables);
        for (const table of order) {
          const inserted = await insertTable(deps, tx, reader, table);
          const archived = manifest.tables[table]?.rows ?? 0;
          if (inserted < archived) {
            deps.log(`${table}: ${archived - inserted} rows left out (their parent row changed while the backup ran)`);
          }
        }
        await deps.repo.resetSequences(tx);
        await deps.repo.pruneDocumentPartitions(tx);
        await deps.repo.markRestoreCommitted(tx, actor, {
          restoreId: id,
          archiveCreateTime: manifest.createTime,
          engine: manifest.engine,
        });
      });
    } catch (error) {
      if (deps.store) await deps.store.removeArea(journal.staging);
      else await rm(journal.staging, { recursive: true, force: true });
      await rm(path.join(deps.dataDir, JOURNAL), { force: true });
      throw error;
    }
    deps.log(`data restored (${order.length} tables) in ${elapsed(dataBegan)}`);
    const swapBegan = performance.now();
    if (deps.store) await swapStoreAreas(deps.store, deps.dataDir, journal);
    else await swapAreas(deps.dataDir, journal);
    deps.log(`files swapped in in ${elapsed(swapBegan)}`);
    deps.log(`restored in ${elapsed(began)}`);
    return manifest;
  } finally {
    await reader.close();
  }
}

/** Writes a platform backup beside the others in `<data>/platform-backups/`, named by its time. */
export async function safetyBackupFile(dataDir: string, label: string, at = new Date()): Promise<string> {
  const folder = path.join(dataDir, 'platform-backups');
  await mkdir(folder, { recursive: true });
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  return path.join(folder, `${label}-${stamp}.zip`);
}
