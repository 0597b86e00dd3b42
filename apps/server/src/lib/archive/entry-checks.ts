import { createHash } from 'node:crypto';
import { BACKUP_LIMITS } from '@gantry/shared';
import { inPool } from '../in-pool.js';
import { ArchiveProblem } from './archive-problem.js';
import type { ArchiveEntry, ArchiveReader } from './archive-reader.js';

/** Splits a byte stream into lines (UTF-8), each at most `max` bytes; calls `onLine` in order. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private line = 0;
  constructor(
    private readonly max: number,
    private readonly onLine: (line: string, number: number) => void,
    private readonly onTooLong: (number: number) => never,
  ) {}
  push(chunk: Uint8Array): void {
    let start = 0;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      this.take(bytes.subarray(start, end));
      this.emit();
      start = end + 1;
    }
    if (start < bytes.length) this.take(bytes.subarray(start));
  }
  end(): void {
    if (this.partBytes > 0) this.emit();
  }
  private take(bytes: Buffer): void {
    this.partBytes += bytes.length;
    if (this.partBytes > this.max) this.onTooLong(this.line + 1);
    // Copied: the chunk's memory is reused by the stream.
    this.parts.push(Buffer.from(bytes));
  }
  private emit(): void {
    const text = Buffer.concat(this.parts, this.partBytes).toString('utf8');
    this.parts = [];
    this.partBytes = 0;
    this.line++;
    if (text !== '') this.onLine(text, this.line);
  }
}

/** An entry's size as the manifest declares it, and its compression ratio (zip bombs), from the central directory. */
export function checkEntryLimits(entry: ArchiveEntry, declared: { size: number }): void {
  const path = entry.filename.slice(0, 200);
  if (entry.uncompressedSize !== declared.size) throw new ArchiveProblem('size', { path });
  if (
    entry.uncompressedSize > 1024 * 1024 &&
    entry.uncompressedSize / Math.max(1, entry.compressedSize) > BACKUP_LIMITS.ratioMax
  ) {
    throw new ArchiveProblem('ratio', { path });
  }
}

/**
 * Reads one entry whole: its bytes against the declared size and SHA-256 and, with `lines`, each
 * line through `valid` (a bad or over-long line is a `badDocument` of `module`). Answers how many
 * lines it held.
 */
export async function verifyEntryBytes(
  reader: ArchiveReader,
  entry: ArchiveEntry,
  declared: { size: number; sha256: string },
  options: {
    lines?: { module: string; max: number; valid: (line: string) => boolean };
    onBytes?: (bytes: number) => void;
  },
): Promise<number> {
  const hash = createHash('sha256');
  const path = entry.filename;
  const { lines } = options;
  let size = 0;
  let count = 0;
  const splitter = lines
    ? new LineSplitter(
        lines.max,
        (line, number) => {
          if (!lines.valid(line)) throw new ArchiveProblem('badDocument', { module: lines.module, line: number });
          count++;
        },
        (number) => {
          throw new ArchiveProblem('badDocument', { module: lines.module, line: number });
        },
      )
    : undefined;
  await reader.read(entry, (chunk) => {
    size += chunk.byteLength;
    if (size > declared.size) throw new ArchiveProblem('size', { path });
    hash.update(chunk);
    splitter?.push(chunk);
    options.onBytes?.(chunk.byteLength);
  });
  splitter?.end();
  if (size !== declared.size) throw new ArchiveProblem('size', { path });
  if (hash.digest('hex') !== declared.sha256) throw new ArchiveProblem('hash', { path });
  return count;
}

/** An entry of an archive to read whole: what its manifest declares and, for a line file, its lines. */
export interface ListedEntry {
  entry: ArchiveEntry;
  declared: { size: number; sha256: string };
  /** A line file: its lines checked by `valid`, as many as `expected` (else a `badDocument` of `module`). */
  lines?: { module: string; max: number; valid: (line: string) => boolean; expected: number | undefined };
}

/**
 * Reads every listed entry whole (`verifyEntryBytes`), a few at once (each is read by random access,
 * and inflating waits on the thread pool), with the bytes read so far over all of theirs to
 * `onProgress` and `checkpoint` (a task's safe point) before each.
 */
export async function verifyContents(
  reader: ArchiveReader,
  contents: ListedEntry[],
  options: { onProgress?: ((fraction: number) => void) | undefined; checkpoint?: (() => Promise<void>) | undefined },
): Promise<void> {
  const totalBytes = contents.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0);
  let done = 0;
  await inPool(contents, 3, async ({ entry, declared, lines }) => {
    await options.checkpoint?.();
    const count = await verifyEntryBytes(reader, entry, declared, {
      lines,
      onBytes: (bytes) => {
        done += bytes;
        options.onProgress?.(totalBytes === 0 ? 1 : done / totalBytes);
      },
    });
    if (lines && count !== lines.expected) {
      throw new ArchiveProblem('badDocument', { module: lines.module, line: count + 1 });
    }
  });
}
