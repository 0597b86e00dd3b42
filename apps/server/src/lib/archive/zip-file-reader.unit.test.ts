import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipFileReader, ZipReadError } from './zip-file-reader.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gantry-zip-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = Buffer.from('line of text\n'.repeat(20_000));
const random = randomBytes(300_000);

async function readAll(file: string): Promise<Map<string, Buffer | 'dir'>> {
  const handle = await open(file, 'r');
  try {
    const zip = await ZipFileReader.open(handle, { maxEntries: 100 });
    const found = new Map<string, Buffer | 'dir'>();
    for (const entry of zip.entries) {
      if (entry.directory) {
        found.set(entry.filename, 'dir');
        continue;
      }
      const parts: Buffer[] = [];
      await zip.read(entry, (chunk) => {
        parts.push(Buffer.from(chunk));
      });
      found.set(entry.filename, Buffer.concat(parts));
    }
    return found;
  } finally {
    await handle.close();
  }
}

/** An archive made by Info-ZIP's `zip` from a folder (`options` as given to it). */
function infoZip(name: string, options: string[]): string {
  const source = path.join(dir, `${name}-src`);
  mkdirSync(path.join(source, 'sub'), { recursive: true });
  writeFileSync(path.join(source, 'text.txt'), text);
  writeFileSync(path.join(source, 'sub', 'random.bin'), random);
  const file = path.join(dir, `${name}.zip`);
  execFileSync('zip', ['-q', '-r', ...options, file, '.'], { cwd: source });
  return file;
}

describe('ZipFileReader', () => {
  for (const [what, options] of [
    ['deflated', []],
    ['stored (zip -0)', ['-0']],
    ['with data descriptors (zip -fd)', ['-fd']],
  ] as const) {
    it(`reads an archive Info-ZIP wrote, ${what}, byte for byte`, async () => {
      const found = await readAll(infoZip(what.replace(/\W+/g, '-'), [...options]));
      expect((found.get('text.txt') as Buffer).equals(text)).toBe(true);
      expect((found.get('sub/random.bin') as Buffer).equals(random)).toBe(true);
      expect(found.get('sub/')).toBe('dir');
    });
  }

  it('refuses a damaged entry (CRC-32 or inflate), a file that is no zip, and a cut one', async () => {
    const good = infoZip('damaged', []);
    const bytes = readFileSync(good);
    // Spoil the middle of the text entry's compressed data (it comes first, after its header).
    const spoiled = Buffer.from(bytes);
    for (let i = 200; i < 240; i++) spoiled[i] = (spoiled[i] ?? 0) ^ 0x5a;
    writeFileSync(path.join(dir, 'spoiled.zip'), spoiled);
    await expect(readAll(path.join(dir, 'spoiled.zip'))).rejects.toMatchObject({ reason: 'damaged' });

    writeFileSync(path.join(dir, 'noise.zip'), randomBytes(5000));
    await expect(readAll(path.join(dir, 'noise.zip'))).rejects.toBeInstanceOf(ZipReadError);
    writeFileSync(path.join(dir, 'cut.zip'), bytes.subarray(0, bytes.length - 30));
    await expect(readAll(path.join(dir, 'cut.zip'))).rejects.toMatchObject({ reason: 'notZip' });
  });

  it('stops listing after maxEntries + 1 entries (the caller refuses that many)', async () => {
    const source = path.join(dir, 'many-src');
    mkdirSync(source, { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(path.join(source, `f${i}.txt`), `${i}`);
    const file = path.join(dir, 'many.zip');
    execFileSync('zip', ['-q', '-r', file, '.'], { cwd: source });
    const handle = await open(file, 'r');
    try {
      expect((await ZipFileReader.open(handle, { maxEntries: 10 })).entries).toHaveLength(11);
    } finally {
      await handle.close();
    }
  });
});
