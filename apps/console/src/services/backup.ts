import {
  BACKUP_RECORD_STATUS_WIRE,
  type BackupKind,
  type BackupView,
  RESTORE_RULE_WIRE,
  type RecordState,
  type RestorePlan,
  RestoreRule,
  rulesOfWire,
  rulesOnWire,
  TaskState,
} from '@gantry/shared';
import { fetchList, type ListPage, type ListQuery } from './list';
import { type DownloadProgress, download, downloadByLink, request, type UploadOptions, upload } from './request';

/** The project backup calls (backups-data-designer.md §7), every one with `x-request-project`. */
const BASE = 'rest/spm/proxy/core/backup';
const headersFor = (projectId: string) => ({ 'x-request-project': projectId });
const json = (value: unknown) => JSON.stringify(value);

export type BackupItemFlags = Partial<Record<BackupKind, boolean>>;
export interface BackupSize {
  name: BackupKind;
  size: number;
  bytes: number;
  count: number;
}
export interface BackupStart {
  id: string;
  requestId: string;
}

export const backupSizes = (projectId: string, excludedDirs: string[]) =>
  request<BackupSize[]>(`${BASE}/getSizeAndTime`, {
    query: { excludedDirs: json(excludedDirs) },
    headers: headersFor(projectId),
  });

/**
 * A backup or restore record as the console uses it: its state and rules by name (the calls answer
 * the spec's `succeed` and 0, 1, 2; mapped here, at the edge).
 */
export type BackupRecord = Omit<BackupView, 'status' | 'moduleRules'> & {
  status: RecordState;
  moduleRules: Record<string, RestoreRule>;
};

const recordOf = (view: BackupView): BackupRecord => ({
  ...view,
  status: TaskState.Succeeded,
  moduleRules: rulesOfWire(view.moduleRules),
});

export interface ExportInput {
  name: string;
  item: BackupItemFlags;
  /** The data modules to back up (the call names them as `moduleRules` keys). */
  modules: string[];
  excludedDirs: string[];
  requestId: string;
}

export const startBackup = (projectId: string, { modules, ...input }: ExportInput) => {
  const moduleRules = Object.fromEntries(modules.map((module) => [module, RESTORE_RULE_WIRE[RestoreRule.Overwrite]]));
  return request<BackupStart>(`${BASE}/export`, {
    query: { projectId, query: json({ ...input, moduleRules }) },
    headers: headersFor(projectId),
  });
};

export interface ImportInput {
  id: string;
  name: string;
  item: BackupItemFlags;
  moduleRules: Record<string, RestoreRule>;
  requestId: string;
}

const importQuery = (input: ImportInput) => json({ ...input, moduleRules: rulesOnWire(input.moduleRules) });

export const startRestore = (projectId: string, input: ImportInput) =>
  request<BackupStart>(`${BASE}/import`, { query: { query: importQuery(input) }, headers: headersFor(projectId) });

/** The dry run: what the restore would change, before the user confirms it. */
export const restorePlan = (projectId: string, input: ImportInput) =>
  request<RestorePlan>(`${BASE}/import/plan`, { query: { query: importQuery(input) }, headers: headersFor(projectId) });

/** Backups (`type` export) or restores (`import`) of a project: every record listed has succeeded (§4 Lists). */
export async function listBackups(projectId: string, query: ListQuery): Promise<ListPage<BackupRecord>> {
  const filter = { ...query.filter, status: BACKUP_RECORD_STATUS_WIRE[TaskState.Succeeded] };
  const page = await fetchList<BackupView>(BASE, { ...query, filter }, { headers: headersFor(projectId) });
  return { ...page, rows: page.rows.map(recordOf) };
}

export const renameBackup = (projectId: string, id: string, name: string) =>
  request<BackupView>(`${BASE}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { name },
    headers: headersFor(projectId),
  });

export const deleteBackup = (projectId: string, id: string) =>
  request<unknown>(`${BASE}/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    query: { projectId },
    headers: headersFor(projectId),
  });

/** A backup file as downloaded (§5): with a code, the AES-256 zip made as it is sent. */
export const downloadBackup = (projectId: string, id: string, password: string, options: DownloadOptions = {}) =>
  download(`${BASE}/download/${encodeURIComponent(id)}`, {
    ...options,
    query: { password: password || undefined },
    headers: headersFor(projectId),
  });

/** The same file downloaded by the browser itself (a file too large to hold in the page). */
export const downloadBackupByLink = (projectId: string, id: string, password: string, name: string) =>
  downloadByLink(
    `${BASE}/download/${encodeURIComponent(id)}`,
    { 'x-request-project': projectId, password: password || undefined },
    name,
  );

/** Options of a backup file's download: progress, and the signal that cancels it. */
export interface DownloadOptions {
  onProgress?: DownloadProgress;
  signal?: AbortSignal;
}

/** Options of a backup file's upload: progress, the end of sending, and the signal that cancels it. */
export type ArchiveUploadOptions = Pick<UploadOptions, 'onProgress' | 'onSent' | 'signal'>;

/** Uploads a backup file (§5), verified whole by the server before it answers with the record. */
export const uploadBackup = async (
  projectId: string,
  file: File,
  password: string,
  options: ArchiveUploadOptions = {},
): Promise<BackupRecord> =>
  recordOf(await uploadArchive<BackupView>(`${BASE}/upload`, projectId, file, password, options));

/** A backup file sent to `path` (project or database backups) as multipart `file`, with its code. */
export function uploadArchive<T>(
  path: string,
  projectId: string,
  file: File,
  password: string,
  options: ArchiveUploadOptions = {},
): Promise<T> {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<T>(path, form, {
    ...options,
    query: { projectId, password: password || undefined },
    headers: headersFor(projectId),
  });
}
