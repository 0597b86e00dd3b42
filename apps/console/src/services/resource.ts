import { request } from './request';

/** Upload one image (multipart field `file`); the answer's url is served by the server. */
export function uploadImage(file: File | Blob, signal?: AbortSignal): Promise<{ url: string }> {
  const body = new FormData();
  body.append('file', file);
  return request('rest/spm/resource/img', { method: 'POST', body, signal });
}
