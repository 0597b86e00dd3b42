import { BACKUP_ARCHIVE } from '@gantry/shared';
import { type CompressedEntry, type SpooledEntry, ZipFileWriter } from './zip-file-writer.js';

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

/** Writes an archive to `file` as a stream; entries are hashed as they go, the manifest comes last. */
/**
 * `Head`: the manifest's fields other than `dirs` and `entries`, which the writer fills in as it
 * goes (the project backup's and the template package's manifests).
 */
export class ArchiveWriter<Head extends object> {
  private readonly entries: ManifestEntry[] = [];
  private readonly dirs: string[] = [];
  private constructor(private readonly zip: ZipFileWriter) {}

  static async create<Head extends object>(file: string): Promise<ArchiveWriter<Head>> {
    return new ArchiveWriter<Head>(await ZipFileWriter.create(file));
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
  async finish(manifest: Head): Promise<number> {
    const full = { ...manifest, dirs: this.dirs, entries: this.entries };
    const text = Buffer.from(JSON.stringify(full));
    await this.zip.add(BACKUP_ARCHIVE.manifest, [text], { expectedSize: text.length });
    return this.zip.finish();
  }

  /** Stops writing (the caller removes the file). */
  async abort(): Promise<void> {
    await this.zip.abort();
  }
}
