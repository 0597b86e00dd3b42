import { COLLECTIONS, type Collection, DATA_MODULE_GROUPS, isCollection } from './data-modules.js';

/**
 * Project backups (backups-data-designer.md §2–§9, issue 12): the content kinds, the restore rules,
 * the selection links between data modules and the limits, shared by the server (which enforces
 * them) and the console (which offers them). Pure: no I/O, no zod (see schemas/backup.schema.ts).
 */

/** What a backup can hold: the media library, the html package, the chosen data modules. */
export const BACKUP_KINDS = ['fileServer', 'html', 'mongodb'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** A backup record's type: a backup (`export`) or a restore (`import`, the list's 'reduction' tab). */
export const BACKUP_TYPES = ['export', 'import'] as const;
export type BackupType = (typeof BACKUP_TYPES)[number];

/** The task types of backups, for the task manager's filter (running backups are found by them). */
export const BACKUP_TASK_EXPORT = 'backup.export';
export const BACKUP_TASK_IMPORT = 'backup.import';

export const BACKUP_LIMITS = {
  /** A record's name (§9 "Name max 30"). */
  nameMax: 30,
  /** Selected content above this many MB: a warning that the backup takes long (§4 Confirmations). */
  largeContentMb: 2048,
  /** An uploaded backup file above this many bytes asks for confirmation first (§4, "2 GB"). */
  largeUploadBytes: 2 * 1024 * 1024 * 1024,
  /** The console signs out this long after a restore succeeded (§9). */
  restoreRedirectMs: 5000,
  /** Entries one archive may hold (zip bombs, huge trees). */
  entriesMax: 200_000,
  /** Bytes all entries of one archive may expand to. */
  expandedBytesMax: 64 * 1024 * 1024 * 1024,
  /**
   * Expanded / compressed of one entry over 1 MiB above this is refused as a zip bomb (deflate reaches
   * about 1030 on runs of one byte; documents compress 5–30×, media files about 1×).
   */
  ratioMax: 200,
  /**
   * The whole archive's expansion over its size is held to `ratioMax` too, once it expands past this
   * (a split bomb: many small entries, each under the per-entry check, sharing or repeating one run).
   */
  ratioFloorBytes: 32 * 1024 * 1024,
  /** Free space an archive's expansion must leave in the data directory. */
  diskReserveBytes: 512 * 1024 * 1024,
  /** One line (document) of a data module file, in bytes; documents themselves are ≤ 1 MiB. */
  lineBytesMax: 2 * 1024 * 1024,
  /** The verification code of a protected download or upload. */
  passwordMax: 64,
  /** Excluded media folders one backup may name. */
  excludedDirsMax: 500,
} as const;

/** Backup record names: letters (any script), digits, dot and underscore; no other symbol (§5). */
export const BACKUP_UPLOAD_NAME = /^[\p{L}\p{N}._]+$/u;

/**
 * The record name an uploaded file gets: its name without folder or `.zip`, every run of other
 * symbols (spaces, dashes, colons…) made one underscore, at most `nameMax` characters. The rule of
 * §5 applies to this name, not to the file's own: a file the product offered for download
 * (`一号工厂_2026-11-28 20_50_56.zip`) uploads back unchanged. Empty when nothing is left.
 */
export function uploadRecordName(filename: string): string {
  const file = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  const stem = file.replace(/\.zip$/i, '');
  const name = stem.replace(/[^\p{L}\p{N}._]+/gu, '_').replace(/^_+|_+$/g, '');
  return [...name].slice(0, BACKUP_LIMITS.nameMax).join('');
}

/** Compressed files an upload may be (§5 'please upload compressed file'); the server checks the bytes too. */
export const BACKUP_UPLOAD_EXTENSIONS = ['.zip'] as const;

/** The archive's own layout: where each kind's entries live, and the manifest. */
export const BACKUP_ARCHIVE = {
  manifest: 'manifest.json',
  format: 'gantry-project-backup',
  version: 1,
  /** `mongodb/<collection>.jsonl`: one document per line. */
  modulesDir: 'mongodb',
} as const;

/**
 * The selection links of §4, which the server applies too: the data group brings user and role; a
 * table record brings its settings; a dataset its data interface; a dataset view its dataset and data
 * interface; any of dashboard, catalog, site and component brings the other three.
 */
export function linkModules(chosen: Iterable<string>): Collection[] {
  const picked = new Set<string>([...chosen].filter(isCollection));
  const add = (...names: Collection[]) => {
    for (const name of names) picked.add(name);
  };
  if (DATA_MODULE_GROUPS.data.some((name) => picked.has(name))) add('user', 'role');
  if (picked.has('table_record')) add('setting');
  if (picked.has('dataset')) add('data_interface');
  if (picked.has('dataset_view')) add('dataset', 'data_interface');
  const dashboardLinked: Collection[] = ['dashboard', 'catalog', 'site', 'component'];
  if (dashboardLinked.some((name) => picked.has(name))) add(...dashboardLinked);
  return COLLECTIONS.filter((name) => picked.has(name));
}

/** Bytes → whole MB, as every size of the backup screens is shown (§9 "sizes rounded to whole MB"). */
export const toWholeMb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** The default backup name: the project name and the time `YYYY-MM-DD HH:mm:ss`, joined by an underscore (§3). */
export function defaultBackupName(projectName: string, at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  // Keep the whole timestamp: shorten the project name when the two would pass the 30 characters.
  const room = BACKUP_LIMITS.nameMax - stamp.length - 1;
  return `${[...projectName].slice(0, Math.max(0, room)).join('')}_${stamp}`;
}
