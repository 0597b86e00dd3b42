import { type FileHandle, open, statfs } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_LIMITS } from '@gantry/shared';
import { type Entry, type FileEntry, Reader, ZipReader, type ZipWriter } from '@zip.js/zip.js';
import { isPlainObject } from '../list-query/bad-query.js';
import { ArchiveProblem, WrongPassword } from './archive-problem.js';
import { configureZip } from './zip-codec.js';
import { assignSpans, type ZipEntry, ZipFileReader, ZipReadError } from './zip-file-reader.js';

/**
 * What any archive may cost before a byte of it is inflated (issue 30): its entries' declared sizes
 * added up, against a bound and against the free space of the folder it lies in (less a reserve);
 * and the whole archive's expansion over its size (a split zip bomb spreads its ratio over many
 * small entries, each under any per-entry check).
 */
export interface ArchiveLimits {
  /** Bytes all entries of one archive may expand to (GANTRY_ARCHIVE_EXPANDED_MAX_MB). */
  expandedBytesMax: number;
  /** Free space an archive's expansion must leave in the data directory. */
  diskReserveBytes: number;
}

let limits: ArchiveLimits = {
  expandedBytesMax: BACKUP_LIMITS.expandedBytesMax,
  diskReserveBytes: BACKUP_LIMITS.diskReserveBytes,
};

/** Sets the limits once per process (from the configuration, at assembly). */
export function configureArchiveLimits(next: ArchiveLimits): void {
  limits = { ...next };
}

/** Refuses an archive whose declared expansion is over the bound, the free space, or the whole-archive ratio. */
async function checkExpansion(entries: ArchiveEntry[], fileSize: number, folder: string): Promise<void> {
  let total = 0;
  for (const entry of entries) total += entry.uncompressedSize;
  if (total > limits.expandedBytesMax) {
    throw new ArchiveProblem('tooLarge', { max: Math.round((limits.expandedBytesMax / 1024 ** 3) * 100) / 100 });
  }
  if (total > BACKUP_LIMITS.ratioFloorBytes && total > fileSize * BACKUP_LIMITS.ratioMax) {
    throw new ArchiveProblem('bomb', { ratio: Math.round(total / Math.max(1, fileSize)) });
  }
  const free = await statfs(folder);
  const room = free.bavail * free.bsize - limits.diskReserveBytes;
  if (total > room) {
    throw new ArchiveProblem('noSpace', {
      need: Math.ceil(total / 1024 ** 2),
      free: Math.max(0, Math.floor(room / 1024 ** 2)),
    });
  }
}

