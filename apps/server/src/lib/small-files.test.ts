import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES, builtinContent } from '../modules/templates/template-builtins.js';
import { TemplateImageStore } from '../modules/templates/template-image-store.js';
import { TemplateFiles, writePackage } from '../modules/templates/template-package.js';
import { type S3TestServer, startS3Server } from '../test/s3-server.js';
import { TINY_PNG } from '../test/test-app.js';
import { ArchiveReader } from './archive/archive-reader.js';
import type { FileStore } from './file-store.js';
import { S3FileStore } from './s3-file-store.js';
import { Storage } from './storage.js';

/**
 * Certificates, uploaded images, template images and template packages (issue 35) on both stores:
 * on disk in the data directory as before; in object storage, written by one node and seen by
 * another with its own data directory, nothing left on the writer's disk.
 */
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());

interface Node {
  dataDir: string;
  shelf: FileStore | undefined;
}
let one: Node;
let two: Node;
const made: string[] = [];
const dataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gantry-small-'));
  made.push(dir);
  return dir;
};
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe.each(['disk', 's3'] as const)('small files on %s', (kind) => {
  beforeEach(async () => {
    if (kind === 'disk') {
      const dir = await dataDir();
      one = { dataDir: dir, shelf: undefined };
      two = one;
      return;
    }
    const prefix = `small-${randomUUID()}/`;
    one = { dataDir: await dataDir(), shelf: new S3FileStore(s3.location(prefix)) };
    two = { dataDir: await dataDir(), shelf: new S3FileStore(s3.location(prefix)) };
  });
  const onDisk = (node: Node, ...parts: string[]) => existsSync(path.join(node.dataDir, ...parts));

  it('writes, reads and removes certificates and images', async () => {
    const writer = new Storage(one.dataDir, one.shelf);
    const reader = new Storage(two.dataDir, two.shelf);
    await writer.write('projects', 'p1/cert/site.key', Buffer.from('key-1'));
    await writer.write('projects', 'p1/cert/site.key', Buffer.from('key-2'));
    await writer.write('images', 'a.png', TINY_PNG);
    expect((await reader.read('projects', 'p1/cert/site.key'))?.toString()).toBe('key-2');
    expect(await reader.read('images', 'a.png')).toEqual(TINY_PNG);
    expect(await reader.read('images', 'b.png')).toBeUndefined();
    expect(onDisk(one, 'projects', 'p1', 'cert', 'site.key')).toBe(kind === 'disk');
    await reader.remove('projects', 'p1');
    expect(await writer.read('projects', 'p1/cert/site.key')).toBeUndefined();
    await reader.remove('projects', 'p1');
    expect(() => writer.resolve('images', '../x')).toThrow();
  });

  it('stores template images once, checks and sweeps them', async () => {
    const writer = new TemplateImageStore(one.dataDir, one.shelf);
    const reader = new TemplateImageStore(two.dataDir, two.shelf);
    const url = await writer.save(TINY_PNG);
    expect(await writer.save(TINY_PNG)).toBe(url);
    const name = url.slice(url.lastIndexOf('/') + 1);
    expect((await reader.read(name)).bytes).toEqual(TINY_PNG);
    await reader.checkExists('cover', [url]);
    expect(onDisk(one, 'template-images', name)).toBe(kind === 'disk');
    await reader.sweep(async () => new Set([name]), Date.now() + 60_000);
    await writer.checkExists('cover', [url]);
    await reader.sweep(async () => new Set(), Date.now() - 60_000);
    await writer.checkExists('cover', [url]);
    await reader.sweep(async () => new Set(), Date.now() + 60_000);
    await expect(writer.checkExists('cover', [url])).rejects.toMatchObject({ code: 'validation' });
    await expect(reader.read(name)).rejects.toMatchObject({ code: 'notFound' });
    // No image left: the names in use (a statement at each start) are not asked for.
    await reader.sweep(() => Promise.reject(new Error('names read without an image')), Date.now() + 60_000);
  });

  it('writes a template package on one node and opens it on the other', async () => {
    const template = BUILTIN_TEMPLATES[0];
    if (!template) throw new Error('no built-in template');
    const writer = new TemplateFiles(one.dataDir, one.shelf);
    const reader = new TemplateFiles(two.dataDir, two.shelf);
    const written = await writePackage(
      writer,
      'pkg.zip',
      builtinContent(template),
      { id: template.id, name: template.name.en },
      new Date(),
    );
    expect(await reader.has('', 'pkg.zip')).toBe(true);
    expect(onDisk(one, 'templates', 'pkg.zip')).toBe(kind === 'disk');
    const names = await reader.openLocal('', 'pkg.zip', async (local) => {
      const archive = await ArchiveReader.open(local);
      try {
        return archive.entries.map((entry) => entry.filename);
      } finally {
        await archive.close();
      }
    });
    expect(names).toContain('manifest.json');
    const kept = await reader.stream('', 'pkg.zip');
    expect(kept?.size).toBe(written.bytes);
    kept?.stream.destroy();
    const shelved = [];
    for await (const entry of reader.shelved('', 10)) shelved.push(entry.name);
    expect(shelved).toEqual(kind === 's3' ? ['pkg.zip'] : []);
    await reader.discard('', 'pkg.zip');
    expect(await writer.has('', 'pkg.zip')).toBe(false);
    expect(await writer.stream('', 'pkg.zip')).toBeUndefined();
  });
});
