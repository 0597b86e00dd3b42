import { createElement, type ReactNode } from 'react';
import { ErrorToast } from '../components/ErrorToast';
import i18n, { acceptLanguage } from '../i18n';
import { toast } from './feedback';
import { currentHashPath, navigateTo } from './navigation';
import { clearUser, getToken } from './session';

/** The console and its API live under /portal/ (spec README, contract 1); paths are relative to it. */
export const API_ROOT = '/portal/';
/** The message the login page shows once (e.g. token expired), kept in sessionStorage. */
export const LOGIN_MESSAGE_KEY = 'gantry.loginMessage';
export const NOT_LOGGED_IN = 'not logged in';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: Method;
  /** JSON-encoded unless it is FormData. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Failures reject without any toast. */
  noMessage?: boolean;
  /** A 401 is an answer of its own here (the login call), not an expired session. */
  ignoreUnauthorized?: boolean;
  signal?: AbortSignal;
  /** Headers of the call's own (e.g. `x-request-project`). */
  headers?: Record<string, string>;
}

/** Every non-2xx body: `{message, code, fields?, license?}` (spec README, contract 5). */
export interface ErrorPayload {
  message?: string;
  code?: string;
  fields?: Record<string, string>;
  license?: string;
  disabled?: boolean;
}

export class RequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly fields: Record<string, string> | undefined;
  readonly license: string | undefined;
  readonly disabled: boolean;
  readonly path: string;

  constructor(message: string, status: number, path: string, payload: ErrorPayload = {}) {
    super(message);
    this.name = 'RequestError';
    this.status = status;
    this.path = path;
    this.code = payload.code;
    this.fields = payload.fields;
    this.license = payload.license;
    this.disabled = payload.disabled === true;
  }
}

export function isRequestError(error: unknown): error is RequestError {
  return error instanceof RequestError;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  // Only our own API: an absolute or protocol-relative URL would carry the token to another host.
  if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(path)) throw new Error(`request() takes API paths only: ${path}`);
  const base = path.startsWith('/') ? path : `${API_ROOT}${path}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${base}${base.includes('?') ? '&' : '?'}${text}` : base;
}

function parsePayload(text: string): ErrorPayload {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const p = parsed as Record<string, unknown>;
    const fields =
      typeof p.fields === 'object' && p.fields !== null
        ? Object.fromEntries(Object.entries(p.fields).map(([k, v]) => [k, String(v)]))
        : undefined;
    return {
      message: typeof p.message === 'string' ? p.message : undefined,
      code: typeof p.code === 'string' ? p.code : undefined,
      fields,
      license: typeof p.license === 'string' ? p.license : undefined,
      disabled: p.disabled === true,
    };
  } catch {
    return {};
  }
}

/** 401: sign out, leave the token-expired message for the login page and go there. */
function signOutExpired(): void {
  clearUser();
  try {
    sessionStorage.setItem(LOGIN_MESSAGE_KEY, i18n.t('error.unauthorized'));
  } catch {
    // ignore
  }
  const current = currentHashPath();
  if (current.startsWith('/login')) return;
  navigateTo(`/login?redirect=${encodeURIComponent(current)}`, { replace: true });
}

/** Show the right toast for a failed call (also for callers that used `noMessage` and then decided to). */
export function reportError(error: unknown): void {
  if (!isRequestError(error)) {
    if (error instanceof Error && error.name === 'AbortError') return;
    toast.error(i18n.t('request.network'));
    return;
  }
  if (error.status === 401) return;
  if (error.license !== undefined || error.disabled) {
    toast.error(`${i18n.t('request.updateLicence')}${error.license ?? error.message}`);
    return;
  }
  if (error.status === 403) {
    toast.errorWithTitle(i18n.t('request.accessDenied'), i18n.t('error.forbidden'));
    return;
  }
  if (error.status >= 500) {
    toast.error(error.message || i18n.t('error.internal'));
    return;
  }
  const content: ReactNode = createElement(ErrorToast, {
    message: error.message || i18n.t('request.failed'),
    code: error.code,
    status: error.status,
    path: error.path,
  });
  toast.error(content);
}

/**
 * The one request layer: relative `rest/spm/...` paths under /portal/, bearer token, language,
 * JSON in and out, and every failure turned into the right toast (unless `noMessage`).
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestWithHeaders<T>(path, options)).data;
}

/** `request` that also gives the response headers (lists read the total from `count`). */
export async function requestWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  const response = await send(path, options, 'application/json');
  const text = await response.text();
  const { headers } = response;
  if (!text) return { data: undefined as T, headers };
  try {
    return { data: JSON.parse(text) as T, headers };
  } catch {
    return { data: text as T, headers };
  }
}

/** A file download through the request layer (token, language, the same error handling). */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await download(path, options)).blob;
}

/** Bytes received so far, and the whole length when the server said it (`content-length`). */
export type DownloadProgress = (loaded: number, total: number | undefined) => void;

