import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { errorCode } from '@gantry/shared';
import { type FileStore, FileStoreError } from './file-store.js';

/** The largest small file (a certificate, an uploaded image) read back from object storage. */
const SMALL_FILE_MAX_BYTES = 64 * 1024 * 1024;

const notFound = (error: unknown) => error instanceof FileStoreError && error.problem === 'notFound';

/**
 * Small files (certificates, uploaded images) under the data directory (design D4), or, with
 * `shelf` (object storage), in the store at the same area and name so that every node sees them.
 * Every path is confined to its area; names come from the server (content hashes), never straight
 * from user input.
 */
export class Storage {
  constructor(
    private readonly root: string,
    private readonly shelf?: FileStore,
  ) {}

  resolve(area: string, name: string): string {
    const base = path.resolve(this.root, area);
    const full = path.resolve(base, name);
    if (!full.startsWith(base + path.sep)) throw new Error(`Path escapes its area: ${area}/${name}`);
    return full;
  }

  /** The store's area and segments of `name` (its folders joined to the area). */
  private located(area: string, name: string): { area: string; segments: string[] } {
    this.resolve(area, name);
    const parts = name.split('/');
    const last = parts.pop() ?? '';
    return { area: [area, ...parts].join('/'), segments: [last] };
  }

  /** Writes atomically: a temporary file renamed into place (an object appears whole). */
  async write(area: string, name: string, data: Uint8Array): Promise<void> {
    if (this.shelf) {
      const at = this.located(area, name);
      await this.shelf.write(at.area, at.segments, Readable.from([Buffer.from(data)]), {
        maxBytes: data.length,
        overwrite: true,
      });
      return;
    }
    const target = this.resolve(area, name);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    await writeFile(temp, data);
    await rename(temp, target);
  }

  async read(area: string, name: string): Promise<Buffer | undefined> {
    if (this.shelf) {
      const at = this.located(area, name);
      try {
        return (await this.shelf.readWhole(at.area, at.segments, SMALL_FILE_MAX_BYTES)).bytes;
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    }
    try {
      return await readFile(this.resolve(area, name));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Removes a file or a whole folder of an area (local scratch too, with a shelf); nothing to remove
   * is not an error.
   */
  async remove(area: string, name: string): Promise<void> {
    await rm(this.resolve(area, name), { recursive: true, force: true });
    if (this.shelf) {
      const at = this.located(area, name);
      await this.shelf.remove(at.area, at.segments).catch((error: unknown) => {
        if (!notFound(error)) throw error;
      });
    }
  }
}
