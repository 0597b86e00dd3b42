import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BACKUP_LIMITS } from '@gantry/shared';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { type FileStore, FileStoreError } from '../../lib/file-store.js';

/**
 * Where a project's archives are kept, and the names of those being written. Archives are written
 * and read as local files (the zip writer appends, the reader reads the central directory first):
 * `partial`/`spool` are the node's own scratch under the data directory. A finished archive is
 * `kept` in its home: the data directory (the disk store), or, with `shelf` (object storage), the
 * store's area `backups/<projectId>`, read back through a local spool copy (docs/DECISIONS.md,
 * "Object storage").
 */
export class BackupFiles {
  constructor(
    private readonly dataDir: string,
    private readonly shelf?: FileStore,
  ) {}
  folder(projectId: string): string {
    return path.join(this.dataDir, 'backups', projectId);
  }
  /** The store area of a project's archives (object storage). */
  area(projectId: string): string {
    return `backups/${projectId}`;
  }
  /** On disk: where a kept archive is. */
  archive(projectId: string, file: string): string {
    return path.join(this.folder(projectId), file);
  }
  /** A name no record shows: an archive being written, removed when the work stops. */
  partial(projectId: string, id: string): string {
    return path.join(this.folder(projectId), `.partial-${id}.zip`);
  }
  /** Where a backup's data modules are deflated while its files are written; removed with it. */
  spool(projectId: string, id: string): string {
    return path.join(this.folder(projectId), `.partial-${id}.spool`);
  }

  /** Puts a finished local archive in its home as `file` (the local file is gone after). */
  async keep(projectId: string, local: string, file: string): Promise<void> {
    if (!this.shelf) {
      await rename(local, this.archive(projectId, file));
      return;
    }
    await this.shelf.write(this.area(projectId), [file], createReadStream(local), {
      maxBytes: Number.MAX_SAFE_INTEGER,
      overwrite: false,
    });
    await rm(local, { force: true });
  }

  /** Whether a kept archive is there. */
  async has(projectId: string, file: string): Promise<boolean> {
    if (!this.shelf) return (await stat(this.archive(projectId, file)).catch(() => undefined))?.isFile() === true;
    return (await this.shelf.stat(this.area(projectId), [file]))?.type === 'file';
  }

  /** The archives kept in object storage (none without it: on disk they are in `folder`), at most `max`. */
  async *shelved(projectId: string, max: number): AsyncGenerator<{ name: string; updateTime: Date }> {
    if (!this.shelf || !(await this.shelf.hasArea(this.area(projectId)))) return;
    for await (const entry of this.shelf.entries(this.area(projectId), max)) {
      if (entry.type === 'file' && entry.segments.length === 1) {
        yield { name: entry.segments[0] ?? '', updateTime: entry.updateTime };
      }
    }
  }

  /** Removes a kept archive; one already gone is no error. */
  async discard(projectId: string, file: string): Promise<void> {
    if (!this.shelf) {
      await rm(this.archive(projectId, file), { force: true });
      return;
    }
    await this.shelf.remove(this.area(projectId), [file]).catch((error: unknown) => {
      if (!(error instanceof FileStoreError && error.problem === 'notFound')) throw error;
    });
  }

  /** A kept archive as a stream; undefined when it is gone. */
  async stream(projectId: string, file: string): Promise<{ stream: Readable; size: number } | undefined> {
    if (!this.shelf) {
      const found = await stat(this.archive(projectId, file)).catch(() => undefined);
      return found && { stream: createReadStream(this.archive(projectId, file)), size: found.size };
    }
    try {
      return await this.shelf.read(this.area(projectId), [file]);
    } catch (error) {
      if (error instanceof FileStoreError && error.problem === 'notFound') return undefined;
      throw error;
    }
  }

  /**
   * Opens a kept archive as a local file for `open` (random access). On disk the archive itself;
   * from object storage a spool copy under `partial`, refused before it is fetched when the data
   * directory lacks the room (its reserve kept), and unlinked once opened: the open handle keeps it
   * readable and nothing is left behind whatever happens next. Missing → ENOENT, as on disk.
   */
  async openLocal<T>(projectId: string, file: string, open: (local: string) => Promise<T>): Promise<T> {
    if (!this.shelf) return open(this.archive(projectId, file));
    const kept = await this.stream(projectId, file);
    if (!kept) throw Object.assign(new Error(`archive ${file} not found`), { code: 'ENOENT' });
    const folder = this.folder(projectId);
    await mkdir(folder, { recursive: true });
    const free = await statfs(folder);
    const room = free.bavail * free.bsize - BACKUP_LIMITS.diskReserveBytes;
    if (kept.size > room) {
      kept.stream.destroy();
      throw new ArchiveProblem('noSpace', {
        need: Math.ceil(kept.size / 1024 ** 2),
        free: Math.max(0, Math.floor(room / 1024 ** 2)),
      });
    }
    const local = this.partial(projectId, `read-${randomUUID()}`);
    try {
      await pipeline(kept.stream, createWriteStream(local, { flags: 'wx', mode: 0o600 }));
      return await open(local);
    } finally {
      await rm(local, { force: true });
    }
  }
}
