import { API_ROOT, request, upload } from './request';
import { getToken } from './session';

/** A node of the media library's tree (`proxy/core/mediaLibrary/all/dir?files=true`). */
export interface MediaNode {
  path: string;
  name: string;
  type: 'dir' | 'file';
  child?: MediaNode[];
  size?: number;
  updateTime?: string;
}

const BASE = 'rest/spm/proxy/core/mediaLibrary';
const headersFor = (projectId: string) => ({ 'x-request-project': projectId });

export const mediaTree = (projectId: string) =>
  request<MediaNode[]>(`${BASE}/all/dir`, { query: { files: 'true' }, headers: headersFor(projectId) });

/**
 * Makes each folder of `path` that is not there yet, quietly: a folder that exists already answers an
 * error that means nothing here, and an upload into a folder that could not be made says so itself.
 */
export async function ensureMediaFolder(projectId: string, path: string): Promise<void> {
  const segments = path.split('/').filter(Boolean);
  for (let depth = 1; depth <= segments.length; depth++) {
    await request(`${BASE}/dir`, {
      method: 'POST',
      body: { path: segments.slice(0, depth).join('/') },
      headers: headersFor(projectId),
      noMessage: true,
    }).catch(() => undefined);
  }
}

export const makeFolder = (projectId: string, path: string) =>
  request<MediaNode>(`${BASE}/dir`, { method: 'POST', body: { path }, headers: headersFor(projectId) });

export const renameMedia = (projectId: string, path: string, name: string) =>
  request<{ path: string }>(`${BASE}/rename`, { method: 'POST', body: { path, name }, headers: headersFor(projectId) });

export const removeMedia = (projectId: string, path: string) =>
  request<{ path: string }>(BASE, { method: 'DELETE', query: { path }, headers: headersFor(projectId) });

/**
 * The file as a link the browser opens itself (download, or an image preview with `inline`): the
 * token and the project go in the query, the one media call that takes them there.
 */
export function mediaFileUrl(projectId: string, path: string, inline = false): string {
  const query = new URLSearchParams({ path, 'x-request-project': projectId, token: getToken() ?? '' });
  if (inline) query.set('inline', 'true');
  return `${API_ROOT}${BASE}/download?${query.toString()}`;
}

/** Uploads files into `folder` with their progress (0..1). A failure is reported like any other call's and rejects. */
export async function uploadMedia(
  projectId: string,
  folder: string,
  files: File[],
  onProgress: (fraction: number) => void,
): Promise<Array<{ path: string; name: string; size: number }>> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  const stored = await upload<Array<{ path: string; name: string; size: number }>>(`${BASE}/upload`, form, {
    query: { path: folder },
    headers: headersFor(projectId),
    onProgress: (loaded, total) => onProgress(loaded / total),
  });
  onProgress(1);
  return stored;
}
