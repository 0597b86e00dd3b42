import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { deflateMixed, deflatePiece, FINAL_EMPTY_BLOCK } from './deflate-mixed.js';
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
 * Writes a zip file as a stream, on Node's own zlib: each entry is deflated (level 1, like `zip -1`,
 * but what does not compress is stored: `deflate-mixed.ts`) on the thread pool while its CRC-32 and
 * SHA-256 are computed here, and its local header is
 * completed in place once its sizes are known (the output is a file, so no data descriptors).
 * ZIP64 records are written where sizes, offsets or the entry count need them.
 *
 * Why not zip.js for writing (it still reads, and writes the AES-encrypted downloads): its
 * web-stream pipeline cost about 8 ms per media file here, which held a backup to a third of
 * `zip -1 -r`'s speed (issue 12 §6).
 */

const STORED = 0;
const DEFLATED = 8;
const MADE_BY_UNIX = (3 << 8) | 63;
/** Entries whose size is unknown or at least this get a ZIP64 local header (deflate may grow data a little). */
const ZIP64_LOCAL_FROM = 0xf000_0000;
const OUTPUT_BUFFER = 1 << 20;

/** An entry compressed ahead, in memory (small files, several at once on the thread pool). */
export interface CompressedEntry {
  deflated: Buffer;
  crc: number;
  size: number;
  sha256: string;
}

interface Deflated {
  crc: number;
  size: number;
  compressed: number;
  sha256: string;
}

/** Bytes of a source gathered before they are deflated as one piece. */
const PIECE_BYTES = 1 << 20;

/**
 * Deflates a byte source into `sink`, about PIECE_BYTES at a time on the thread pool (`deflatePiece`:
 * parts that do not compress are stored), the next piece deflating while the last is written; the
 * CRC-32, SHA-256 and sizes are computed here. The gathered bytes are copied, so a source may reuse
 * its buffers.
 */
async function deflateInto(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  sink: (chunk: Buffer) => Promise<void>,
): Promise<Deflated> {
  const hash = createHash('sha256');
  const result = { crc: 0, size: 0, compressed: 0 };
  let gathered: Uint8Array[] = [];
  let gatheredBytes = 0;
  let ahead: Promise<Buffer> | undefined;
  const write = async (piece: Buffer) => {
    result.compressed += piece.length;
    await sink(piece);
  };
  const deflateGathered = async () => {
    const piece = deflatePiece(Buffer.concat(gathered, gatheredBytes));
    // Awaited in order below; if the source fails first, nothing waits for it.
    piece.catch(() => {});
    gathered = [];
    gatheredBytes = 0;
    if (ahead) await write(await ahead);
    ahead = piece;
  };
  for await (const chunk of source) {
    hash.update(chunk);
    result.crc = crc32(chunk, result.crc);
    result.size += chunk.byteLength;
    gathered.push(chunk);
    gatheredBytes += chunk.byteLength;
    if (gatheredBytes >= PIECE_BYTES) await deflateGathered();
  }
  if (gatheredBytes > 0) await deflateGathered();
  if (ahead) await write(await ahead);
  await write(FINAL_EMPTY_BLOCK);
  return { ...result, sha256: hash.digest('hex') };
}

/** An entry deflated ahead into a file of its own (a data module, written while the media files are). */
export interface SpooledEntry extends Deflated {
  file: string;
}

/** Deflates a byte source into `file` (which must not exist), to be added later by `addSpooled`. */
export async function spoolEntry(source: AsyncIterable<Uint8Array>, file: string): Promise<SpooledEntry> {
  const handle = await open(file, 'wx', 0o600);
  let at = 0;
  try {
    const deflated = await deflateInto(source, async (chunk) => {
      await writeFully(handle, chunk, at);
      at += chunk.length;
    });
    return { file, ...deflated };
  } finally {
    await handle.close();
  }
}

async function writeFully(handle: FileHandle, bytes: Buffer, at: number): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, at + offset);
    offset += bytesWritten;
  }
}

/**
 * Compresses `bytes` on the thread pool (parts that do not compress are stored: `deflateMixed`);
 * the CRC-32 and SHA-256 are computed meanwhile.
 */
