import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { deflateMixed, looksIncompressible, MIXED_CHUNK } from './deflate-mixed.js';
import { compressEntry, ZipFileWriter } from './zip-file-writer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'gantry-deflate-mixed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (bytes: number) => Buffer.alloc(bytes, 'row 12; {"name":"pump 7","value":42.5}\n');
/** Bytes a stored copy of `bytes` takes: 5 per block of up to 65,535. */
const storedSize = (bytes: number) => bytes + 5 * Math.ceil(bytes / 0xffff);

describe('deflateMixed', () => {
  it('stores the random parts, deflates the rest, and inflates back to the same bytes', async () => {
    const parts = [randomBytes(200 * 1024), text(300 * 1024), randomBytes(100 * 1024 + 17), text(5 * 1024)];
    const input = Buffer.concat(parts);
    const output = await deflateMixed(input);
    expect(inflateRawSync(output).equals(input)).toBe(true);
    // The random bytes are there as they were (stored), not re-encoded.
    expect(output.indexOf((parts[0] as Buffer).subarray(70_000, 74_096))).toBeGreaterThanOrEqual(0);
    // No larger than storing the random parts and deflating the text.
    const random = 300 * 1024 + 17;
    // (chunks that hold both kinds are deflated whole, a few KiB of random bytes among them).
    expect(output.length).toBeLessThan(storedSize(random) + 8 * 1024);
    // About as small as plain level-1 deflate of the same bytes.
    expect(output.length).toBeLessThanOrEqual(deflateRawSync(input, { level: 1 }).length * 1.01);
  });

  it('stores bytes that do not compress, block by block', async () => {
    const input = randomBytes(3 * MIXED_CHUNK);
    const output = await deflateMixed(input);
    expect(output.length).toBe(storedSize(input.length) + 5);
    expect(inflateRawSync(output).equals(input)).toBe(true);
    // A tail too short to judge is deflated after the stored blocks.
    const tailed = Buffer.concat([input, randomBytes(5)]);
    expect(inflateRawSync(await deflateMixed(tailed)).equals(tailed)).toBe(true);
  });

  it('deflates compressible bytes exactly as plain level-1 deflate, and an empty buffer too', async () => {
    const input = text(1024 * 1024);
    expect((await deflateMixed(input)).equals(deflateRawSync(input, { level: 1, memLevel: 9 }))).toBe(true);
    expect(inflateRawSync(await deflateMixed(Buffer.alloc(0))).length).toBe(0);
  });

  it('tells random bytes from text, base64 and a record with one random byte in eight', () => {
    const random = randomBytes(MIXED_CHUNK);
    expect(looksIncompressible(random, 0, random.length)).toBe(true);
    const json = text(MIXED_CHUNK);
    expect(looksIncompressible(json, 0, json.length)).toBe(false);
    const base64 = Buffer.from(randomBytes(MIXED_CHUNK).toString('base64'));
    expect(looksIncompressible(base64, 0, MIXED_CHUNK)).toBe(false);
    const records = Buffer.alloc(MIXED_CHUNK);
    for (let at = 0; at < records.length; at += 8) records[at] = random[at] as number;
    expect(looksIncompressible(records, 0, records.length)).toBe(false);
    // A short tail cannot show 8 bits of entropy: it is deflated.
    expect(looksIncompressible(random, 0, 4096)).toBe(false);
  });

  it('inflates back to any mix of random and repeated runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 150_000 })), { maxLength: 6 }),
        async (runs) => {
          const input = Buffer.concat(runs.map(([random, size]) => (random ? randomBytes(size) : text(size))));
          expect(inflateRawSync(await deflateMixed(input)).equals(input)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('gives zip entries that 7z tests and unzip extracts', async () => {
    const input = Buffer.concat([randomBytes(150 * 1024), text(200 * 1024), randomBytes(70 * 1024)]);
    const file = path.join(dir, 'mixed.zip');
    const zip = await ZipFileWriter.create(file);
    await zip.addCompressed('fileServer/photo-and-notes.bin', await compressEntry(input));
    await zip.finish();
    expect(execFileSync('7z', ['t', file], { encoding: 'utf8' })).toMatch(/Everything is Ok/);
    expect(
      execFileSync('unzip', ['-p', file, 'fileServer/photo-and-notes.bin'], { maxBuffer: 1 << 24 }).equals(input),
    ).toBe(true);
  });
});
