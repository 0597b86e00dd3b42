import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import { isPlainObject } from '../list-query/bad-query.js';
import {
  CENTRAL_HEADER,
  END,
  END64,
  END64_LOCATOR,
  EXTENDED_TIME,
  LOCAL_HEADER,
  MAX16,
  MAX32,
  UTF8_NAMES,
  ZIP64_EXTRA,
} from './zip-format.js';

/**
 * Reads a zip file by random access on Node's own zlib: the central directory (ZIP64 included),
 * then any entry's bytes, inflated on the thread pool with its CRC-32 and size checked. The
 * counterpart of zip-file-writer.ts; zip.js still reads the AES-encrypted archives (uploads with a
 * code). Nothing here trusts a declared size beyond the file: every offset is checked against it.
 */

const ENCRYPTED = 0x0001;
const DATA_DESCRIPTOR = 0x0008;
const UNICODE_PATH = 0x7075;
/** A central directory larger than this is refused (about 1.5 million entries). */
const CENTRAL_MAX = 256 * 1024 * 1024;
const BLOCK = 1 << 20;

export interface ZipEntry {
  filename: string;
  /** The name's bytes as the central directory has them: the local header must repeat them. */
  rawName: Buffer;
  flags: number;
  directory: boolean;
  encrypted: boolean;
  symlink: boolean;
  compressedSize: number;
  uncompressedSize: number;
  lastModDate: Date;
  crc: number;
  method: number;
  offset: number;
  /** Where the next entry's local header (or the central directory) starts: this entry's data ends before it. */
  end: number;
}

/** Why a file cannot be read as a zip: not one (or its directory is damaged), or an entry's data is. */
export class ZipReadError extends Error {
  /**
   * notZip: no readable directory; damaged: an entry's data does not match its record; unsupported:
   * a method other than store or deflate; overlap: two entries (or an entry and the directory) share
   * bytes, the trick of split zip bombs; mismatch: a local header that names other bytes than its
   * central record (another name, size, checksum or method).
   */
  constructor(readonly reason: 'notZip' | 'damaged' | 'unsupported' | 'overlap' | 'mismatch') {
    super(`zip ${reason}`);
  }
}

async function readAt(handle: FileHandle, at: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, at + done);
    if (bytesRead === 0) throw new ZipReadError('notZip');
    done += bytesRead;
  }
  return buffer;
}

function dosDate(date: number, time: number): Date {
  return new Date(
    ((date >> 9) & 0x7f) + 1980,
    ((date >> 5) & 0x0f) - 1,
    date & 0x1f,
    (time >> 11) & 0x1f,
    (time >> 5) & 0x3f,
    (time & 0x1f) * 2,
  );
}

/** The end of central directory: where the directory is, how big, how many entries. */
async function findDirectory(handle: FileHandle, size: number): Promise<{ at: number; length: number; count: number }> {
  if (size < 22) throw new ZipReadError('notZip');
  const tailLength = Math.min(size, 22 + MAX16);
  const tail = await readAt(handle, size - tailLength, tailLength);
  let end = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END && i + 22 + tail.readUInt16LE(i + 20) === tailLength) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipReadError('notZip');
  let count = tail.readUInt16LE(end + 10);
  let length = tail.readUInt32LE(end + 12);
  let at = tail.readUInt32LE(end + 16);
  if (count === MAX16 || length === MAX32 || at === MAX32) {
    const endAt = size - tailLength + end;
    if (endAt < 20) throw new ZipReadError('notZip');
    const locator = await readAt(handle, endAt - 20, 20);
    if (locator.readUInt32LE(0) !== END64_LOCATOR) throw new ZipReadError('notZip');
    const end64At = Number(locator.readBigUInt64LE(8));
    if (end64At + 56 > size) throw new ZipReadError('notZip');
    const end64 = await readAt(handle, end64At, 56);
    if (end64.readUInt32LE(0) !== END64) throw new ZipReadError('notZip');
    count = Number(end64.readBigUInt64LE(32));
    length = Number(end64.readBigUInt64LE(40));
    at = Number(end64.readBigUInt64LE(48));
  }
  if (at + length > size || length > CENTRAL_MAX) throw new ZipReadError('notZip');
  return { at, length, count };
}

