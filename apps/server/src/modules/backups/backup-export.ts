import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_ARCHIVE, type BackupItem, linkModules, MEDIA_LIMITS, RestoreRule, TaskState } from '@gantry/shared';
import { ArchiveWriter } from '../../lib/archive/archive-writer.js';
import { compressEntry, type SpooledEntry, spoolEntry } from '../../lib/archive/zip-file-writer.js';
import { type FileStore, FileStoreError } from '../../lib/file-store.js';
import { inPool } from '../../lib/in-pool.js';
import { htmlArea, mediaArea } from '../media/media.service.js';
import { type BackupRepository, type BackupRow, DOCUMENT_BATCH_MAX } from './backup.repository.js';
import type { ManifestHead } from './backup-archive.js';
import type { BackupFiles } from './backup-files.js';
import { elapsed } from './backup-restore.js';

/** Files are read in blocks this big (fewer, larger chunks through the deflater). */
const READ_CHUNK = 1 << 20;

/** The version written in every manifest (the server's). */
export const APP_VERSION = '0.1.0';

export interface ExportRequest {
  id: string;
  projectId: string;
  projectName: string;
  name: string;
  item: BackupItem;
  modules: string[];
  excludedDirs: string[];
  safety: boolean;
  requester: string;
  /** Collections never written, even when linked to a chosen one (a template leaves out the project's accounts). */
  leaveOut?: readonly string[];
}

export interface ExportProgress {
  progress(fraction: number): void;
  checkpoint(): Promise<void>;
  /** A line for the task's log (what was done, and how long it took). */
  log?(line: string): void;
}

/** Whether a media path is inside one of the excluded folders. */
export function excluded(segments: string[], excludedDirs: string[][]): boolean {
  return excludedDirs.some((dir) => dir.length <= segments.length && dir.every((name, i) => segments[i] === name));
}

/** Bytes per content kind as a backup would write them (for progress and getSizeAndTime). */
export async function fileBytes(
  store: FileStore,
  area: string,
  excludedDirs: string[][],
): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for await (const entry of store.entries(area, MEDIA_LIMITS.sizeEntriesMax)) {
    if (entry.type === 'file' && !excluded(entry.segments, excludedDirs)) {
      bytes += entry.size;
      files++;
    }
  }
  return { bytes, files };
}

/** Documents per batch on the embedded engine: about 4 MiB of them (by the collection's average), 16 to DOCUMENT_BATCH_MAX. */
function batchSize(stats: { documents: number; bytes: number } | undefined): number {
  if (!stats || stats.documents === 0) return DOCUMENT_BATCH_MAX;
  const average = Math.max(1, stats.bytes / stats.documents);
  return Math.max(16, Math.min(DOCUMENT_BATCH_MAX, Math.floor((4 * 1024 * 1024) / average)));
}

/**
 * Data modules read at once. On PostgreSQL each reads on its own connection, so the database's work
 * (building the lines) spreads over two cores; on the embedded engine their statements take turns.
 */
const MODULES_AT_ONCE = 2;

/**
 * Deflates each data module's lines into a file of `spool` (MODULES_AT_ONCE at a time), answered in
 * the order of `modules`; stops when `stopped()` says so.
 */
