import {
  BACKUP_ARCHIVE,
  BACKUP_KINDS,
  BACKUP_LIMITS,
  type BackupItem,
  checkMediaPath,
  DOCUMENT_LIMITS,
  isCollection,
} from '@gantry/shared';
import { z } from 'zod';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import type { ArchiveReader } from '../../lib/archive/archive-reader.js';
import { checkEntryLimits, type ListedEntry, verifyContents } from '../../lib/archive/entry-checks.js';
import { readArchiveManifest } from '../../lib/archive/manifest.js';
import { isPlainObject } from '../../lib/list-query/bad-query.js';

/**
 * The project backup archive (issue 12 §1, design D6): a zip with `mongodb/<collection>.jsonl` (one
 * document per line), `fileServer/…` and `html/…` (the files), and `manifest.json`, written last,
 * which lists every entry with its size and SHA-256. Written as a stream (never the whole archive in
 * memory) and read by random access from its file; an archive is verified whole before it is used.
 */

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
/** What a writer of the archive gives: the manifest less what it lists as it goes. */
export type ManifestHead = Omit<Manifest, 'entries' | 'dirs'>;

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
    const module = match[1] ?? '';
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

/** How deep containers nest in `value` (the value itself, when one, is 1), counted up to past `limit`. */
function depthOf(value: unknown, limit: number, depth = 1): number {
  if (value === null || typeof value !== 'object') return depth - 1;
  if (depth > limit) return depth;
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
  if (!isPlainObject(value)) return undefined;
  const { id, createTime, updateTime, doc } = value;
  if (typeof id !== 'string' || id === '' || id.length > DOCUMENT_LIMITS.idMax || id.includes('\u0000'))
    return undefined;
  if (typeof createTime !== 'string' || typeof updateTime !== 'string') return undefined;
  const created = new Date(createTime);
  const updated = new Date(updateTime);
  if (Number.isNaN(created.getTime()) || Number.isNaN(updated.getTime())) return undefined;
  if (!isPlainObject(doc)) return undefined;
  if (depthOf(doc, DOCUMENT_LIMITS.depth) > DOCUMENT_LIMITS.depth) return undefined;

  return { id, createTime: created, updateTime: updated, doc };
}

export interface VerifyOptions {
  /** Called with bytes read so far over the archive's total expanded bytes (0..1). */
  onProgress?: (fraction: number) => void;
  /** A safe point between entries (a task's checkpoint). */
  checkpoint?: () => Promise<void>;
  /** Data modules whose files the caller checks as it reads them (`moduleCheck`): left out here. */
  leaveModules?: ReadonlySet<string>;
}

/** An archive's manifest and the entries it lists, checked but not yet read (`readStructure`). */
export interface ArchiveStructure {
  manifest: Manifest;
  contents: ListedEntry[];
}

/** Reads and checks `manifest.json` and every entry's name and declared sizes (no content yet). */
export async function readStructure(reader: ArchiveReader): Promise<ArchiveStructure> {
  const { entries } = reader;
  const manifest = await readArchiveManifest(reader, {
    file: BACKUP_ARCHIVE.manifest,
    format: BACKUP_ARCHIVE.format,
    version: BACKUP_ARCHIVE.version,
    entriesMax: BACKUP_LIMITS.entriesMax,
    schema: manifestSchema,
  });
  for (const module of Object.keys(manifest.modules)) {
    if (!isCollection(module)) throw new ArchiveProblem('unknownModule', { module });
  }

  const listed = new Map(manifest.entries.map((entry) => [entry.path, entry]));
  const dirs = new Set(manifest.dirs);
  const seen = new Set<string>();
  let totalBytes = 0;
  const contents: ListedEntry[] = [];
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
    contents.push({
      entry,
      declared,
      ...(place.kind === 'mongodb' && {
        lines: {
          module: place.module,
          max: BACKUP_LIMITS.lineBytesMax,
          valid: (line: string) => !!parseDocumentLine(line),
          expected: manifest.modules[place.module]?.documents,
        },
      }),
    });
  }
  for (const entry of manifest.entries)
    if (!seen.has(entry.path)) throw new ArchiveProblem('missing', { path: entry.path });
  for (const dir of manifest.dirs) if (!seen.has(`${dir}/`)) throw new ArchiveProblem('missing', { path: `${dir}/` });
  for (const module of Object.keys(manifest.modules)) {
    if (!seen.has(`${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`)) {
      throw new ArchiveProblem('missing', { path: `${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl` });
    }
  }
  return { manifest, contents };
}

/**
 * Verifies the whole archive before anything is changed (design D6): the manifest (present, known
 * version, valid), every entry's name (confined to its folder, no links), declared sizes, the
 * expanded total and each entry's compression ratio (zip bombs), then every entry's bytes against its
 * size and SHA-256, and every document line of the data modules. Answers the manifest.
 */
export async function verifyArchive(reader: ArchiveReader, options: VerifyOptions = {}): Promise<Manifest> {
  const structure = await readStructure(reader);
  await verifyEntries(reader, structure, options);
  return structure.manifest;
}

/** `verifyArchive`'s second half, for a structure already read: every entry's bytes and lines. */
export async function verifyEntries(
  reader: ArchiveReader,
  { contents }: ArchiveStructure,
  options: VerifyOptions = {},
): Promise<void> {
  const left = options.leaveModules;
  await verifyContents(
    reader,
    left ? contents.filter(({ lines }) => !(lines && left.has(lines.module))) : contents,
    options,
  );
}

/** Only the structure (manifest, names, sizes, limits): quick, for answers given at once (uploads, dry runs). */
export async function readManifest(reader: ArchiveReader): Promise<Manifest> {
  return (await readStructure(reader)).manifest;
}

export const EMPTY_ITEM: BackupItem = { fileServer: false, html: false, mongodb: false };
export const kindsOf = (item: BackupItem) => BACKUP_KINDS.filter((kind) => item[kind]);
