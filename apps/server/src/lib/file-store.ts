import { randomUUID } from 'node:crypto';
import { constants, type Dirent, type Stats } from 'node:fs';
import { type FileHandle, link, lstat, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MEDIA_TEMP_PREFIX } from '@gantry/shared';
import { moveToTrash } from './trash.js';

/**
 * Project files (design D4): the media library (`fileServer`), the html package and the public
 * folder, each an *area* (a folder tree). Callers speak in areas and checked path segments
 * (`checkMediaPath`); this interface alone knows where the bytes are, so an object store can
 * replace the disk without touching them.
 */
export interface FileStore {
  /** The tree under `dir` (folders; files too when asked), at most `maxNodes` nodes. */
  tree(area: string, dir: string[], options: { files: boolean; maxNodes: number }): Promise<TreeAnswer>;
  stat(area: string, segments: string[]): Promise<FileInfo | undefined>;
  /**
   * Streams `source` into a file, through a temporary file in the same folder renamed into place
   * when complete: a reader never sees half a file. More than `maxBytes` → 'tooLarge', nothing left.
   */
  write(
    area: string,
    segments: string[],
    source: Readable,
    options: { maxBytes: number; overwrite: boolean },
  ): Promise<{ size: number }>;
  /** `chunkBytes`: the size of the blocks the stream gives (default 64 KiB). */
  read(
    area: string,
    segments: string[],
    options?: { chunkBytes?: number },
  ): Promise<{ stream: Readable; size: number; updateTime: Date }>;
  /** A small file's whole content (refused when larger than `maxBytes`). */
  readWhole(area: string, segments: string[], maxBytes: number): Promise<{ bytes: Buffer; updateTime: Date }>;
  /** Creates the folder and any missing parents; the folder itself existing → 'exists'. */
  mkdir(area: string, segments: string[]): Promise<void>;
  /** Moves or renames; the target must not exist and its parent must be a folder. */
  move(area: string, from: string[], to: string[]): Promise<void>;
  /** Removes a file, or a folder with everything in it. */
  remove(area: string, segments: string[]): Promise<void>;
  /** Bytes of the files of an area (0 when it has none), walking at most `maxEntries` entries. */
  size(area: string, maxEntries: number): Promise<{ bytes: number; truncated: boolean }>;
  /**
   * Removes temporary files of uploads that stopped (a killed server) not written to since `before`,
   * walking at most `maxEntries` entries per area. Answers how many.
   */
  sweep(areas: string[], before: Date, maxEntries: number): Promise<number>;
  /** The areas `<parent>/<each folder>/<name>` (e.g. every project's `fileServer`). */
  areasUnder(parent: string, name: string): Promise<string[]>;
  /** The names of the folders directly under `parent`, or at the top of the store without it, sorted. */
  areas(parent?: string): Promise<string[]>;
  /**
   * Every folder and file of an area, parents before children (temporary upload files left out),
   * at most `maxEntries`: more is an error, never a silent cut (a backup must hold all or fail).
   */
  entries(area: string, maxEntries: number): AsyncGenerator<AreaEntry>;
  /** Whether an area has a folder. */
  hasArea(area: string): Promise<boolean>;
  /**
   * Moves a whole area to another name (the target must not exist); a missing area is no error.
   * `resume`: the target may hold part of this same move, cut short by a stopped process (object
   * storage copies, then deletes): the move is finished. A rename on disk is never cut short, so
   * there a target is refused all the same.
   */
  moveArea(from: string, to: string, options?: { resume?: boolean }): Promise<void>;
  /** Removes a whole area; a missing one is no error. */
  removeArea(area: string): Promise<void>;
  /**
   * Moves a whole area out of sight at once (into the trash, one rename; `Trash` removes it later, in
   * the background); a missing one is no error.
   */
  discardArea(area: string): Promise<void>;
}

export interface AreaEntry {
  segments: string[];
  type: 'dir' | 'file';
  size: number;
  updateTime: Date;
}

export interface FileInfo {
  type: 'dir' | 'file';
  size: number;
  updateTime: Date;
}

export interface TreeNode {
  path: string;
  name: string;
  type: 'dir' | 'file';
  /** Folders: their content. */
  child?: TreeNode[];
  /** Files: bytes and last change. */
  size?: number;
  updateTime?: string;
}

export interface TreeAnswer {
  nodes: TreeNode[];
  truncated: boolean;
}

export type FileStoreProblem = 'notFound' | 'exists' | 'notFolder' | 'notFile' | 'symlink' | 'tooLarge';

