import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, mkdir, readdir, rename, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '@gantry/shared';
import { inPool } from './in-pool.js';

/**
 * The data directory's trash: leftovers of restores (staged files, the areas a swap set aside) are
 * moved here in one rename each, so a start's recovery decides and moves in a moment, and are removed
 * later in the background (`Trash.empty`). Each leftover gets a folder of its own, named once
 * (`<label>-<random>`): nothing else ever writes here, so a new restore never meets the removal.
 * Its name starts with a dot: not an area of the platform backup.
 */
export const TRASH_FOLDER = '.restore-trash';

/** Entries removed at once: a few, so the thread pool stays free for the requests meanwhile. */
const REMOVE_AT_ONCE = 2;

const code = errorCode;

/**
 * Moves `full` (a file or folder inside `dataDir`, on its file system) into the trash: one rename.
 * A missing `full` is nothing to do (false).
 */
export async function moveToTrash(dataDir: string, full: string, label: string): Promise<boolean> {
  const folder = path.join(dataDir, TRASH_FOLDER);
  await mkdir(folder, { recursive: true });
  try {
    await rename(full, path.join(folder, `${label}-${randomUUID().slice(0, 8)}`));
    return true;
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
}

/** Where the trash says what it did (the server's pino logger). */
export interface TrashLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * Removes what the trash holds, REMOVE_AT_ONCE entries at a time, links never followed. One run at a
 * time (a call during a run joins it); `stop` ends the run at its next entry. A kill leaves the rest,
 * which the next start's run removes.
 */
export class Trash {
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly dataDir: string,
    private readonly log: TrashLog,
  ) {}

  empty(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(): Promise<void> {
    const folder = path.join(this.dataDir, TRASH_FOLDER);
    const leftovers = await readdir(folder).catch((): string[] => []);
    if (leftovers.length === 0 || this.stopped) return;
    const began = performance.now();
    this.log.info({ leftovers: leftovers.length }, 'emptying the restore trash');
    const removed = { entries: 0 };
    try {
      for (const name of leftovers) {
        if (this.stopped) break;
        await this.remove(path.join(folder, name), removed);
      }
    } catch (error) {
      this.log.warn({ err: error, removed: removed.entries }, 'emptying the restore trash failed');
      return;
    }
    const ms = Math.round(performance.now() - began);
    if (this.stopped) this.log.info({ removed: removed.entries, ms }, 'emptying the restore trash stopped');
    else this.log.info({ removed: removed.entries, ms }, 'restore trash emptied');
  }

  /**
   * Removes a file or a folder tree: each folder's files a few at once, then its folders, then itself.
   * `folder`: whether `full` is a folder (looked at without following a link when not given).
   */
  private async remove(full: string, removed: { entries: number }, folder?: boolean): Promise<void> {
    const isFolder =
      folder ??
      (
        await lstat(full).catch((error: unknown) => {
          if (code(error) === 'ENOENT') return undefined;
          throw error;
        })
      )?.isDirectory();
    if (isFolder === undefined) return;
    if (!isFolder) {
      try {
        await unlink(full);
        removed.entries++;
      } catch (error) {
        if (code(error) !== 'ENOENT') throw error;
      }
      return;
    }
    let list: Dirent[];
    try {
      list = await readdir(full, { withFileTypes: true });
    } catch (error) {
      if (code(error) === 'ENOENT') return;
      throw error;
    }
    const folders = list.filter((entry) => entry.isDirectory());
    const others = list.filter((entry) => !entry.isDirectory());
    await inPool(others, REMOVE_AT_ONCE, async (entry) => {
      if (this.stopped) return;
      try {
        await unlink(path.join(full, entry.name));
        removed.entries++;
      } catch (error) {
        if (code(error) !== 'ENOENT') throw error;
      }
    });
    for (const entry of folders) {
      if (this.stopped) return;
      await this.remove(path.join(full, entry.name), removed, true);
    }
    if (this.stopped) return;
    try {
      await rmdir(full);
      removed.entries++;
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
    }
  }
}
