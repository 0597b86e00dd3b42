import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { moveToTrash, TRASH_FOLDER, Trash } from './trash.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gantry-trash-'));
  dirs.push(dir);
  return dir;
}

/** A folder of `folders` × `files` files, and one file at its root. */
async function tree(root: string, folders: number, files: number): Promise<void> {
  for (let f = 0; f < folders; f++) {
    await mkdir(path.join(root, `folder-${f}`, 'deeper'), { recursive: true });
    for (let i = 0; i < files; i++) await writeFile(path.join(root, `folder-${f}`, `file-${i}`), 'x');
    await writeFile(path.join(root, `folder-${f}`, 'deeper', 'last'), 'x');
  }
  await writeFile(path.join(root, 'top'), 'x');
}

function recorder() {
  const lines: Array<{ message: string; fields: Record<string, unknown> }> = [];
  const log = {
    info: (fields: Record<string, unknown>, message: string) => lines.push({ message, fields }),
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ message, fields }),
  };
  return { lines, log };
}

describe('trash', () => {
  it('moves a folder into the trash in one rename under a name of its own; a missing one is nothing', async () => {
    const dir = await dataDir();
    const staging = path.join(dir, 'projects', 'p1', '.restore-r1');
    await tree(staging, 2, 3);
    const inode = (await stat(staging)).ino;
    expect(await moveToTrash(dir, staging, 'restore-r1')).toBe(true);
    expect(await moveToTrash(dir, staging, 'restore-r1')).toBe(false);
    await tree(staging, 1, 1);
    expect(await moveToTrash(dir, staging, 'restore-r1')).toBe(true);
    const names = await readdir(path.join(dir, TRASH_FOLDER));
    expect(names).toHaveLength(2);
    expect(names.every((name) => name.startsWith('restore-r1-'))).toBe(true);
    const inodes = await Promise.all(names.map(async (name) => (await stat(path.join(dir, TRASH_FOLDER, name))).ino));
    expect(inodes).toContain(inode);
    expect(await readdir(path.join(dir, 'projects', 'p1'))).toEqual([]);
  });

  it('empties the trash, logged at start and end, and never follows a link out of it', async () => {
    const dir = await dataDir();
    const outside = path.join(dir, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'keep'), 'kept');
    const staging = path.join(dir, 'staging');
    await tree(staging, 3, 20);
    await symlink(outside, path.join(staging, 'folder-0', 'link-to-folder'));
    await symlink(path.join(outside, 'keep'), path.join(staging, 'link-to-file'));
    await moveToTrash(dir, staging, 'a');
    await writeFile(path.join(dir, 'loose'), 'x');
    await moveToTrash(dir, path.join(dir, 'loose'), 'b');
    // A link moved in whole (a planted one): the link goes, never what it points to.
    await symlink(outside, path.join(dir, 'planted'));
    await moveToTrash(dir, path.join(dir, 'planted'), 'c');
    const { lines, log } = recorder();
    const trash = new Trash(dir, log);
    await Promise.all([trash.empty(), trash.empty()]);
    expect(await readdir(path.join(dir, TRASH_FOLDER))).toEqual([]);
    expect(await readdir(outside)).toEqual(['keep']);
    expect(await readFile(path.join(outside, 'keep'), 'utf8')).toBe('kept');
    expect(lines.map((line) => line.message)).toEqual(['emptying the restore trash', 'restore trash emptied']);
    // 3 × (20 files + last + deeper + the folder) + top + 2 links + the staging folder + loose + planted.
    expect(lines[1]?.fields.removed).toBe(3 * 23 + 1 + 2 + 1 + 1 + 1);
    // Nothing in the trash: nothing logged.
    await trash.empty();
    expect(lines).toHaveLength(2);
  });

  it('a stopped run leaves the rest, which the next one removes', async () => {
    const dir = await dataDir();
    const staging = path.join(dir, 'staging');
    await tree(staging, 20, 50);
    await moveToTrash(dir, staging, 'big');
    const first = recorder();
    const trash = new Trash(dir, {
      ...first.log,
      // Stopped as soon as the run has begun (a close while it removes).
      info: (fields: Record<string, unknown>, message: string) => {
        first.log.info(fields, message);
        if (message === 'emptying the restore trash') void trash.stop();
      },
    });
    await trash.empty();
    expect(first.lines.map((line) => line.message)).toEqual([
      'emptying the restore trash',
      'emptying the restore trash stopped',
    ]);
    const removed = Number(first.lines[1]?.fields.removed);
    expect(removed).toBeLessThan(20 * 53 + 2);
    expect(await readdir(path.join(dir, TRASH_FOLDER))).toHaveLength(1);
    // A stopped trash starts nothing more.
    await trash.empty();
    expect(first.lines).toHaveLength(2);

    const second = recorder();
    await new Trash(dir, second.log).empty();
    expect(second.lines.map((line) => line.message)).toEqual(['emptying the restore trash', 'restore trash emptied']);
    expect(Number(second.lines[1]?.fields.removed) + removed).toBe(20 * 53 + 2);
    expect(await readdir(path.join(dir, TRASH_FOLDER))).toEqual([]);
  });
});