export async function compressEntry(bytes: Buffer): Promise<CompressedEntry> {
  const deflating = deflateMixed(bytes);
  const crc = crc32(bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { deflated: await deflating, crc, size: bytes.length, sha256 };
}

export interface WrittenEntry {
  path: string;
  size: number;
  sha256: string;
}

interface CentralRecord {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  dos: { date: number; time: number };
  unixSeconds: number;
  dir: boolean;
  zip64Local: boolean;
}

function dosDateTime(date: Date): { date: number; time: number } {
  if (date.getFullYear() < 1980) return { date: (1 << 5) | 1, time: 0 };
  return {
    date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
  };
}

function extendedTime(unixSeconds: number): Buffer {
  const extra = Buffer.alloc(9);
  extra.writeUInt16LE(EXTENDED_TIME, 0);
  extra.writeUInt16LE(5, 2);
  extra.writeUInt8(1, 4);
  extra.writeUInt32LE(Math.max(0, Math.min(MAX32, unixSeconds)), 5);
  return extra;
}

export class ZipFileWriter {
  private position = 0;
  private readonly records: CentralRecord[] = [];
  private buffer = Buffer.allocUnsafe(OUTPUT_BUFFER);
  private buffered = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly zip64LocalFrom: number,
  ) {}

  /** `file` must not exist yet. `zip64LocalFrom` is for tests (ZIP64 headers on small entries). */
  static async create(file: string, options: { zip64LocalFrom?: number } = {}): Promise<ZipFileWriter> {
    const handle = await open(file, 'wx', 0o600);
    return new ZipFileWriter(handle, options.zip64LocalFrom ?? ZIP64_LOCAL_FROM);
  }

  /** Adds a deflated entry from a byte source; `expectedSize` (when known) avoids ZIP64 headers for small entries. */
  async add(
    path: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: { lastModified?: Date; expectedSize?: number } = {},
  ): Promise<WrittenEntry> {
    const modified = options.lastModified ?? new Date();
    const zip64Local = options.expectedSize === undefined || options.expectedSize >= this.zip64LocalFrom;
    const record: CentralRecord = {
      name: Buffer.from(path, 'utf8'),
      method: DEFLATED,
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.position,
      dos: dosDateTime(modified),
      unixSeconds: Math.floor(modified.getTime() / 1000),
      dir: false,
      zip64Local,
    };
    this.append(this.localHeader(record));
    const deflated = await deflateInto(source, (chunk) => this.write(chunk));
    Object.assign(record, { crc: deflated.crc, size: deflated.size, compressed: deflated.compressed });
    if (!zip64Local && (record.size >= MAX32 || record.compressed >= MAX32)) {
      throw new Error(`${path} grew past 4 GiB while it was being written`);
    }
    await this.completeLocalHeader(record);
    this.records.push(record);
    return { path, size: record.size, sha256: deflated.sha256 };
  }

  /** Adds an entry compressed ahead by `compressEntry`. */
  async addCompressed(path: string, entry: CompressedEntry, lastModified = new Date()): Promise<WrittenEntry> {
    const record: CentralRecord = {
      name: Buffer.from(path, 'utf8'),
      method: DEFLATED,
      crc: entry.crc,
      compressed: entry.deflated.length,
      size: entry.size,
      offset: this.position,
      dos: dosDateTime(lastModified),
      unixSeconds: Math.floor(lastModified.getTime() / 1000),
      dir: false,
      zip64Local: entry.size >= this.zip64LocalFrom || entry.deflated.length >= this.zip64LocalFrom,
    };
    this.append(this.localHeader(record));
    await this.completeLocalHeader(record);
    await this.write(entry.deflated);
    this.records.push(record);
    return { path, size: entry.size, sha256: entry.sha256 };
  }

  /** Adds an entry deflated ahead by `spoolEntry` (its file is copied in; the caller removes it). */
  async addSpooled(path: string, entry: SpooledEntry, lastModified = new Date()): Promise<WrittenEntry> {
    const record: CentralRecord = {
      name: Buffer.from(path, 'utf8'),
      method: DEFLATED,
      crc: entry.crc,
      compressed: entry.compressed,
      size: entry.size,
      offset: this.position,
      dos: dosDateTime(lastModified),
      unixSeconds: Math.floor(lastModified.getTime() / 1000),
      dir: false,
      zip64Local: entry.size >= this.zip64LocalFrom || entry.compressed >= this.zip64LocalFrom,
    };
    this.append(this.localHeader(record));
    await this.completeLocalHeader(record);
    const handle = await open(entry.file, 'r');
    try {
      const block = Buffer.allocUnsafe(OUTPUT_BUFFER);
      let copied = 0;
      for (;;) {
        const { bytesRead } = await handle.read(block, 0, block.length, copied);
        if (bytesRead === 0) break;
        await this.write(block.subarray(0, bytesRead));
        copied += bytesRead;
      }
      if (copied !== entry.compressed) throw new Error(`${path}: its spooled data changed size`);
    } finally {
      await handle.close();
    }
    this.records.push(record);
    return { path, size: entry.size, sha256: entry.sha256 };
  }

  async addDir(path: string, lastModified = new Date()): Promise<void> {
    const record: CentralRecord = {
      name: Buffer.from(`${path}/`, 'utf8'),
      method: STORED,
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.position,
      dos: dosDateTime(lastModified),
      unixSeconds: Math.floor(lastModified.getTime() / 1000),
      dir: true,
      zip64Local: false,
    };
    this.append(this.localHeader(record));
    this.records.push(record);
  }

  /** Writes the central directory, flushes the file to disk and closes it; answers the archive's size. */
  async finish(): Promise<number> {
    const start = this.position;
    for (const record of this.records) await this.write(this.centralHeader(record));
    const size = this.position - start;
    const count = this.records.length;
    if (count >= MAX16 || size >= MAX32 || start >= MAX32) {
      const end64At = this.position;
      const end64 = Buffer.alloc(56);
      end64.writeUInt32LE(END64, 0);
      end64.writeBigUInt64LE(44n, 4);
      end64.writeUInt16LE(MADE_BY_UNIX, 12);
      end64.writeUInt16LE(45, 14);
      end64.writeBigUInt64LE(BigInt(count), 24);
      end64.writeBigUInt64LE(BigInt(count), 32);
      end64.writeBigUInt64LE(BigInt(size), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(END64_LOCATOR, 0);
      locator.writeBigUInt64LE(BigInt(end64At), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(end64);
      await this.write(locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(Math.min(count, MAX16), 8);
    end.writeUInt16LE(Math.min(count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    await this.write(end);
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
    return this.position;
  }

  /** Stops writing (the caller removes the file). */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => {});
  }

  private localHeader(record: CentralRecord): Buffer {
    const time = extendedTime(record.unixSeconds);
    const extraLength = time.length + (record.zip64Local ? 20 : 0);
    const header = Buffer.alloc(30 + record.name.length + extraLength);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(record.zip64Local ? 45 : record.dir ? 10 : 20, 4);
    header.writeUInt16LE(UTF8_NAMES, 6);
    header.writeUInt16LE(record.method, 8);
    header.writeUInt16LE(record.dos.time, 10);
    header.writeUInt16LE(record.dos.date, 12);
    // CRC-32 and sizes (14..25) are completed once the data is written.
    if (record.zip64Local) {
      header.writeUInt32LE(MAX32, 18);
      header.writeUInt32LE(MAX32, 22);
    }
    header.writeUInt16LE(record.name.length, 26);
    header.writeUInt16LE(extraLength, 28);
    record.name.copy(header, 30);
    time.copy(header, 30 + record.name.length);
    if (record.zip64Local) {
      const at = 30 + record.name.length + time.length;
      header.writeUInt16LE(ZIP64_EXTRA, at);
      header.writeUInt16LE(16, at + 2);
    }
    return header;
  }

  /** Writes the CRC-32 and sizes into the entry's local header, now that they are known. */
  private async completeLocalHeader(record: CentralRecord): Promise<void> {
    const fields = Buffer.alloc(12);
    fields.writeUInt32LE(record.crc >>> 0, 0);
    if (!record.zip64Local) {
      fields.writeUInt32LE(record.compressed, 4);
      fields.writeUInt32LE(record.size, 8);
    } else {
      fields.writeUInt32LE(MAX32, 4);
      fields.writeUInt32LE(MAX32, 8);
    }
    await this.writeAt(fields, record.offset + 14);
    if (record.zip64Local) {
      const sizes = Buffer.alloc(16);
      sizes.writeBigUInt64LE(BigInt(record.size), 0);
      sizes.writeBigUInt64LE(BigInt(record.compressed), 8);
      await this.writeAt(sizes, record.offset + 30 + record.name.length + 9 + 4);
    }
  }

  private centralHeader(record: CentralRecord): Buffer {
    // ZIP64 fields, in the order the format fixes: size, compressed size, offset.
    const wide: bigint[] = [];
    const bigSizes = record.zip64Local || record.size >= MAX32 || record.compressed >= MAX32;
    if (bigSizes) wide.push(BigInt(record.size), BigInt(record.compressed));
    if (record.offset >= MAX32) wide.push(BigInt(record.offset));
    const time = extendedTime(record.unixSeconds);
    const zip64Length = wide.length > 0 ? 4 + 8 * wide.length : 0;
    const header = Buffer.alloc(46 + record.name.length + time.length + zip64Length);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(MADE_BY_UNIX, 4);
    header.writeUInt16LE(wide.length > 0 ? 45 : record.dir ? 10 : 20, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(record.method, 10);
    header.writeUInt16LE(record.dos.time, 12);
    header.writeUInt16LE(record.dos.date, 14);
    header.writeUInt32LE(record.crc >>> 0, 16);
    header.writeUInt32LE(bigSizes ? MAX32 : record.compressed, 20);
    header.writeUInt32LE(bigSizes ? MAX32 : record.size, 24);
    header.writeUInt16LE(record.name.length, 28);
    header.writeUInt16LE(time.length + zip64Length, 30);
    // Unix mode in the high half; MS-DOS directory bit for directories.
    const mode = record.dir ? 0o40755 : 0o100644;
    header.writeUInt32LE(((mode << 16) | (record.dir ? 0x10 : 0)) >>> 0, 38);
    header.writeUInt32LE(Math.min(record.offset, MAX32), 42);
    record.name.copy(header, 46);
    time.copy(header, 46 + record.name.length);
    if (wide.length > 0) {
      let at = 46 + record.name.length + time.length;
      header.writeUInt16LE(ZIP64_EXTRA, at);
      header.writeUInt16LE(8 * wide.length, at + 2);
      at += 4;
      for (const value of wide) {
        header.writeBigUInt64LE(value, at);
        at += 8;
      }
    }
    return header;
  }

  /** Appends to the output buffer (which `write` flushes when it fills). */
  private append(bytes: Buffer): void {
    if (this.buffered + bytes.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.buffered + bytes.length));
      this.buffer.copy(grown, 0, 0, this.buffered);
      this.buffer = grown;
    }
    bytes.copy(this.buffer, this.buffered);
    this.buffered += bytes.length;
    this.position += bytes.length;
  }

  private async write(bytes: Buffer): Promise<void> {
    if (this.buffered + bytes.length > OUTPUT_BUFFER) await this.flush();
    if (bytes.length >= OUTPUT_BUFFER) {
      await writeFully(this.handle, bytes, this.position);
      this.position += bytes.length;
      return;
    }
    this.append(bytes);
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return;
    await writeFully(this.handle, this.buffer.subarray(0, this.buffered), this.position - this.buffered);
    this.buffered = 0;
    if (this.buffer.length > OUTPUT_BUFFER) this.buffer = Buffer.allocUnsafe(OUTPUT_BUFFER);
  }

  /** Writes at a position already written (a header being completed), in the buffer or in the file. */
  private async writeAt(bytes: Buffer, at: number): Promise<void> {
    const bufferStart = this.position - this.buffered;
    if (at >= bufferStart) {
      bytes.copy(this.buffer, at - bufferStart);
      return;
    }
    if (at + bytes.length > bufferStart) await this.flush();
    await writeFully(this.handle, bytes, at);
  }
}