/** Parses the central directory; stops after `maxEntries` + 1 entries (the caller refuses more). */
function parseDirectory(directory: Buffer, count: number, maxEntries: number, size: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let n = 0; n < count && entries.length <= maxEntries; n++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL_HEADER) throw new ZipReadError('notZip');
    const madeBy = directory.readUInt16LE(p + 4);
    const flags = directory.readUInt16LE(p + 8);
    const method = directory.readUInt16LE(p + 10);
    const time = directory.readUInt16LE(p + 12);
    const date = directory.readUInt16LE(p + 14);
    const crc = directory.readUInt32LE(p + 16);
    let compressedSize = directory.readUInt32LE(p + 20);
    let uncompressedSize = directory.readUInt32LE(p + 24);
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const external = directory.readUInt32LE(p + 38);
    let offset = directory.readUInt32LE(p + 42);
    const nameAt = p + 46;
    const extraAt = nameAt + nameLength;
    const next = extraAt + extraLength + commentLength;
    if (next > directory.length) throw new ZipReadError('notZip');
    const rawName = Buffer.from(directory.subarray(nameAt, extraAt));
    let filename = flags & UTF8_NAMES ? rawName.toString('utf8') : rawName.toString('latin1');
    let lastModDate = dosDate(date, time);
    for (let e = extraAt; e + 4 <= extraAt + extraLength; ) {
      const id = directory.readUInt16LE(e);
      const length = directory.readUInt16LE(e + 2);
      const data = directory.subarray(e + 4, Math.min(e + 4 + length, extraAt + extraLength));
      if (id === ZIP64_EXTRA) {
        let d = 0;
        const wide = () => {
          if (d + 8 > data.length) throw new ZipReadError('notZip');
          const value = Number(data.readBigUInt64LE(d));
          d += 8;
          return value;
        };
        if (uncompressedSize === MAX32) uncompressedSize = wide();
        if (compressedSize === MAX32) compressedSize = wide();
        if (offset === MAX32) offset = wide();
      } else if (id === EXTENDED_TIME && data.length >= 5 && (data[0] ?? 0) & 1) {
        lastModDate = new Date(data.readUInt32LE(1) * 1000);
      } else if (id === UNICODE_PATH && data.length > 5 && data[0] === 1 && data.readUInt32LE(1) === crc32(rawName)) {
        filename = data.subarray(5).toString('utf8');
      }
      e += 4 + length;
    }
    if (offset + 30 > size) throw new ZipReadError('notZip');
    const unixMode = madeBy >> 8 === 3 ? (external >>> 16) & 0o170000 : 0;
    entries.push({
      filename,
      rawName,
      flags,
      directory: filename.endsWith('/'),
      encrypted: (flags & ENCRYPTED) !== 0,
      symlink: unixMode === 0o120000,
      compressedSize,
      uncompressedSize,
      lastModDate,
      crc,
      method,
      offset,
      end: 0,
    });
    p = next;
  }
  return entries;
}

/**
 * Gives every entry the bytes up to the next local header (or the directory) and refuses any
 * overlap: an entry's header, name and data must fit before the next one starts. Entries sharing
 * data are how a few kilobytes declare gigabytes (a split zip bomb).
 */
export function assignSpans<T extends { offset: number; compressedSize: number; end: number }>(
  entries: T[],
  nameLength: (entry: T) => number,
  directoryAt: number,
): void {
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  for (const [i, entry] of byOffset.entries()) {
    entry.end = byOffset[i + 1]?.offset ?? directoryAt;
    if (entry.offset + 30 + nameLength(entry) + entry.compressedSize > entry.end) throw new ZipReadError('overlap');
  }
}

/** The local header must repeat the central record: the same name bytes, method and (without a data descriptor) sizes and CRC. */
function checkLocalHeader(local: Buffer, entry: ZipEntry): void {
  const flags = local.readUInt16LE(6);
  if (local.readUInt16LE(8) !== entry.method || (flags & ENCRYPTED) !== (entry.flags & ENCRYPTED))
    throw new ZipReadError('mismatch');
  if (!local.subarray(30).equals(entry.rawName)) throw new ZipReadError('mismatch');
  if (flags & DATA_DESCRIPTOR) return;
  // MAX32: the real sizes are in the local ZIP64 field (the central record's are the ones used).
  const sameSize = (local32: number, central: number) => local32 === central || local32 === MAX32;
  if (
    local.readUInt32LE(14) >>> 0 !== entry.crc >>> 0 ||
    !sameSize(local.readUInt32LE(18), entry.compressedSize) ||
    !sameSize(local.readUInt32LE(22), entry.uncompressedSize)
  ) {
    throw new ZipReadError('mismatch');
  }
}

