import { z } from 'zod';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import type { ArchiveReader } from '../../lib/archive/archive-reader.js';
import { checkEntryLimits, type ListedEntry, verifyContents } from '../../lib/archive/entry-checks.js';
import { readArchiveManifest } from '../../lib/archive/manifest.js';

/**
 * The whole-platform archive (issue 13 §4): a zip with `tables/<table>.jsonl` (one row per line, as
 * PostgreSQL's `row_to_json` writes it), `files/<area>/…` (the data directory's file areas) and
 * `manifest.json`, written last, listing every entry with its size and SHA-256. Verified whole
 * before anything changes, with the project backups' reader and refusals.
 */
export const PLATFORM_ARCHIVE = {
  manifest: 'manifest.json',
  format: 'gantry-platform-backup',
  version: 1,
  tablesDir: 'tables',
  filesDir: 'files',
} as const;

export const PLATFORM_LIMITS = {
  /** Entries one platform archive may hold (every file of every project, and the tables). */
  entriesMax: 2_000_000,
  /** One row, in bytes (a document is ≤ 1 MiB; its JSON escapes can double it). */
  lineBytesMax: 4 * 1024 * 1024,
  /** One entry's path. */
  pathMax: 1024,
} as const;

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const manifestSchema = z.object({
  format: z.literal(PLATFORM_ARCHIVE.format),
  version: z.literal(PLATFORM_ARCHIVE.version),
  createTime: z.iso.datetime(),
  appVersion: z.string().max(64),
  engine: z.enum(['pglite', 'postgres']),
  /** How many schema migrations the writing server had applied: a restore needs the same. */
  schema: z.object({ migrations: z.number().int().nonnegative() }),
  tables: z.record(z.string().regex(TABLE_NAME), z.object({ rows: z.number().int().nonnegative() })),
  entries: z
    .array(
      z.object({
        path: z.string().max(PLATFORM_LIMITS.pathMax),
        size: z.number().int().nonnegative(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .max(PLATFORM_LIMITS.entriesMax),
});
export type PlatformManifest = z.infer<typeof manifestSchema>;

export type PlatformEntryPlace =
  | { kind: 'table'; table: string }
  | { kind: 'file'; path: string }
  | { kind: 'manifest' };

/** A relative path with no way out: no empty, `.` or `..` segment, no backslash, drive or NUL. */
export function isSafeRelativePath(path: string): boolean {
  if (path === '' || path.length > PLATFORM_LIMITS.pathMax) return false;
  if (path.startsWith('/') || /^[a-z]:/i.test(path) || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** Places an entry name, or answers why it is not safe (zip-slip). */
export function placePlatformEntry(name: string): PlatformEntryPlace | ArchiveProblem {
  if (name === PLATFORM_ARCHIVE.manifest) return { kind: 'manifest' };
  const tables = `${PLATFORM_ARCHIVE.tablesDir}/`;
  const files = `${PLATFORM_ARCHIVE.filesDir}/`;
  if (name.startsWith(tables)) {
    const match = /^([a-z_][a-z0-9_]*)\.jsonl$/.exec(name.slice(tables.length));
    const table = match?.[1];
    if (table === undefined || !TABLE_NAME.test(table)) return new ArchiveProblem('unsafePath', { path: name });
    return { kind: 'table', table };
  }
  if (name.startsWith(files) && isSafeRelativePath(name.slice(files.length))) {
    return { kind: 'file', path: name.slice(files.length) };
  }
  return new ArchiveProblem('unsafePath', { path: name.slice(0, 200) });
}

/** One table row as archived: a JSON object on one line. */
export function isRowLine(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

export interface PlatformVerifyOptions {
  /** The tables this server has: an archive naming another is refused. */
  knownTables: ReadonlySet<string>;
  onProgress?: (fraction: number) => void;
}

export interface VerifiedPlatformArchive {
  manifest: PlatformManifest;
  /** Bytes the files expand to (the disk space a restore needs). */
  fileBytes: number;
}

/**
 * Verifies the whole archive: the manifest (present, known format and version, valid), every entry's
 * name (confined, no links, no directories), declared size, compression ratio and the expanded
 * total, then every entry's bytes against its size and SHA-256 and every table line (a JSON object;
 * as many as the manifest says).
 */
export async function verifyPlatformArchive(
  reader: ArchiveReader,
  options: PlatformVerifyOptions,
): Promise<VerifiedPlatformArchive> {
  const { entries } = reader;
  const manifest = await readArchiveManifest(reader, {
    file: PLATFORM_ARCHIVE.manifest,
    format: PLATFORM_ARCHIVE.format,
    version: PLATFORM_ARCHIVE.version,
    entriesMax: PLATFORM_LIMITS.entriesMax,
    schema: manifestSchema,
  });
  const manifestEntry = entries.find((entry) => entry.filename === PLATFORM_ARCHIVE.manifest);
  for (const table of Object.keys(manifest.tables)) {
    if (!options.knownTables.has(table)) throw new ArchiveProblem('unknownModule', { module: table });
  }

  const listed = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  const seen = new Set<string>();
  let fileBytes = 0;
  const contents: ListedEntry[] = [];
  for (const entry of entries) {
    const name = entry.filename;
    if (entry === manifestEntry) continue;
    if (seen.has(name)) throw new ArchiveProblem('unsafePath', { path: name.slice(0, 200) });
    seen.add(name);
    if (entry.symlink) throw new ArchiveProblem('symlink', { path: name.slice(0, 200) });
    const place = placePlatformEntry(name);
    if (place instanceof ArchiveProblem) throw place;
    if (entry.directory || place.kind === 'manifest')
      throw new ArchiveProblem('unlisted', { path: name.slice(0, 200) });
    if (place.kind === 'table' && !manifest.tables[place.table]) throw new ArchiveProblem('unlisted', { path: name });
    const declared = listed.get(name);
    if (!declared) throw new ArchiveProblem('unlisted', { path: name.slice(0, 200) });
    checkEntryLimits(entry, declared);
    if (place.kind === 'file') fileBytes += entry.uncompressedSize;
    contents.push({
      entry,
      declared,
      ...(place.kind === 'table' && {
        lines: {
          module: place.table,
          max: PLATFORM_LIMITS.lineBytesMax,
          valid: isRowLine,
          expected: manifest.tables[place.table]?.rows,
        },
      }),
    });
  }
  for (const entry of manifest.entries)
    if (!seen.has(entry.path)) throw new ArchiveProblem('missing', { path: entry.path });
  for (const table of Object.keys(manifest.tables)) {
    const path = `${PLATFORM_ARCHIVE.tablesDir}/${table}.jsonl`;
    if (!seen.has(path)) throw new ArchiveProblem('missing', { path });
  }

  await verifyContents(reader, contents, options);
  return { manifest, fileBytes };
}
