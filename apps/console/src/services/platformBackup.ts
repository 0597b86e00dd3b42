import type { PlatformBackupStatus, PlatformBackupView } from '@gantry/shared';
import { API_ROOT, request, upload } from './request';
import { getToken } from './session';

/** Whole-platform backups (issue 13 §4), the administrator's. */
const BASE = 'rest/platform-backup';

export const PLATFORM_BACKUPS_KEY = ['platform-backups'] as const;

export const listPlatformBackups = () => request<PlatformBackupView[]>(BASE);

export const startPlatformBackup = () => request<{ taskId: string }>(BASE, { method: 'POST' });

export const deletePlatformBackup = (name: string) =>
  request<unknown>(`${BASE}/${encodeURIComponent(name)}`, { method: 'DELETE' });

/** The restore answers at once; `platformRestoreStatus` tells how it goes. */
export const restorePlatform = (name: string, password: string) =>
  request<unknown>(`${BASE}/${encodeURIComponent(name)}/restore`, {
    method: 'POST',
    body: { password },
    noMessage: true,
  });

/** No session needed (the restore signs everyone out); never an error toast. */
export const platformRestoreStatus = () =>
  request<PlatformBackupStatus>(`${BASE}/restore-status`, { noMessage: true, ignoreUnauthorized: true });

export const taskOf = (id: string) =>
  request<{ status: string; progress: number; message: string | null }>(
    `rest/spm/proxy/core/taskmanager/${encodeURIComponent(id)}`,
  );

/** The download as a link the browser opens itself (the token in the query). */
export function platformBackupDownloadUrl(name: string): string {
  const query = new URLSearchParams({ token: getToken() ?? '' });
  return `${API_ROOT}${BASE}/${encodeURIComponent(name)}/download?${query.toString()}`;
}

/** A platform backup file sent as multipart `file`, with its progress; rejects with the server's refusal. */
export function uploadPlatformBackup(file: File, onProgress: (fraction: number) => void): Promise<PlatformBackupView> {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload<PlatformBackupView>(`${BASE}/upload`, form, {
    noMessage: true,
    onProgress: (loaded, total) => onProgress(loaded / total),
  });
}
