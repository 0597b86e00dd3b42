import type { BackupKind, BackupView, RestorePlan, RestoreRule } from '@gantry/shared';
import { acceptLanguage } from '../i18n';
import { fetchList, type ListPage, type ListQuery } from './list';
import { API_ROOT, RequestError, reportError, request } from './request';
import { getToken } from './session';

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

export interface ExportInput {
  name: string;
  item: BackupItemFlags;
  moduleRules: Record<string, 0>;
  excludedDirs: string[];
  requestId: string;
}

export const startBackup = (projectId: string, input: ExportInput) =>
  request<BackupStart>(`${BASE}/export`, { query: { projectId, query: json(input) }, headers: headersFor(projectId) });

export interface ImportInput {
  id: string;
  name: string;
  item: BackupItemFlags;
  moduleRules: Record<string, RestoreRule>;
  requestId: string;
}

export const startRestore = (projectId: string, input: ImportInput) =>
  request<BackupStart>(`${BASE}/import`, { query: { query: json(input) }, headers: headersFor(projectId) });

/** The dry run: what the restore would change, before the user confirms it. */
export const restorePlan = (projectId: string, input: ImportInput) =>
  request<RestorePlan>(`${BASE}/import/plan`, { query: { query: json(input) }, headers: headersFor(projectId) });

export const listBackups = (projectId: string, query: ListQuery): Promise<ListPage<BackupView>> =>
  fetchList<BackupView>(BASE, query, { headers: headersFor(projectId) });

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

/** The download as a link the browser opens itself (token and project in the query; §7). */
export function backupDownloadUrl(projectId: string, id: string, password: string): string {
  const query = new URLSearchParams({ token: getToken() ?? '', 'x-request-project': projectId });
  if (password) query.set('password', password);
  return `${API_ROOT}${BASE}/download/${encodeURIComponent(id)}?${query.toString()}`;
}

/**
 * Uploads a backup file with XMLHttpRequest (its upload events give the progress fetch cannot):
 * `onProgress(loadedMb, totalMb)`. A failure is reported like any other call's and rejects.
 */
export function uploadBackup(
  projectId: string,
  file: File,
  password: string,
  onProgress: (loaded: number, total: number) => void,
): Promise<BackupView> {
  return uploadArchive<BackupView>(`${BASE}/upload`, projectId, file, password, onProgress);
}

/** A backup file sent to `path` (project or database backups) as multipart `file`, with its progress. */
export function uploadArchive<T>(
  path: string,
  projectId: string,
  file: File,
  password: string,
  onProgress: (loaded: number, total: number) => void,
): Promise<T> {
  const form = new FormData();
  form.append('file', file, file.name);
  const query = new URLSearchParams({ projectId });
  if (password) query.set('password', password);
  const url = `${API_ROOT}${path}?${query.toString()}`;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', acceptLanguage());
    xhr.setRequestHeader('x-request-project', projectId);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      const payload = (body ?? {}) as { message?: string; code?: string };
      const error = new RequestError(payload.message || xhr.statusText, xhr.status, url, payload);
      reportError(error);
      reject(error);
    };
    xhr.onerror = () => {
      const error = new TypeError('network error');
      reportError(error);
      reject(error);
    };
    xhr.send(form);
  });
}
