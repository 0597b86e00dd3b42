import {
  type DbBackupItem,
  type DbBackupJobView,
  type DbBackupStatsView,
  type DbBackupView,
  type FtpBackupView,
  TaskState,
} from '@gantry/shared';
import { type ArchiveUploadOptions, type DownloadOptions, uploadArchive } from './backup';
import { fetchList, type ListPage } from './list';
import { download, downloadByLink, request, requestWithHeaders } from './request';

/** The database backup calls (backups-data-designer.md §7), every one with `x-request-project`. */
const BASE = 'rest/db-backup';
const headersFor = (projectId: string) => ({ 'x-request-project': projectId });

export type DbBackupSource = 'backup' | 'ftp';

export const dbBackupStats = (projectId: string, excludedDirs: string[] = []) =>
  request<DbBackupStatsView>(`${BASE}/stats`, {
    query: { excludedDirs: JSON.stringify(excludedDirs) },
    headers: headersFor(projectId),
  });

export const startDump = (
  projectId: string,
  input: { name: string; item: Partial<DbBackupItem>; excludedDirs: string[] },
) => request<{ id: string }>(`${BASE}/dump`, { method: 'POST', body: input, headers: headersFor(projectId) });

/** Restores a listed backup (`backup`) or one on the FTP server (`ftp`): the chosen parts set to true. */
export const startDbRestore = (projectId: string, source: DbBackupSource, id: string, item: Partial<DbBackupItem>) =>
  request<{ id: string }>(source === 'ftp' ? `${BASE}/ftp/restore` : `${BASE}/restore`, {
    method: 'POST',
    query: { id },
    body: item,
    headers: headersFor(projectId),
  });

/** A job as polled each second (§4); failures reach the caller without a toast (it shows the log). */
export const dbJob = (projectId: string, jobId: string) =>
  request<DbBackupJobView>(`${BASE}/${encodeURIComponent(jobId)}`, { headers: headersFor(projectId), noMessage: true });

/** The database backup list: type dump, status success (§4 Lists), with the list's own filter and page. */
export const listDbBackups = (
  projectId: string,
  query: { filter?: Record<string, unknown>; skip?: number; limit?: number } = {},
): Promise<ListPage<DbBackupView>> =>
  fetchList<DbBackupView>(
    `${BASE}/backup`,
    { ...query, filter: { ...query.filter, type: 'dump', status: TaskState.Succeeded }, sort: { createTime: -1 } },
    { headers: headersFor(projectId) },
  );

/**
 * What the FTP server holds (no filter, §4); an FTP problem rejects without a toast (the list says it).
 * `configured` is false when FTP storage is not set up (the server's `ftp-configured` header; the list is empty then).
 */
export async function listFtpBackups(projectId: string): Promise<{ rows: FtpBackupView[]; configured: boolean }> {
  const { data, headers } = await requestWithHeaders<FtpBackupView[]>(`${BASE}/ftp`, {
    headers: headersFor(projectId),
    noMessage: true,
  });
  return { rows: Array.isArray(data) ? data : [], configured: headers.get('ftp-configured') !== 'false' };
}

export const deleteDbBackup = (projectId: string, source: DbBackupSource, id: string) =>
  request<unknown>(`${BASE}/${source}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: headersFor(projectId) });

const downloadPath = (source: DbBackupSource, id: string) =>
  `${source === 'ftp' ? `${BASE}/ftp/download` : `${BASE}/download`}/${encodeURIComponent(id)}`;

/** A backup file as downloaded, from the list (`backup`) or fetched from the FTP server (`ftp`) first. */
export const downloadDbBackup = (
  projectId: string,
  source: DbBackupSource,
  id: string,
  password: string,
  options: DownloadOptions = {},
) =>
  download(downloadPath(source, id), {
    ...options,
    query: { password: password || undefined },
    headers: headersFor(projectId),
  });

/** The same file downloaded by the browser itself (a file too large to hold in the page). */
export const downloadDbBackupByLink = (
  projectId: string,
  source: DbBackupSource,
  id: string,
  password: string,
  name: string,
) =>
  downloadByLink(downloadPath(source, id), { 'x-request-project': projectId, password: password || undefined }, name);

export const uploadDbBackup = (projectId: string, file: File, password: string, options: ArchiveUploadOptions = {}) =>
  uploadArchive<DbBackupView>(`${BASE}/upload`, projectId, file, password, options);