async function spoolModules(
  projectId: string,
  modules: string[],
  spool: string,
  deps: {
    repo: Pick<BackupRepository, 'documentLines'>;
    stats: Map<string, { documents: number; bytes: number }>;
    progress: ExportProgress;
    advance: (bytes: number) => void;
    stopped: () => boolean;
  },
): Promise<Array<{ module: string; entry: SpooledEntry; count: number }>> {
  const { repo, stats, progress, advance, stopped } = deps;
  const spooled = new Map<string, { module: string; entry: SpooledEntry; count: number }>();
  await inPool(modules, MODULES_AT_ONCE, async (module) => {
    let count = 0;
    const lines = async function* () {
      for await (const chunk of repo.documentLines(projectId, module, batchSize(stats.get(module)))) {
        await progress.checkpoint();
        if (stopped()) throw new Error('backup stopped');
        count += chunk.lines;
        advance(chunk.bytes.length);
        yield new Uint8Array(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
      }
    };
    const entry = await spoolEntry(lines(), path.join(spool, `${module}.jsonl.deflate`));
    spooled.set(module, { module, entry, count });
  });
  return modules.flatMap((module) => spooled.get(module) ?? []);
}

/** Files up to this size are read whole and compressed ahead, several at once; larger ones are streamed. */
const WHOLE_FILE_MAX = 4 * 1024 * 1024;
/** How many small files are read and compressed ahead of the one being written. */
export const AHEAD = 4;

/**
 * Writes the media files into the archive, in walk order. Small files are read and deflated ahead on
 * the thread pool (up to AHEAD of them, so at most AHEAD × 4 MiB in memory) while earlier ones are
 * written, which keeps both cores busy; a large file waits for those and is streamed.
 */
async function writeFiles(
  writer: ArchiveWriter<ManifestHead>,
  store: FileStore,
  areas: Array<{ kind: 'fileServer' | 'html'; area: string; skip: string[][] }>,
  progress: ExportProgress,
  advance: (bytes: number) => void,
): Promise<void> {
  const ahead: Array<Promise<() => Promise<unknown>>> = [];
  const writeAhead = async (keep: number) => {
    while (ahead.length > keep) {
      const next = ahead.shift();
      if (next) await (await next)();
    }
  };
  const queue = (work: Promise<() => Promise<unknown>>) => {
    // Marked handled now: a failure is thrown where it is awaited, in order.
    work.catch(() => {});
    ahead.push(work);
  };
  for (const { kind, area, skip } of areas) {
    for await (const entry of store.entries(area, MEDIA_LIMITS.sizeEntriesMax)) {
      if (excluded(entry.segments, skip)) continue;
      const name = `${kind}/${entry.segments.join('/')}`;
      if (entry.type === 'dir') {
        queue(Promise.resolve(() => writer.addDir(name)));
        continue;
      }
      await progress.checkpoint();
      const stream = async () => {
        const file = await store.read(area, entry.segments, { chunkBytes: READ_CHUNK });
        await writer.add(
          name,
          (async function* () {
            for await (const chunk of file.stream) {
              const bytes: Buffer = chunk;
              advance(bytes.length);
              yield bytes;
            }
          })(),
          { lastModified: file.updateTime, expectedSize: file.size },
        );
      };
      if (entry.size <= WHOLE_FILE_MAX) {
        queue(
          (async () => {
            let file: { bytes: Buffer; updateTime: Date };
            try {
              file = await store.readWhole(area, entry.segments, WHOLE_FILE_MAX);
            } catch (error) {
              // Grown since the walk: streamed in its turn instead.
              if (error instanceof FileStoreError && error.problem === 'tooLarge') return stream;
              throw error;
            }
            const { updateTime } = file;
            const compressed = await compressEntry(file.bytes);
            // Only the deflated bytes wait for their turn (not the file's own).
            return async () => {
              await writer.addCompressed(name, compressed, updateTime);
              advance(compressed.size);
            };
          })(),
        );
        await writeAhead(AHEAD);
        continue;
      }
      await writeAhead(0);
      await stream();
    }
  }
  await writeAhead(0);
}

/**
 * Writes a project backup (issue 12 §1): the chosen data modules (with the selection links applied),
 * the media library minus the excluded folders, the html package; then the record. The archive is
 * written under a partial name and renamed when complete, and the record is inserted only then, so a
 * list never shows a partial backup; on any failure (or a pause) the partial file is removed.
 */
export async function writeBackup(
  request: ExportRequest,
  deps: {
    repo: Pick<BackupRepository, 'collectionStats' | 'documentLines' | 'insert'>;
    store: FileStore;
    files: BackupFiles;
    now: () => Date;
  },
  progress: ExportProgress,
): Promise<BackupRow> {
  const { repo, store, files } = deps;
  const modules = (request.item.mongodb ? linkModules(request.modules) : []).filter(
    (module) => !request.leaveOut?.includes(module),
  );
  const skip = request.excludedDirs.map((dir) => dir.split('/').filter(Boolean));
  const stats = new Map((await repo.collectionStats(request.projectId)).map((row) => [row.collection, row]));
  const areas: Array<{ kind: 'fileServer' | 'html'; area: string; skip: string[][] }> = [];
  if (request.item.fileServer) areas.push({ kind: 'fileServer', area: mediaArea(request.projectId), skip });
  if (request.item.html) areas.push({ kind: 'html', area: htmlArea(request.projectId), skip: [] });

  // Work to do, for progress: bytes of documents (as stored) and of files.
  let total = 0;
  for (const module of modules) total += stats.get(module)?.bytes ?? 0;
  for (const area of areas) total += (await fileBytes(store, area.area, area.skip)).bytes;
  let done = 0;
  const advance = (bytes: number) => {
    done += bytes;
    progress.progress(total === 0 ? 0.99 : Math.min(0.99, done / total));
  };

  await mkdir(files.folder(request.projectId), { recursive: true });
  const partial = files.partial(request.projectId, request.id);
  const spool = files.spool(request.projectId, request.id);
  let writer: ArchiveWriter<ManifestHead> | undefined;
  try {
    writer = await ArchiveWriter.create<ManifestHead>(partial);
    await mkdir(spool);
    // The data modules are deflated into spool files (the database building their lines in its
    // process) while this process writes the media files; then they are copied in.
    let stopped = false;
    const began = performance.now();
    const spooling = spoolModules(request.projectId, modules, spool, {
      repo,
      stats,
      progress,
      advance,
      stopped: () => stopped,
    }).then((spooled) => {
      const count = spooled.reduce((sum, module) => sum + module.count, 0);
      if (spooled.length > 0) progress.log?.(`data modules: ${count} documents deflated in ${elapsed(began)}`);
      return spooled;
    });
    spooling.catch(() => {});
    try {
      await writeFiles(writer, store, areas, progress, advance);
      if (areas.length > 0) progress.log?.(`files written in ${elapsed(began)} (alongside the data modules)`);
    } catch (error) {
      stopped = true;
      await spooling.catch(() => {});
      throw error;
    }
    const documents: Record<string, { documents: number }> = {};
    for (const { module, entry, count } of await spooling) {
      await writer.addSpooled(`${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`, entry);
      documents[module] = { documents: count };
    }
    const created = deps.now();
    const bytes = await writer.finish({
      format: BACKUP_ARCHIVE.format,
      version: BACKUP_ARCHIVE.version,
      project: { id: request.projectId, name: request.projectName },
      createTime: created.toISOString(),
      appVersion: APP_VERSION,
      item: request.item,
      excludedDirs: request.excludedDirs,
      modules: documents,
    });
    const file = `${request.id}.zip`;
    await files.keep(request.projectId, partial, file);
    const row: BackupRow = {
      id: request.id,
      projectId: request.projectId,
      name: request.name,
      type: 'export',
      status: TaskState.Succeeded,
      item: request.item,
      moduleRules: Object.fromEntries(modules.map((module) => [module, RestoreRule.Overwrite])),
      excludedDirs: request.excludedDirs,
      documents: Object.fromEntries(Object.entries(documents).map(([module, { documents: n }]) => [module, n])),
      bytes,
      file,
      restoreFile: null,
      sourceProjectId: request.projectId,
      safety: request.safety,
      taskId: request.id,
      createTime: created,
      updateTime: created,
    };
    try {
      await repo.insert(row);
    } catch (error) {
      await files.discard(request.projectId, file);
      throw error;
    }
    return row;
  } catch (error) {
    await writer?.abort();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}