/** Reads an archive for zip.js by random access (the central directory first, then each entry). */
class FileReader extends Reader<FileHandle> {
  constructor(
    private readonly handle: FileHandle,
    override size: number,
  ) {
    super(handle);
  }
  override async readUint8Array(index: number, length: number): Promise<Uint8Array> {
    const buffer = Buffer.alloc(length);
    let offset = 0;
    while (offset < length) {
      const { bytesRead } = await this.handle.read(buffer, offset, length - offset, index + offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return new Uint8Array(buffer.buffer, buffer.byteOffset, offset);
  }
}

/** What a failure of our zip reader means for an archive. */
function zipProblem(error: ZipReadError): ArchiveProblem {
  switch (error.reason) {
    case 'notZip':
    case 'unsupported':
      return new ArchiveProblem('notZip');
    case 'damaged':
      return new ArchiveProblem('truncated');
    case 'overlap':
    case 'mismatch':
      return new ArchiveProblem(error.reason);
  }
}

function archiveEntryOf(entry: ZipEntry): ArchiveEntry {
  return {
    filename: entry.filename,
    directory: entry.directory,
    encrypted: entry.encrypted,
    symlink: entry.symlink,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    lastModDate: entry.lastModDate,
  };
}

/** An entry of an archive, as both readers give it. */
export type ArchiveEntry = Pick<
  ZipEntry,
  'filename' | 'directory' | 'encrypted' | 'symlink' | 'compressedSize' | 'uncompressedSize' | 'lastModDate'
>;

interface ReaderBackend {
  read(entry: ArchiveEntry, sink: (chunk: Uint8Array) => void | Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/**
 * An archive opened for reading: by our own reader (zip-file-reader.ts) when it is plain, by zip.js
 * when it is opened with a verification code (AES-256).
 */
export class ArchiveReader {
  private constructor(
    readonly entries: ArchiveEntry[],
    private readonly backend: ReaderBackend,
    private readonly password: string | undefined,
  ) {}

  /**
   * Opens `file` (with `password`, an AES-encrypted one) and checks, before any entry is read, that
   * no two entries share bytes and that the declared expansion is within the limits. Entries past
   * `maxEntries` are not read (the caller refuses the archive).
   */
  static async open(file: string, password?: string, options: { maxEntries?: number } = {}): Promise<ArchiveReader> {
    const maxEntries = (options.maxEntries ?? BACKUP_LIMITS.entriesMax) + 1;
    const handle = await open(file, 'r');
    try {
      const reader = password
        ? await ArchiveReader.openEncrypted(handle, password)
        : await ArchiveReader.openPlain(handle, maxEntries);
      if (reader.entries.length <= maxEntries) {
        const { size } = await handle.stat();
        await checkExpansion(reader.entries, size, path.dirname(file));
      }
      return reader;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  private static async openPlain(handle: FileHandle, maxEntries: number): Promise<ArchiveReader> {
    let zip: ZipFileReader;
    try {
      zip = await ZipFileReader.open(handle, { maxEntries });
    } catch (error) {
      if (error instanceof ZipReadError) throw zipProblem(error);
      throw error;
    }
    const entries = new Map<ArchiveEntry, ZipEntry>(zip.entries.map((entry) => [archiveEntryOf(entry), entry]));
    const backend: ReaderBackend = {
      read: (entry, sink) => {
        const found = entries.get(entry);
        if (!found) throw new ArchiveProblem('truncated');
        return zip.read(found, sink);
      },
      close: () => handle.close(),
    };
    return new ArchiveReader([...entries.keys()], backend, undefined);
  }

  private static async openEncrypted(handle: FileHandle, password: string): Promise<ArchiveReader> {
    configureZip();
    const { size } = await handle.stat();
    const zip = new ZipReader(new FileReader(handle, size), { checkSignature: true });
    let found: Entry[];
    try {
      found = await zip.getEntries();
    } catch (error) {
      // zip.js refuses unsafe names itself (`..`, absolute paths…): the same refusal as ours.
      const filename = isPlainObject(error) ? error.filename : undefined;
      if (typeof filename === 'string') throw new ArchiveProblem('unsafePath', { path: filename.slice(0, 200) });
      throw new ArchiveProblem('notZip');
    }
    const spans = found.map((entry) => ({
      offset: entry.offset ?? 0,
      compressedSize: entry.compressedSize,
      nameLength: entry.rawFilename?.length ?? 0,
      end: 0,
    }));
    try {
      assignSpans(spans, (span) => span.nameLength, zip.directoryOffset ?? size);
    } catch (error) {
      if (error instanceof ZipReadError) throw zipProblem(error);
      throw error;
    }
    const files = new Map<ArchiveEntry, FileEntry>();
    const entries = found.map((entry) => {
      const mapped: ArchiveEntry = {
        filename: entry.filename,
        directory: entry.directory,
        encrypted: entry.encrypted,
        symlink: Boolean(entry.symlink),
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        lastModDate: entry.lastModDate,
      };
      if (!entry.directory) files.set(mapped, entry);
      return mapped;
    });
    const backend: ReaderBackend = {
      read: async (entry, sink) => {
        const file = files.get(entry);
        if (!file) throw new ArchiveProblem('truncated');
        // Counted as it is decrypted and inflated: no more than its record declares.
        let bytes = 0;
        const counted = (chunk: Uint8Array) => {
          bytes += chunk.byteLength;
          if (bytes > entry.uncompressedSize) throw new ArchiveProblem('size', { path: entry.filename.slice(0, 200) });
          return sink(chunk);
        };
        try {
          await file.getData(new WritableStream<Uint8Array>({ write: counted }), {
            password,
            checkSignature: true,
          });
        } catch (error) {
          if (error instanceof ArchiveProblem) throw error;
          if (/password/i.test(error instanceof Error ? error.message : '')) throw new WrongPassword();
          throw new ArchiveProblem('truncated');
        }
      },
      close: async () => {
        await zip.close().catch(() => {});
        await handle.close().catch(() => {});
      },
    };
    return new ArchiveReader(entries, backend, password);
  }

  /** Streams an entry's bytes to `sink`, chunk by chunk (a slow sink slows the reading). */
  async read(entry: ArchiveEntry, sink: (chunk: Uint8Array) => void | Promise<void>): Promise<void> {
    if (entry.encrypted && !this.password) throw new ArchiveProblem('encrypted');
    try {
      await this.backend.read(entry, sink);
    } catch (error) {
      if (error instanceof ZipReadError) throw zipProblem(error);
      throw error;
    }
  }

  /** Adds every entry (decompressed, so `zip` re-compresses and, with its password, encrypts it) to `zip`. */
  async copyInto(zip: ZipWriter<unknown>): Promise<void> {
    for (const entry of this.entries) {
      if (entry.directory) {
        await zip.add(entry.filename, undefined, { directory: true });
        continue;
      }
      const channel = new TransformStream<Uint8Array, Uint8Array>();
      const writer = channel.writable.getWriter();
      const adding = zip.add(entry.filename, channel.readable, { lastModDate: entry.lastModDate });
      try {
        await this.read(entry, (chunk) => writer.write(new Uint8Array(chunk)));
        await writer.close();
      } catch (error) {
        await writer.abort(error).catch(() => {});
        await adding.catch(() => {});
        throw error;
      }
      await adding;
    }
  }

  async close(): Promise<void> {
    await this.backend.close().catch(() => {});
  }
}
