import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MEDIA_TEMP_PREFIX } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskFileStore, FileStoreError } from './file-store.js';

let root: string;
let store: DiskFileStore;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gantry-files-'));
  store = new DiskFileStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

const problemOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof FileStoreError) return error.problem;
    throw error;
  }
  return undefined;
};

describe('disk file store', () => {
  it('writes through a temporary file and refuses what is over the limit, leaving nothing', async () => {
    expect(
      await store.write('a', ['f.bin'], Readable.from([Buffer.alloc(10)]), { maxBytes: 10, overwrite: false }),
    ).toEqual({ size: 10 });
    const over = store.write('a', ['g.bin'], Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), {
      maxBytes: 10,
      overwrite: false,
    });
    expect(await problemOf(over)).toBe('tooLarge');
    expect(await readdir(path.join(root, 'a'))).toEqual(['f.bin']);
    expect(await store.size('a', 100)).toEqual({ bytes: 10, truncated: false });
    expect(await store.size('a', 0)).toEqual({ bytes: 0, truncated: true });
    expect(await store.size('none', 100)).toEqual({ bytes: 0, truncated: false });
  });

  it('refuses a link as any component, and never lists one', async () => {
    await mkdir(path.join(root, 'a', 'real'), { recursive: true });
    await symlink(root, path.join(root, 'a', 'up'));
    expect(await problemOf(store.stat('a', ['up', 'a']))).toBe('symlink');
    expect(await problemOf(store.remove('a', ['up']))).toBe('symlink');
    expect((await store.tree('a', [], { files: true, maxNodes: 10 })).nodes.map((n) => n.name)).toEqual(['real']);
    expect(await readdir(root)).toEqual(['a']);
  });

  it('refuses an unchecked segment outright (callers check paths first)', async () => {
    await expect(store.stat('a', ['..'])).rejects.toThrow('Unchecked path segment');
    await expect(store.stat('a', ['x/y'])).rejects.toThrow('Unchecked path segment');
    await expect(store.stat('../outside', [])).rejects.toThrow('Area escapes');
  });

  it('sweeps temporary files of stopped uploads, keeping fresh ones', async () => {
    const folder = path.join(root, 'projects', 'p1', 'fileServer', 'in');
    await mkdir(folder, { recursive: true });
    const stale = path.join(folder, `${MEDIA_TEMP_PREFIX}old`);
    await writeFile(stale, 'half');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, old, old);
    await writeFile(path.join(folder, `${MEDIA_TEMP_PREFIX}fresh`), 'being written');
    await writeFile(path.join(folder, 'kept.txt'), 'kept');
    const areas = await store.areasUnder('projects', 'fileServer');
    expect(areas).toEqual(['projects/p1/fileServer']);
    expect(await store.sweep(areas, new Date(Date.now() - 3600_000), 1000)).toBe(1);
    expect((await readdir(folder)).sort()).toEqual([`${MEDIA_TEMP_PREFIX}fresh`, 'kept.txt']);
    // Temporary files are not counted as the project's files.
    expect(await store.size('projects/p1/fileServer', 1000)).toEqual({ bytes: 4, truncated: false });
  });
});