/**
 * A file download through the request layer, read as it arrives: `onProgress` after the answer's
 * headers (the server has prepared the file) and with every chunk. The file name is the one of the
 * answer's `content-disposition` when it gives one.
 */
export async function download(
  path: string,
  options: RequestOptions & { onProgress?: DownloadProgress } = {},
): Promise<{ blob: Blob; name: string | undefined }> {
  const response = await send(path, options, '*/*');
  const name = fileNameOf(response.headers.get('content-disposition'));
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const { onProgress } = options;
  if (!onProgress || !response.body) return { blob: await response.blob(), name };
  onProgress(0, total);
  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress(loaded, total);
  }
  return { blob: new Blob(chunks, { type: response.headers.get('content-type') ?? '' }), name };
}

/**
 * A file the browser downloads itself, written to disk as it arrives (a file too large to hold in
 * the page): a link, so the token goes in the query (contract 3: download links carry `?token=`).
 */
export function downloadByLink(path: string, query: Record<string, QueryValue>, name: string): void {
  const link = document.createElement('a');
  link.href = buildUrl(path, { ...query, token: getToken() ?? '' });
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** `filename*=UTF-8''…` or `filename="…"` of a content-disposition header. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall back to the plain name
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

export interface UploadOptions extends Omit<RequestOptions, 'method' | 'body' | 'ignoreUnauthorized'> {
  /** Bytes of the body sent so far, of all of it. */
  onProgress?: (loaded: number, total: number) => void;
  /** The whole body is sent: the server now reads and checks it until it answers. */
  onSent?: () => void;
}

/**
 * The one upload of the console: `form` POSTed to `path` with XMLHttpRequest (its upload events give
 * the progress fetch cannot), with the token, language and headers of every other call, and its
 * answer treated as theirs: 401 signs out, a refusal is a RequestError (its message and `code`)
 * reported by toast unless `noMessage`.
 */
export function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const url = buildUrl(path, options.query);
  const { noMessage = false, onProgress, onSent, signal } = options;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const headers: Record<string, string> = {
      ...options.headers,
      Accept: 'application/json',
      'Accept-Language': acceptLanguage(),
    };
    const token = getToken();
    if (token) headers.Authorization = authorizationFor(path, token);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    const cancel = () => xhr.abort();
    let sent = false;
    const markSent = () => {
      if (sent) return;
      sent = true;
      onSent?.();
    };
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || event.total <= 0) return;
      onProgress?.(event.loaded, event.total);
      if (event.loaded >= event.total) markSent();
    };
    xhr.upload.onload = markSent;
    const fail = (error: unknown) => {
      if (!noMessage) reportError(error);
      reject(error);
    };
    xhr.onload = () => {
      signal?.removeEventListener('abort', cancel);
      const text = xhr.responseText;
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((text ? JSON.parse(text) : undefined) as T);
        } catch {
          resolve(text as T);
        }
        return;
      }
      const payload = parsePayload(text);
      if (xhr.status === 401) {
        signOutExpired();
        reject(new RequestError(NOT_LOGGED_IN, 401, path, payload));
        return;
      }
      const fallback = xhr.status >= 500 ? i18n.t('error.internal') : xhr.statusText;
      fail(new RequestError(payload.message || fallback, xhr.status, path, payload));
    };
    xhr.onerror = () => {
      signal?.removeEventListener('abort', cancel);
      fail(new TypeError('network error'));
    };
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', cancel, { once: true });
    xhr.onloadend = () => signal?.removeEventListener('abort', cancel);
    xhr.send(form);
  });
}

/**
 * The core service takes the bare token, every other service the bearer form (console.md §7);
 * the server accepts both.
 */
export function authorizationFor(path: string, token: string): string {
  return path.startsWith('rest/core/') ? token : `Bearer ${token}`;
}

/** Sends the call; a 2xx response is returned unread, anything else becomes a RequestError. */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const { method = 'GET', body, query, noMessage = false, ignoreUnauthorized = false, signal } = options;
  const url = buildUrl(path, query);
  const headers: Record<string, string> = { ...options.headers, Accept: accept, 'Accept-Language': acceptLanguage() };
  const token = getToken();
  if (token) headers.Authorization = authorizationFor(path, token);
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: payload, signal });
  } catch (error) {
    if (!noMessage) reportError(error);
    throw error;
  }
  if (response.ok) return response;

  const errorPayload = parsePayload(await response.text());
  if (response.status === 401 && !ignoreUnauthorized) {
    signOutExpired();
    throw new RequestError(NOT_LOGGED_IN, 401, path, errorPayload);
  }
  const fallback = response.status >= 500 ? i18n.t('error.internal') : response.statusText;
  const error = new RequestError(errorPayload.message || fallback, response.status, path, errorPayload);
  if (!noMessage) reportError(error);
  throw error;
}
