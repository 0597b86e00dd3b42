import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type S3TestServer, startS3Server } from '../test/s3-server.js';
import { DiskFileStore, type FileStore, FileStoreError } from './file-store.js';
import { S3FileStore } from './s3-file-store.js';

/**
 * What every module may rely on from a file store (lib/file-store.ts), run against both stores: the
 * disk, and object storage on a private S3-compatible server started here (test/s3-server.ts).
 */
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());

const problemOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof FileStoreError) return error.problem;
    throw error;
  }
  return undefined;
};

const bytes = (text: string) => Readable.from([Buffer.from(text)]);
const put = (store: FileStore, area: string, segments: string[], text: string) =>
  store.write(area, segments, bytes(text), { maxBytes: 1024, overwrite: false });
const text = async (store: FileStore, area: string, segments: string[]) =>
  (await store.readWhole(area, segments, 1024)).bytes.toString();
const names = async (store: FileStore, area: string, dir: string[] = []) =>
  (await store.tree(area, dir, { files: true, maxNodes: 100 })).nodes.map((node) => node.name);

/** `count` blocks of 1 MiB, each filled from its number: a stream of known content never held whole. */
function megabytes(count: number): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) yield Buffer.alloc(1024 * 1024, i % 251);
    })(),
  );
}
const sha256Of = async (stream: Readable) => {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/** A fresh, empty store and what removes it. */
type Fresh = () => Promise<{ store: FileStore; cleanup: () => Promise<void> }>;
const disk: Fresh = async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'gantry-contract-'));
  return { store: new DiskFileStore(root), cleanup: () => rm(root, { recursive: true, force: true }) };
};
// Each test under a prefix of its own in the one bucket (as installs sharing a bucket would be).
const objects: Fresh = async () => ({
  store: new S3FileStore(s3.location(`run-${randomUUID()}/`)),
  cleanup: async () => {},
});

