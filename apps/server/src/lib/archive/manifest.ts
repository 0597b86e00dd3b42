import { z } from 'zod';
import { ArchiveProblem } from './archive-problem.js';
import type { ArchiveEntry, ArchiveReader } from './archive-reader.js';

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
async function readManifestJson(reader: ArchiveReader, entry: ArchiveEntry): Promise<unknown> {
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

/** An archive format's manifest: its entry's name, the format and version it states, its schema. */
export interface ManifestFormat<M> {
  file: string;
  format: string;
  version: number;
  /** Entries the archive may hold (its reader was opened with this bound). */
  entriesMax: number;
  schema: z.ZodType<M>;
}

const manifestHead = z.object({ format: z.unknown(), version: z.unknown() }).partial();

/**
 * Reads an archive's manifest and checks it: the entry count, present, within its bound, JSON, the
 * format and version it states (an unknown version is named), then its schema (the first issue's
 * path is named).
 */
export async function readArchiveManifest<M>(reader: ArchiveReader, format: ManifestFormat<M>): Promise<M> {
  if (reader.entries.length > format.entriesMax + 1) {
    throw new ArchiveProblem('tooManyEntries', { max: format.entriesMax });
  }
  const entry = reader.entries.find((candidate) => candidate.filename === format.file);
  if (!entry || entry.directory) throw new ArchiveProblem('manifestMissing');
  const raw = await readManifestJson(reader, entry);
  const head = manifestHead.safeParse(raw);
  const stated = head.success ? head.data : {};
  if (stated.format !== format.format) throw new ArchiveProblem('manifestInvalid', { detail: 'format' });
  if (stated.version !== format.version) throw new ArchiveProblem('version', { version: String(stated.version) });
  const parsed = format.schema.safeParse(raw);
  if (!parsed.success) {
    throw new ArchiveProblem('manifestInvalid', { detail: parsed.error.issues[0]?.path.join('.') || 'shape' });
  }
  return parsed.data;
}