/** A refusal about the path given (`segments`: the one it is about). */
export class FileStoreError extends Error {
  constructor(
    readonly problem: FileStoreProblem,
    readonly segments: string[],
  ) {
    super(`${problem}: ${segments.join('/')}`);
  }
}

/** Upload bytes gathered before one write. */
const WRITE_BLOCK_BYTES = 1024 * 1024;

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

async function lstatOrUndefined(full: string): Promise<Stats | undefined> {
  try {
    return await lstat(full);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function infoOf(stats: Stats): FileInfo {
  return { type: stats.isDirectory() ? 'dir' : 'file', size: stats.size, updateTime: stats.mtime };
}

/**
 * The disk: each area is a folder under the data directory. Symbolic links are never followed:
 * every component of a path is looked at with lstat before use, and files are opened with
 * O_NOFOLLOW, so a link planted in a folder (by anything but this API, which makes none) is refused.
 */
export class DiskFileStore implements FileStore {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir);
  }

  /** The area's folder; confined to the data directory (areas are built by the server). */
  private areaDir(area: string): string {
    const full = path.resolve(this.root, area);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`Area escapes the data directory: ${area}`);
    return full;
  }

  /**
   * The full path of `segments` in `area`, each existing component checked not to be a link and
   * every one but the last to be a folder. Answers the last component's stats (undefined: none).
   */
  private async locate(area: string, segments: string[]): Promise<{ full: string; stats: Stats | undefined }> {
    const base = this.areaDir(area);
    let full = base;
    let stats = await lstatOrUndefined(base);
    if (stats?.isSymbolicLink()) throw new FileStoreError('symlink', []);
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] as string;
      if (segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\\')) {
        throw new Error(`Unchecked path segment: ${JSON.stringify(segment)}`);
      }
      if (stats && !stats.isDirectory()) throw new FileStoreError('notFolder', segments.slice(0, i));
      full = path.join(full, segment);
      stats = stats ? await lstatOrUndefined(full) : undefined;
      if (stats?.isSymbolicLink()) throw new FileStoreError('symlink', segments.slice(0, i + 1));
    }
    if (!full.startsWith(base)) throw new Error('Path escapes its area');
    return { full, stats };
  }

  /** The folder `segments` must be, created with its parents when it is the area's root. */
  private async folder(area: string, segments: string[]): Promise<string> {
    if (segments.length === 0) await mkdir(this.areaDir(area), { recursive: true });
    const { full, stats } = await this.locate(area, segments);
    if (!stats) throw new FileStoreError('notFound', segments);
    if (!stats.isDirectory()) throw new FileStoreError('notFolder', segments);
    return full;
  }

  async stat(area: string, segments: string[]): Promise<FileInfo | undefined> {
    const { stats } = await this.locate(area, segments);
    return stats && infoOf(stats);
  }

  async tree(area: string, dir: string[], options: { files: boolean; maxNodes: number }): Promise<TreeAnswer> {
    const { full, stats } = await this.locate(area, dir);
    if (!stats) {
      if (dir.length === 0) return { nodes: [], truncated: false };
      throw new FileStoreError('notFound', dir);
    }
    if (!stats.isDirectory()) throw new FileStoreError('notFolder', dir);
    let count = 0;
    let truncated = false;
    const walk = async (folder: string, prefix: string): Promise<TreeNode[]> => {
      const entries = await readdir(folder, { withFileTypes: true });
      entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : 1));
      const nodes: TreeNode[] = [];
      for (const entry of entries) {
        // Links are never shown or followed; temporary files of uploads under way are not files yet.
        if (entry.isSymbolicLink() || entry.name.startsWith(MEDIA_TEMP_PREFIX)) continue;
        const isDir = entry.isDirectory();
        if (!isDir && (!options.files || !entry.isFile())) continue;
        if (count >= options.maxNodes) {
          truncated = true;
          break;
        }
        count++;
        const nodePath = prefix ? `${prefix}/${entry.name}` : entry.name;
        const entryFull = path.join(folder, entry.name);
        if (isDir) {
          nodes.push({ path: nodePath, name: entry.name, type: 'dir', child: await walk(entryFull, nodePath) });
        } else {
          const info = await lstatOrUndefined(entryFull);
          if (!info) continue;
          nodes.push({
            path: nodePath,
            name: entry.name,
            type: 'file',
            size: info.size,
            updateTime: info.mtime.toISOString(),
          });
        }
      }
      return nodes;
    };
    const nodes = await walk(full, dir.join('/'));
    return { nodes, truncated };
  }

  async write(
    area: string,
    segments: string[],
    source: Readable,
    options: { maxBytes: number; overwrite: boolean },
  ): Promise<{ size: number }> {
    const folder = await this.folder(area, segments.slice(0, -1));
    const target = path.join(folder, segments.at(-1) as string);
    const existing = await lstatOrUndefined(target);
    if (existing && (existing.isDirectory() || existing.isSymbolicLink() || !options.overwrite)) {
      throw new FileStoreError(existing.isSymbolicLink() ? 'symlink' : 'exists', segments);
    }
    const temp = path.join(folder, `${MEDIA_TEMP_PREFIX}${randomUUID()}`);
    // O_EXCL: a file (or link) of that name already there is an error, never followed.
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    let size = 0;
    try {
      // Chunks gathered up to 1 MiB, written with one call, before more is read: memory stays flat
      // whatever the size, and a 64 KiB upload chunk does not cost a system call of its own.
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        const block = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        for (let offset = 0; offset < block.length; ) offset += (await handle.write(block, offset)).bytesWritten;
      };
      for await (const chunk of source) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > options.maxBytes) throw new FileStoreError('tooLarge', segments);
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= WRITE_BLOCK_BYTES) await flush();
      }
      await flush();
      await handle.sync();
      await handle.close();
      if (options.overwrite) {
        await rename(temp, target);
      } else {
        // link() fails when the name was taken meanwhile: an upload never replaces a file unasked.
        try {
          await link(temp, target);
        } catch (error) {
          if (code(error) === 'EEXIST') throw new FileStoreError('exists', segments);
          throw error;
        }
        await unlink(temp);
      }
      return { size };
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(temp, { force: true });
      throw error;
    }
  }

  async read(
    area: string,
    segments: string[],
    options: { chunkBytes?: number } = {},
  ): Promise<{ stream: Readable; size: number; updateTime: Date }> {
    const { handle, stats } = await this.openFile(area, segments);
    return {
      stream: handle.createReadStream(options.chunkBytes ? { highWaterMark: options.chunkBytes } : {}),
      size: stats.size,
      updateTime: stats.mtime,
    };
  }

  async readWhole(area: string, segments: string[], maxBytes: number): Promise<{ bytes: Buffer; updateTime: Date }> {
    const { handle, stats } = await this.openFile(area, segments);
    try {
      if (stats.size > maxBytes) throw new FileStoreError('tooLarge', segments);
      const bytes = await handle.readFile();
      if (bytes.length > maxBytes) throw new FileStoreError('tooLarge', segments);
      return { bytes, updateTime: stats.mtime };
    } finally {
      await handle.close();
    }
  }

  /** Opens a file of an area for reading, never through a symbolic link. */
  private async openFile(area: string, segments: string[]): Promise<{ handle: FileHandle; stats: Stats }> {
    const { full, stats } = await this.locate(area, segments);
    if (!stats) throw new FileStoreError('notFound', segments);
    if (!stats.isFile()) throw new FileStoreError('notFile', segments);
    let handle: FileHandle;
    try {
      handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (code(error) === 'ELOOP') throw new FileStoreError('symlink', segments);
      if (code(error) === 'ENOENT') throw new FileStoreError('notFound', segments);
      throw error;
    }
    try {
      return { handle, stats: await handle.stat() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async mkdir(area: string, segments: string[]): Promise<void> {
    await mkdir(this.areaDir(area), { recursive: true });
    const { stats } = await this.locate(area, segments);
    if (stats) throw new FileStoreError('exists', segments);
    for (let i = 1; i <= segments.length; i++) {
      const { full, stats: found } = await this.locate(area, segments.slice(0, i));
      if (found) {
        if (!found.isDirectory()) throw new FileStoreError('notFolder', segments.slice(0, i));
        continue;
      }
      try {
        await mkdir(full);
      } catch (error) {
        if (code(error) !== 'EEXIST' || i === segments.length) {
          throw code(error) === 'EEXIST' ? new FileStoreError('exists', segments) : error;
        }
      }
    }
  }

  async move(area: string, from: string[], to: string[]): Promise<void> {
    const source = await this.locate(area, from);
    if (!source.stats) throw new FileStoreError('notFound', from);
    const parent = await this.folder(area, to.slice(0, -1));
    const target = path.join(parent, to.at(-1) as string);
    if (await lstatOrUndefined(target)) throw new FileStoreError('exists', to);
    await rename(source.full, target);
  }

  async remove(area: string, segments: string[]): Promise<void> {
    const { full, stats } = await this.locate(area, segments);
    if (!stats) throw new FileStoreError('notFound', segments);
    // rm removes a link itself, never what it points to.
    await rm(full, { recursive: true, force: false });
  }

  async size(area: string, maxEntries: number): Promise<{ bytes: number; truncated: boolean }> {
    let bytes = 0;
    const complete = await this.walk(area, maxEntries, async (full, name) => {
      if (!name.startsWith(MEDIA_TEMP_PREFIX)) bytes += (await lstatOrUndefined(full))?.size ?? 0;
    });
    return { bytes, truncated: !complete };
  }

  async sweep(areas: string[], before: Date, maxEntries: number): Promise<number> {
    let removed = 0;
    for (const area of areas) {
      await this.walk(area, maxEntries, async (full, name) => {
        if (!name.startsWith(MEDIA_TEMP_PREFIX)) return;
        const stats = await lstatOrUndefined(full);
        if (stats && stats.mtime < before) {
          await rm(full, { force: true });
          removed++;
        }
      });
    }
    return removed;
  }

  /** Calls `onFile` for each regular file of an area (links never followed); false when cut at `maxEntries`. */
  private async walk(
    area: string,
    maxEntries: number,
    onFile: (full: string, name: string) => Promise<void>,
  ): Promise<boolean> {
    const base = this.areaDir(area);
    const rootStats = await lstatOrUndefined(base);
    if (!rootStats?.isDirectory()) return true;
    let entries = 0;
    const pending = [base];
    while (pending.length > 0) {
      const folder = pending.pop() as string;
      let list: Dirent[];
      try {
        list = await readdir(folder, { withFileTypes: true });
      } catch (error) {
        // A folder removed while walking counts nothing.
        if (code(error) === 'ENOENT') continue;
        throw error;
      }
      for (const entry of list) {
        if (++entries > maxEntries) return false;
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) pending.push(full);
        else if (entry.isFile()) await onFile(full, entry.name);
      }
    }
    return true;
  }

  async *entries(area: string, maxEntries: number): AsyncGenerator<AreaEntry> {
    const base = this.areaDir(area);
    const rootStats = await lstatOrUndefined(base);
    if (!rootStats?.isDirectory()) return;
    let seen = 0;
    const pending: string[][] = [[]];
    while (pending.length > 0) {
      const segments = pending.shift() as string[];
      let list: Dirent[];
      try {
        list = await readdir(path.join(base, ...segments), { withFileTypes: true });
      } catch (error) {
        if (code(error) === 'ENOENT') continue;
        throw error;
      }
      list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of list) {
        if (entry.name.startsWith(MEDIA_TEMP_PREFIX) || !(entry.isDirectory() || entry.isFile())) continue;
        if (++seen > maxEntries) throw new FileStoreError('tooLarge', segments);
        const child = [...segments, entry.name];
        const stats = await lstatOrUndefined(path.join(base, ...child));
        if (!stats) continue;
        if (entry.isDirectory()) pending.push(child);
        yield {
          segments: child,
          type: entry.isDirectory() ? 'dir' : 'file',
          size: stats.size,
          updateTime: stats.mtime,
        };
      }
    }
  }

  async hasArea(area: string): Promise<boolean> {
    return (await lstatOrUndefined(this.areaDir(area)))?.isDirectory() === true;
  }

  async moveArea(from: string, to: string): Promise<void> {
    const source = this.areaDir(from);
    if (!(await lstatOrUndefined(source))) return;
    const target = this.areaDir(to);
    if (await lstatOrUndefined(target)) throw new FileStoreError('exists', []);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(source, target);
  }

  async removeArea(area: string): Promise<void> {
    await rm(this.areaDir(area), { recursive: true, force: true });
  }

  async discardArea(area: string): Promise<void> {
    const full = this.areaDir(area);
    await moveToTrash(this.root, full, path.basename(full).replace(/^\.+/, ''));
  }

  /** The areas directly under `parent` that are called `name` (`projects/<id>/fileServer`). */
  async areasUnder(parent: string, name: string): Promise<string[]> {
    return (await this.areas(parent)).map((folder) => `${parent}/${folder}/${name}`);
  }

  async areas(parent?: string): Promise<string[]> {
    let list: Dirent[];
    try {
      list = await readdir(parent === undefined ? this.root : this.areaDir(parent), { withFileTypes: true });
    } catch (error) {
      if (code(error) === 'ENOENT') return [];
      throw error;
    }
    return list
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  }
}
