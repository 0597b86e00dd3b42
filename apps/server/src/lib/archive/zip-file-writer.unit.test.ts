import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveReader } from './archive-reader.js';
import { ZipFileWriter } from './zip-file-writer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gantry-zip-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function contents(file: string): Promise<Map<string, Buffer | 'dir'>> {
  const reader = await ArchiveReader.open(file);
  try {
    const found = new Map<string, Buffer | 'dir'>();
    for (const entry of reader.entries) {
      if (entry.directory) {
        found.set(entry.filename, 'dir');
        continue;
      }
      const parts: Buffer[] = [];
      await reader.read(entry, (chunk) => {
        parts.push(Buffer.from(chunk));
      });
      found.set(entry.filename, Buffer.concat(parts));
    }
    return found;
  } finally {
    await reader.close();
  }
}

/** Debian's 7z (installed by .ci/run) tests every entry's CRC-32. */
function sevenZipTest(file: string): string {
  return execFileSync('7z', ['t', file], { encoding: 'utf8' });
}

describe('ZipFileWriter', () => {
  const text = Buffer.from('línea de texto\n'.repeat(50_000));
  const random = randomBytes(3 * 1024 * 1024 + 17);
  const when = new Date('2024-05-06T07:08:10Z');

  for (const zip64LocalFrom of [undefined, 0]) {
    it(`writes entries that zip.js and 7z read back byte for byte (${zip64LocalFrom === 0 ? 'ZIP64 local headers' : 'plain headers'})`, async () => {
      const file = path.join(dir, `plain-${zip64LocalFrom ?? 'auto'}.zip`);
      const zip = await ZipFileWriter.create(file, zip64LocalFrom === undefined ? {} : { zip64LocalFrom });
      const written = [
        await zip.add('mongodb/data.jsonl', chunks(text, 4096)),
        await zip.add('fileServer/a/β.bin', chunks(random, 1 << 20), {
          lastModified: when,
          expectedSize: random.length,
        }),
        await zip.add('fileServer/empty.txt', [], { expectedSize: 0 }),
      ];
      await zip.addDir('fileServer/a');
      const size = await zip.finish();
      expect(size).toBe(statSync(file).size);
      expect(written.map((entry) => [entry.path, entry.size, entry.sha256])).toEqual([
        ['mongodb/data.jsonl', text.length, createHash('sha256').update(text).digest('hex')],
        ['fileServer/a/β.bin', random.length, createHash('sha256').update(random).digest('hex')],
        ['fileServer/empty.txt', 0, createHash('sha256').digest('hex')],
      ]);
      const found = await contents(file);
      expect([...found.keys()]).toEqual([
        'mongodb/data.jsonl',
        'fileServer/a/β.bin',
        'fileServer/empty.txt',
        'fileServer/a/',
      ]);
      expect((found.get('mongodb/data.jsonl') as Buffer).equals(text)).toBe(true);
      expect((found.get('fileServer/a/β.bin') as Buffer).equals(random)).toBe(true);
      expect((found.get('fileServer/empty.txt') as Buffer).length).toBe(0);
      const reader = await ArchiveReader.open(file);
      const stamped = reader.entries.find((entry) => entry.filename === 'fileServer/a/β.bin');
      await reader.close();
      expect(stamped?.lastModDate.getTime()).toBe(when.getTime());
      // Text compresses (level 1), random bytes barely grow.
      expect(size).toBeLessThan(random.length + text.length / 5);
      expect(sevenZipTest(file)).toMatch(/Everything is Ok/);
    });
  }

  it('writes the ZIP64 end records when there are more than 65,535 entries', async () => {
    const file = path.join(dir, 'many.zip');
    const zip = await ZipFileWriter.create(file);
    const count = 66_000;
    for (let i = 0; i < count; i++) await zip.addDir(`d${i}`);
    await zip.add('last.txt', [Buffer.from('the end')], { expectedSize: 7 });
    await zip.finish();
    const reader = await ArchiveReader.open(file);
    expect(reader.entries.length).toBe(count + 1);
    expect(reader.entries.at(-1)?.filename).toBe('last.txt');
    await reader.close();
    expect(sevenZipTest(file)).toMatch(/Everything is Ok/);
  }, 120_000);

  it('refuses to overwrite a file, and a failing source leaves the writer abortable', async () => {
    const file = path.join(dir, 'exists.zip');
    const zip = await ZipFileWriter.create(file);
    await expect(ZipFileWriter.create(file)).rejects.toThrow(/EEXIST/);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('start');
      throw new Error('disk went away');
    }
    await expect(zip.add('x.txt', failing())).rejects.toThrow('disk went away');
    await zip.abort();
  });
});
