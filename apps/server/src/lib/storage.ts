import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '@gantry/shared';

/**
 * Files under the data directory (design D4). Every path is confined to its area; names come from
 * the server (content hashes), never straight from user input.
 */
export class Storage {
  constructor(private readonly root: string) {}

  resolve(area: string, name: string): string {
    const base = path.resolve(this.root, area);
    const full = path.resolve(base, name);
    if (!full.startsWith(base + path.sep)) throw new Error(`Path escapes its area: ${area}/${name}`);
    return full;
  }

  /** Writes atomically: a temporary file renamed into place. */
  async write(area: string, name: string, data: Uint8Array): Promise<void> {
    const target = this.resolve(area, name);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    await writeFile(temp, data);
    await rename(temp, target);
  }

  async read(area: string, name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.resolve(area, name));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Removes a file or a whole folder of an area; nothing to remove is not an error. */
  async remove(area: string, name: string): Promise<void> {
    await rm(this.resolve(area, name), { recursive: true, force: true });
  }
}