export class ZipFileReader {
  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    readonly entries: ZipEntry[],
  ) {}

  /** Reads the directory of the zip in `handle` (the caller closes it). */
  static async open(handle: FileHandle, options: { maxEntries: number }): Promise<ZipFileReader> {
    const { size } = await handle.stat();
    const { at, length, count } = await findDirectory(handle, size);
    const directory = await readAt(handle, at, length);
    const entries = parseDirectory(directory, count, options.maxEntries, size);
    if (entries.length <= options.maxEntries) assignSpans(entries, (entry) => entry.rawName.length, at);
    return new ZipFileReader(handle, size, entries);
  }

  /** Streams an entry's bytes to `sink` (awaited: a slow sink slows the reading), checked against its size and CRC-32. */
  async read(entry: ZipEntry, sink: (chunk: Buffer) => void | Promise<void>): Promise<void> {
    if (entry.method !== 0 && entry.method !== 8) throw new ZipReadError('unsupported');
    // The header and the name the central record expects, in one read.
    const head = await readAt(this.handle, entry.offset, 30 + entry.rawName.length).catch(() => {
      throw new ZipReadError('damaged');
    });
    if (head.readUInt32LE(0) !== LOCAL_HEADER) throw new ZipReadError('damaged');
    if (head.readUInt16LE(26) !== entry.rawName.length) throw new ZipReadError('mismatch');
    const start = entry.offset + 30 + entry.rawName.length + head.readUInt16LE(28);
    if (start + entry.compressedSize > entry.end) throw new ZipReadError('overlap');
    checkLocalHeader(head, entry);
    let crc = 0;
    let size = 0;
    const take = async (chunk: Buffer) => {
      size += chunk.length;
      if (size > entry.uncompressedSize) throw new ZipReadError('damaged');
      crc = crc32(chunk, crc);
      await sink(chunk);
    };
    const blocks = this.blocks(start, entry.compressedSize);
    if (entry.method === 0) {
      for await (const block of blocks) await take(block);
    } else {
      await inflate(blocks, take);
    }
    if (size !== entry.uncompressedSize || crc >>> 0 !== entry.crc >>> 0) throw new ZipReadError('damaged');
  }

  private async *blocks(start: number, length: number): AsyncGenerator<Buffer> {
    for (let at = 0; at < length; at += BLOCK) {
      // A new buffer each time: the inflater may still hold the previous one.
      yield await readAt(this.handle, start + at, Math.min(BLOCK, length - at)).catch(() => {
        throw new ZipReadError('damaged');
      });
    }
  }
}

/** Inflates raw deflate blocks on the thread pool into `sink`, in order, with backpressure both ways. */
async function inflate(blocks: AsyncIterable<Buffer>, sink: (chunk: Buffer) => Promise<void>): Promise<void> {
  const inflater = createInflateRaw({ chunkSize: 256 * 1024 });
  const output = (async () => {
    for await (const chunk of inflater) {
      const bytes: Buffer = chunk;
      await sink(bytes);
    }
  })().catch((error: unknown) => {
    inflater.destroy(error instanceof Error ? error : undefined);
    throw error;
  });
  try {
    for await (const block of blocks) {
      if (!inflater.write(block)) await once(inflater, 'drain');
    }
    inflater.end();
    await output;
  } catch (thrown) {
    inflater.destroy();
    // The sink's own failure (a bad line) first: destroying the inflater for it fails the writing
    // here too, with an AbortError that says nothing.
    const error = await output.then(
      () => thrown,
      (failure: unknown) => failure,
    );
    if (error instanceof ZipReadError) throw error;
    // zlib's own complaint (invalid distance, unexpected end…): the entry's data is damaged.
    if (isPlainObject(error) && typeof error.code === 'string' && error.code.startsWith('Z_')) {
      throw new ZipReadError('damaged');
    }
    throw error;
  }
}
