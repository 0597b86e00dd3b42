import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_ARCHIVE, type BackupItem, linkModules, MEDIA_LIMITS } from '@gantry/shared';
import type { FileStore } from '../../lib/file-store.js';
import { htmlArea, mediaArea } from '../media/media.service.js';
import type { BackupRepository, BackupRow } from './backup.repository.js';
import { ArchiveWriter, documentLine } from './backup-archive.js';

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
}

export interface ExportProgress {
  progress(fraction: number): void;
  checkpoint(): Promise<void>;
}

/** Where a project's archives are kept, and the name of one being written. */
export class BackupFiles {
  constructor(private readonly dataDir: string) {}
  folder(projectId: string): string {
    return path.join(this.dataDir, 'backups', projectId);
  }
  archive(projectId: string, file: string): string {
    return path.join(this.folder(projectId), file);
  }
  /** A name no record shows: an archive being written, removed when the work stops. */
  partial(projectId: string, id: string): string {
    return path.join(this.folder(projectId), `.partial-${id}.zip`);
  }
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

/**
 * Writes a project backup (issue 12 §1): the chosen data modules (with the selection links applied),
 * the media library minus the excluded folders, the html package; then the record. The archive is
 * written under a partial name and renamed when complete, and the record is inserted only then, so a
 * list never shows a partial backup; on any failure (or a pause) the partial file is removed.
 */
export async function writeBackup(
  request: ExportRequest,
  deps: { repo: BackupRepository; store: FileStore; files: BackupFiles; now: () => Date },
  progress: ExportProgress,
): Promise<BackupRow> {
  const { repo, store, files } = deps;
  const modules = request.item.mongodb ? linkModules(request.modules) : [];
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
  const writer = ArchiveWriter.create(partial);
  try {
    const documents: Record<string, { documents: number }> = {};
    for (const module of modules) {
      let count = 0;
      const lines = async function* () {
        let after: string | undefined;
        for (;;) {
          await progress.checkpoint();
          const batch = await repo.documentsAfter(request.projectId, module, after);
          if (batch.length === 0) return;
          const text = batch.map(documentLine).join('');
          count += batch.length;
          after = batch.at(-1)?.id;
          const bytes = Buffer.from(text);
          advance(bytes.length);
          yield new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        }
      };
      await writer.add(`${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`, lines());
      documents[module] = { documents: count };
    }
    for (const { kind, area, skip: skipped } of areas) {
      for await (const entry of store.entries(area, MEDIA_LIMITS.sizeEntriesMax)) {
        if (excluded(entry.segments, skipped)) continue;
        const name = `${kind}/${entry.segments.join('/')}`;
        if (entry.type === 'dir') {
          await writer.addDir(name);
          continue;
        }
        await progress.checkpoint();
        const file = await store.read(area, entry.segments);
        await writer.add(
          name,
          (async function* () {
            for await (const chunk of file.stream) {
              advance((chunk as Buffer).length);
              yield chunk as Uint8Array;
            }
          })(),
          file.updateTime,
        );
      }
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
    await rename(partial, files.archive(request.projectId, file));
    const row: BackupRow = {
      id: request.id,
      projectId: request.projectId,
      name: request.name,
      type: 'export',
      status: 'succeed',
      item: request.item,
      moduleRules: Object.fromEntries(modules.map((module) => [module, 0])),
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
      await rm(files.archive(request.projectId, file), { force: true });
      throw error;
    }
    return row;
  } catch (error) {
    await writer.abort();
    await rm(partial, { force: true });
    throw error;
  }
}
