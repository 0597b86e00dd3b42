import { createHash } from 'node:crypto';
import { type FileHandle, open, statfs } from 'node:fs/promises';
import path from 'node:path';
import {
  BACKUP_ARCHIVE,
  BACKUP_KINDS,
  BACKUP_LIMITS,
  type BackupItem,
  checkMediaPath,
  DOCUMENT_LIMITS,
  isCollection,
  type MessageKey,
} from '@gantry/shared';
import { type Entry, type FileEntry, Reader, ZipReader, type ZipWriter } from '@zip.js/zip.js';
import { z } from 'zod';
import { inPool } from '../../lib/in-pool.js';
import { configureZip } from './zip-codec.js';
import { assignSpans, type ZipEntry, ZipFileReader, ZipReadError } from './zip-file-reader.js';
import { type CompressedEntry, type SpooledEntry, ZipFileWriter } from './zip-file-writer.js';

/**
 * The project backup archive (issue 12 §1, design D6): a zip with `mongodb/<collection>.jsonl` (one
 * document per line), `fileServer/…` and `html/…` (the files), and `manifest.json`, written last,
 * which lists every entry with its size and SHA-256. Written as a stream (never the whole archive in
 * memory) and read by random access from its file; an archive is verified whole before it is used.
 */

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

const manifestSchema = z.object({
  format: z.literal(BACKUP_ARCHIVE.format),
  version: z.literal(BACKUP_ARCHIVE.version),
  project: z.object({ id: z.string().min(1).max(64), name: z.string().max(256) }),
  createTime: z.iso.datetime(),
  appVersion: z.string().max(64),
  item: z.object({ fileServer: z.boolean(), html: z.boolean(), mongodb: z.boolean() }),
  excludedDirs: z.array(z.string()).max(BACKUP_LIMITS.excludedDirsMax),
  modules: z.record(z.string(), z.object({ documents: z.number().int().nonnegative() })),
  dirs: z.array(z.string()).max(BACKUP_LIMITS.entriesMax),
  entries: z
    .array(
      z.object({
        path: z.string().max(2048),
        size: z.number().int().nonnegative(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .max(BACKUP_LIMITS.entriesMax),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** Why an archive is refused: a message `backup.problem.<problem>` with its parameters. */
export type ArchiveProblemKind =
  | 'notZip'
  | 'manifestMissing'
  | 'manifestInvalid'
  | 'version'
  | 'unsafePath'
  | 'symlink'
  | 'unlisted'
  | 'missing'
  | 'size'
  | 'hash'
  | 'tooManyEntries'
  | 'tooLarge'
  | 'ratio'
  | 'unknownModule'
  | 'badDocument'
  | 'duplicate'
  | 'encrypted'
  | 'truncated'
  | 'overlap'
  | 'mismatch'
  | 'bomb'
  | 'noSpace';

export class ArchiveProblem extends Error {
  constructor(
    readonly problem: ArchiveProblemKind,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${problem} ${JSON.stringify(params)}`);
  }
  get messageKey(): MessageKey {
    return `backup.problem.${this.problem}` as MessageKey;
  }
}

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

/**
 * How long a manifest may be: what its archive's own entries justify (a path line per entry), so a
 * small archive cannot bring a huge manifest to parse (a 255 KB upload inflating 256 MB of JSON).
 */
export function manifestBytesMax(entries: ArchiveEntry[]): number {
  let bytes = 64 * 1024;
  for (const entry of entries) bytes += 2 * Buffer.byteLength(entry.filename) + 160;
  return bytes;
}

/** Reads a manifest entry and parses it as JSON, within `manifestBytesMax`. */
export async function readManifestJson(reader: ArchiveReader, entry: ArchiveEntry): Promise<unknown> {
  const max = manifestBytesMax(reader.entries);
  if (entry.uncompressedSize > max) throw new ArchiveProblem('manifestInvalid', { detail: 'size' });
  const parts: Uint8Array[] = [];
  let bytes = 0;
  await reader.read(entry, (chunk) => {
    bytes += chunk.byteLength;
    if (bytes > max) throw new ArchiveProblem('manifestInvalid', { detail: 'size' });
    parts.push(Buffer.from(chunk));
  });
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    throw new ArchiveProblem('manifestInvalid', { detail: 'JSON' });
  }
}

/** A wrong verification code (not an archive problem: the archive may be fine). */
export class WrongPassword extends Error {}

/** Where an entry belongs: a data module, or a file of a kind (its media path's segments). */
export type EntryPlace =
  | { kind: 'mongodb'; module: string }
  | { kind: 'fileServer' | 'html'; segments: string[] }
  | { kind: 'manifest' };

/** Places an entry name, or answers why it is not safe (zip-slip: `..`, absolute, drive letters, backslashes…). */
export function placeEntry(name: string): EntryPlace | ArchiveProblem {
  if (name === BACKUP_ARCHIVE.manifest) return { kind: 'manifest' };
  const slash = name.indexOf('/');
  const kind = slash > 0 ? name.slice(0, slash) : '';
  const rest = name.slice(slash + 1);
  if (kind === BACKUP_ARCHIVE.modulesDir) {
    const match = /^([a-z_]+)\.jsonl$/.exec(rest);
    if (!match) return new ArchiveProblem('unsafePath', { path: name });
    const module = match[1] as string;
    if (!isCollection(module)) return new ArchiveProblem('unknownModule', { module });
    return { kind: 'mongodb', module };
  }
  if (kind === 'fileServer' || kind === 'html') {
    const check = checkMediaPath(rest);
    if (!check.ok) return new ArchiveProblem('unsafePath', { path: name });
    return { kind, segments: check.segments };
  }
  return new ArchiveProblem('unsafePath', { path: name });
}

/** The whole line of a document in a data module file. */
export interface DocumentLine {
  id: string;
  createTime: Date;
  updateTime: Date;
  doc: Record<string, unknown>;
}

function depthOf(value: unknown, limit: number, depth = 1): number {
  if (depth > limit) return depth;
  if (value === null || typeof value !== 'object') return depth - 1;
  let deepest = depth;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, limit, depth + 1));
  return deepest;
}

const ESCAPED_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/** Parses one line of a data module file; undefined when it is not a valid document. */
export function parseDocumentLine(line: string): DocumentLine | undefined {
  // A NUL character (which the database cannot store): `\u0000` not itself escaped.
  if (ESCAPED_NUL.test(line)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { id, createTime, updateTime, doc } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id === '' || id.length > DOCUMENT_LIMITS.idMax || id.includes('\u0000'))
    return undefined;
  if (typeof createTime !== 'string' || typeof updateTime !== 'string') return undefined;
  const created = new Date(createTime);
  const updated = new Date(updateTime);
  if (Number.isNaN(created.getTime()) || Number.isNaN(updated.getTime())) return undefined;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  if (depthOf(doc, DOCUMENT_LIMITS.depth) > DOCUMENT_LIMITS.depth) return undefined;

  return { id, createTime: created, updateTime: updated, doc: doc as Record<string, unknown> };
}

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
      const { filename } = error as { filename?: unknown };
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

export interface VerifyOptions {
  /** Called with bytes read so far over the archive's total expanded bytes (0..1). */
  onProgress?: (fraction: number) => void;
  /** A safe point between entries (a task's checkpoint). */
  checkpoint?: () => Promise<void>;
}

/** Reads and checks `manifest.json` and every entry's name and declared sizes (no content yet). */
async function checkStructure(reader: ArchiveReader): Promise<{ manifest: Manifest; totalBytes: number }> {
  const { entries } = reader;
  if (entries.length > BACKUP_LIMITS.entriesMax + 1) {
    throw new ArchiveProblem('tooManyEntries', { max: BACKUP_LIMITS.entriesMax });
  }
  const manifestEntry = entries.find((entry) => entry.filename === BACKUP_ARCHIVE.manifest);
  if (!manifestEntry || manifestEntry.directory) throw new ArchiveProblem('manifestMissing');
  const raw = await readManifestJson(reader, manifestEntry);
  const head = raw as { format?: unknown; version?: unknown } | null;
  if (head?.format !== BACKUP_ARCHIVE.format) throw new ArchiveProblem('manifestInvalid', { detail: 'format' });
  if (head.version !== BACKUP_ARCHIVE.version) throw new ArchiveProblem('version', { version: String(head.version) });
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ArchiveProblem('manifestInvalid', { detail: parsed.error.issues[0]?.path.join('.') || 'shape' });
  }
  const manifest = parsed.data;
  for (const module of Object.keys(manifest.modules)) {
    if (!isCollection(module)) throw new ArchiveProblem('unknownModule', { module });
  }

  const listed = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  const dirs = new Set(manifest.dirs);
  const seen = new Set<string>();
  let totalBytes = 0;
  for (const entry of entries) {
    const name = entry.filename;
    if (name === BACKUP_ARCHIVE.manifest) continue;
    if (seen.has(name)) throw new ArchiveProblem('unsafePath', { path: name });
    seen.add(name);
    if (entry.symlink) throw new ArchiveProblem('symlink', { path: name });
    const place = placeEntry(entry.directory ? name.replace(/\/$/, '') : name);
    if (place instanceof ArchiveProblem) throw place;
    if (place.kind === 'manifest') throw new ArchiveProblem('unsafePath', { path: name });
    if (!manifest.item[place.kind]) throw new ArchiveProblem('unlisted', { path: name });
    if (entry.directory) {
      if (place.kind === 'mongodb' || !dirs.has(name.replace(/\/$/, ''))) {
        throw new ArchiveProblem('unlisted', { path: name });
      }
      continue;
    }
    if (place.kind === 'mongodb' && !manifest.modules[place.module])
      throw new ArchiveProblem('unlisted', { path: name });
    const declared = listed.get(name);
    if (!declared) throw new ArchiveProblem('unlisted', { path: name });
    checkEntryLimits(entry, declared);
    totalBytes += entry.uncompressedSize;
    if (totalBytes > BACKUP_LIMITS.expandedBytesMax) {
      throw new ArchiveProblem('tooLarge', { max: BACKUP_LIMITS.expandedBytesMax / 1024 ** 3 });
    }
  }
  for (const entry of manifest.entries)
    if (!seen.has(entry.path)) throw new ArchiveProblem('missing', { path: entry.path });
  for (const dir of manifest.dirs) if (!seen.has(`${dir}/`)) throw new ArchiveProblem('missing', { path: `${dir}/` });
  for (const module of Object.keys(manifest.modules)) {
    if (!seen.has(`${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`)) {
      throw new ArchiveProblem('missing', { path: `${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl` });
    }
  }
  return { manifest, totalBytes };
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

/**
 * Verifies the whole archive before anything is changed (design D6): the manifest (present, known
 * version, valid), every entry's name (confined to its folder, no links), declared sizes, the
 * expanded total and each entry's compression ratio (zip bombs), then every entry's bytes against its
 * size and SHA-256, and every document line of the data modules. Answers the manifest.
 */
export async function verifyArchive(reader: ArchiveReader, options: VerifyOptions = {}): Promise<Manifest> {
  const { manifest, totalBytes } = await checkStructure(reader);
  const listed = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  let done = 0;
  const contents = reader.entries.filter((entry) => !entry.directory && entry.filename !== BACKUP_ARCHIVE.manifest);
  // A few entries at once: each is read by random access, and inflating waits on the thread pool.
  await inPool(contents, 3, async (entry) => {
    await options.checkpoint?.();
    const place = placeEntry(entry.filename) as EntryPlace;
    const lines =
      place.kind === 'mongodb'
        ? { module: place.module, max: BACKUP_LIMITS.lineBytesMax, valid: (line: string) => !!parseDocumentLine(line) }
        : undefined;
    const documents = await verifyEntryBytes(reader, entry, listed.get(entry.filename) as ManifestEntry, {
      lines,
      onBytes: (bytes) => {
        done += bytes;
        options.onProgress?.(totalBytes === 0 ? 1 : done / totalBytes);
      },
    });
    if (place.kind === 'mongodb' && documents !== manifest.modules[place.module]?.documents) {
      throw new ArchiveProblem('badDocument', { module: place.module, line: documents + 1 });
    }
  });
  return manifest;
}

/** Only the structure (manifest, names, sizes, limits): quick, for answers given at once (uploads, dry runs). */
export async function readManifest(reader: ArchiveReader): Promise<Manifest> {
  return (await checkStructure(reader)).manifest;
}

/** Writes an archive to `file` as a stream; entries are hashed as they go, the manifest comes last. */
export class ArchiveWriter {
  private readonly entries: ManifestEntry[] = [];
  private readonly dirs: string[] = [];
  private constructor(private readonly zip: ZipFileWriter) {}

  static async create(file: string): Promise<ArchiveWriter> {
    return new ArchiveWriter(await ZipFileWriter.create(file));
  }

  /** Adds an entry from a byte source; answers its manifest line. */
  async add(
    path: string,
    source: AsyncIterable<Uint8Array>,
    options: { lastModified?: Date; expectedSize?: number } = {},
  ): Promise<ManifestEntry> {
    const entry = await this.zip.add(path, source, options);
    this.entries.push(entry);
    return entry;
  }

  /** Adds an entry compressed ahead (`compressEntry`). */
  async addCompressed(path: string, entry: CompressedEntry, lastModified?: Date): Promise<ManifestEntry> {
    const written = await this.zip.addCompressed(path, entry, lastModified);
    this.entries.push(written);
    return written;
  }

  /** Adds an entry deflated ahead into a file (`spoolEntry`). */
  async addSpooled(path: string, entry: SpooledEntry): Promise<ManifestEntry> {
    const written = await this.zip.addSpooled(path, entry);
    this.entries.push(written);
    return written;
  }

  async addDir(path: string): Promise<void> {
    await this.zip.addDir(path);
    this.dirs.push(path);
  }

  /** Writes the manifest and closes the file (flushed to disk). Answers the archive's size. */
  async finish(manifest: Omit<Manifest, 'entries' | 'dirs'>): Promise<number> {
    const full: Manifest = { ...manifest, dirs: this.dirs, entries: this.entries };
    const text = Buffer.from(JSON.stringify(full));
    await this.zip.add(BACKUP_ARCHIVE.manifest, [text], { expectedSize: text.length });
    return this.zip.finish();
  }

  /** Stops writing (the caller removes the file). */
  async abort(): Promise<void> {
    await this.zip.abort();
  }
}

export const EMPTY_ITEM: BackupItem = { fileServer: false, html: false, mongodb: false };
export const kindsOf = (item: BackupItem) => BACKUP_KINDS.filter((kind) => item[kind]);