describe.each([
  ['disk', disk],
  ['s3', objects],
])('file store contract: %s', (_kind, fresh) => {
  let store: FileStore;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ store, cleanup } = await fresh());
  });
  afterEach(() => cleanup());

  it('writes, reads and replaces only when asked; refuses what is over the limit, leaving nothing', async () => {
    expect(await put(store, 'a', ['f.txt'], 'hello')).toEqual({ size: 5 });
    expect(await text(store, 'a', ['f.txt'])).toBe('hello');
    expect(await problemOf(put(store, 'a', ['f.txt'], 'again'))).toBe('exists');
    await store.write('a', ['f.txt'], bytes('replaced'), { maxBytes: 1024, overwrite: true });
    expect(await text(store, 'a', ['f.txt'])).toBe('replaced');
    const over = store.write('a', ['g.bin'], Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), {
      maxBytes: 10,
      overwrite: false,
    });
    expect(await problemOf(over)).toBe('tooLarge');
    expect(await store.stat('a', ['g.bin'])).toBeUndefined();
    expect(await names(store, 'a')).toEqual(['f.txt']);
    expect(await store.stat('a', ['f.txt'])).toMatchObject({ type: 'file', size: 8 });
    expect(await store.size('a', 100)).toEqual({ bytes: 8, truncated: false });
    expect(await store.size('none', 100)).toEqual({ bytes: 0, truncated: false });
    expect(await problemOf(store.readWhole('a', ['f.txt'], 4))).toBe('tooLarge');
    expect(await problemOf(store.read('a', ['missing']))).toBe('notFound');
  });

  it('streams a file larger than a multipart part both ways, and refuses one over the limit midway', async () => {
    const expected = await sha256Of(megabytes(20));
    expect(await store.write('big', ['f.bin'], megabytes(20), { maxBytes: 20 * 1024 ** 2, overwrite: false })).toEqual({
      size: 20 * 1024 ** 2,
    });
    const read = await store.read('big', ['f.bin'], { chunkBytes: 1024 * 1024 });
    expect(read.size).toBe(20 * 1024 ** 2);
    const sizes = new Set<number>();
    const hash = createHash('sha256');
    for await (const chunk of read.stream) {
      sizes.add((chunk as Buffer).length);
      hash.update(chunk as Buffer);
    }
    expect(hash.digest('hex')).toBe(expected);
    expect([...sizes]).toEqual([1024 * 1024]);
    const over = store.write('big', ['g.bin'], megabytes(20), { maxBytes: 17 * 1024 ** 2, overwrite: false });
    expect(await problemOf(over)).toBe('tooLarge');
    expect(await names(store, 'big')).toEqual(['f.bin']);
  });

  it('makes folders with their parents, lists folders first, and refuses what is in the way', async () => {
    await store.mkdir('m', ['x', 'y', 'z']);
    await store.mkdir('m', ['empty']);
    await put(store, 'm', ['x', 'note.txt'], 'n');
    await put(store, 'm', ['a.txt'], 'a');
    expect(await problemOf(store.mkdir('m', ['x', 'y']))).toBe('exists');
    expect(await problemOf(store.mkdir('m', ['a.txt', 'sub']))).toBe('notFolder');
    expect(await problemOf(put(store, 'm', ['nowhere', 'f.txt'], 'f'))).toBe('notFound');
    expect(await problemOf(put(store, 'm', ['x'], 'f'))).toBe('exists');
    const tree = await store.tree('m', [], { files: true, maxNodes: 100 });
    expect(tree.truncated).toBe(false);
    expect(tree.nodes.map((node) => [node.path, node.type])).toEqual([
      ['empty', 'dir'],
      ['x', 'dir'],
      ['a.txt', 'file'],
    ]);
    expect(tree.nodes[1]?.child?.map((node) => node.path)).toEqual(['x/y', 'x/note.txt']);
    expect(tree.nodes[1]?.child?.[0]?.child?.map((node) => node.path)).toEqual(['x/y/z']);
    const folders = await store.tree('m', ['x'], { files: false, maxNodes: 100 });
    expect(folders.nodes.map((node) => node.path)).toEqual(['x/y']);
    expect(await store.tree('m', [], { files: true, maxNodes: 2 })).toMatchObject({ truncated: true });
    expect(await problemOf(store.tree('m', ['a.txt'], { files: true, maxNodes: 10 }))).toBe('notFolder');
    expect(await problemOf(store.tree('m', ['gone'], { files: true, maxNodes: 10 }))).toBe('notFound');
    expect(await store.stat('m', ['empty'])).toMatchObject({ type: 'dir' });
  });

  it('moves files and whole folders, keeping the folder they left; removes files and trees', async () => {
    await store.mkdir('v', ['from', 'deep']);
    await put(store, 'v', ['from', 'deep', 'f.txt'], 'deep');
    await put(store, 'v', ['from', 'g.txt'], 'g');
    await store.mkdir('v', ['to']);
    await store.move('v', ['from', 'g.txt'], ['to', 'g2.txt']);
    expect(await text(store, 'v', ['to', 'g2.txt'])).toBe('g');
    await store.move('v', ['from', 'deep'], ['to', 'deep']);
    expect(await text(store, 'v', ['to', 'deep', 'f.txt'])).toBe('deep');
    // The emptied folder is still there, as on disk.
    expect(await store.stat('v', ['from'])).toMatchObject({ type: 'dir' });
    expect(await names(store, 'v', ['from'])).toEqual([]);
    expect(await problemOf(store.move('v', ['to', 'g2.txt'], ['to', 'deep']))).toBe('exists');
    expect(await problemOf(store.move('v', ['nothing'], ['to', 'x']))).toBe('notFound');
    expect(await problemOf(store.move('v', ['to', 'g2.txt'], ['missing', 'x']))).toBe('notFound');
    await store.remove('v', ['to', 'deep']);
    expect(await store.stat('v', ['to', 'deep'])).toBeUndefined();
    expect(await store.stat('v', ['to', 'deep', 'f.txt'])).toBeUndefined();
    await store.remove('v', ['to', 'g2.txt']);
    expect(await store.stat('v', ['to'])).toMatchObject({ type: 'dir' });
    expect(await problemOf(store.remove('v', ['to', 'g2.txt']))).toBe('notFound');
  });

  it('walks every entry, parents before children, and fails past the bound instead of cutting', async () => {
    await store.mkdir('e', ['d1', 'd2']);
    await put(store, 'e', ['d1', 'd2', 'f3'], '333');
    await put(store, 'e', ['d1', 'f2'], '22');
    await put(store, 'e', ['f1'], '1');
    const seen: string[] = [];
    for await (const entry of store.entries('e', 100)) {
      const parent = entry.segments.slice(0, -1).join('/');
      if (parent) expect(seen).toContain(`dir:${parent}`);
      seen.push(`${entry.type}:${entry.segments.join('/')}`);
      if (entry.type === 'file') expect(entry.size).toBe(Number(entry.segments.at(-1)?.slice(1)));
    }
    expect(seen.sort()).toEqual(['dir:d1', 'dir:d1/d2', 'file:d1/d2/f3', 'file:d1/f2', 'file:f1']);
    const bounded = async () => {
      for await (const _entry of store.entries('e', 3));
    };
    expect(await problemOf(bounded())).toBe('tooLarge');
    expect(await store.size('e', 100)).toEqual({ bytes: 6, truncated: false });
  });

  it('lists, moves, removes and discards whole areas', async () => {
    await put(store, 'projects/p1/fileServer', ['a.txt'], 'a');
    await store.mkdir('projects/p2/fileServer', ['only-a-folder']);
    expect((await store.areasUnder('projects', 'fileServer')).sort()).toEqual([
      'projects/p1/fileServer',
      'projects/p2/fileServer',
    ]);
    expect(await store.areasUnder('nothing', 'fileServer')).toEqual([]);
    await put(store, 'backups/p1', ['b.zip'], 'b');
    expect(await store.areas()).toEqual(['backups', 'projects']);
    expect(await store.areas('projects')).toEqual(['p1', 'p2']);
    expect(await store.areas('nothing')).toEqual([]);
    await store.removeArea('backups');
    expect(await store.hasArea('projects/p1/fileServer')).toBe(true);
    expect(await store.hasArea('projects/p3/fileServer')).toBe(false);
    await store.moveArea('projects/p1/fileServer', 'projects/p3/fileServer');
    expect(await store.hasArea('projects/p1/fileServer')).toBe(false);
    expect(await text(store, 'projects/p3/fileServer', ['a.txt'])).toBe('a');
    expect(await problemOf(store.moveArea('projects/p2/fileServer', 'projects/p3/fileServer'))).toBe('exists');
    await store.moveArea('projects/none/fileServer', 'projects/p4/fileServer');
    await store.discardArea('projects/p3/fileServer');
    await store.removeArea('projects/p2/fileServer');
    await store.removeArea('projects/none/fileServer');
    for (const project of ['p1', 'p2', 'p3', 'p4'])
      expect(await store.hasArea(`projects/${project}/fileServer`)).toBe(false);
  });

  it('refuses an unchecked segment or area outright (callers check paths first)', async () => {
    await expect(store.stat('a', ['..'])).rejects.toThrow('Unchecked path segment');
    await expect(store.stat('a', ['x/y'])).rejects.toThrow('Unchecked path segment');
    await expect(store.stat('../outside', [])).rejects.toThrow('Area escapes');
  });
});
