import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type FileStore, FileStoreError } from '../../lib/file-store.js';
import { htmlArea } from '../media/media.service.js';

/** Content types of the files a web package holds; anything else is sent as bytes. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
  wasm: 'application/wasm',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  zip: 'application/zip',
};

export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 && TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** A file name that carries a content hash (build tools' `app.3f9a1c2b.js`, `index-BdX8k2Qa.css`): cached for a year. */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.[a-z0-9]+$/;

export function cacheControlOf(name: string): string {
  if (/\.html?$/i.test(name)) return 'no-cache';
  if (HASHED.test(name) && /\d/.test(name)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=300';
}

/**
 * The path after the site's prefix as segments; undefined when it tries to leave the package
 * (`..`, `.`, backslashes, NUL, control characters, or bytes that are not UTF-8).
 */
export function packageSegments(raw: string): string[] | undefined {
  const path = raw.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(decoded)) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..' || segment.length > 255)) return undefined;
  if (segments.length > 32) return undefined;
  return segments;
}

/** A small file of a package kept in memory for a moment (like a web server's open-file cache). */
interface CachedFile {
  bytes: Buffer;
  name: string;
  updateTime: Date;
  at: number;
  /** Its answer's headers, made once. */
  headers?: FileHeaders;
}

interface FileHeaders extends Record<string, string> {
  'content-type': string;
  'cache-control': string;
  etag: string;
  'last-modified': string;
}

function headersOf(name: string, size: number, updateTime: Date): FileHeaders {
  return {
    'content-type': contentTypeOf(name),
    'cache-control': cacheControlOf(name),
    etag: etagOf(size, updateTime),
    'last-modified': updateTime.toUTCString(),
  };
}

/** Files up to this size are kept; at most this many bytes in all; each for at most FILE_CACHE_MS. */
const FILE_CACHE_ENTRY_BYTES = 256 * 1024;
const FILE_CACHE_TOTAL_BYTES = 64 * 1024 * 1024;
export const FILE_CACHE_MS = 2_000;

/**
 * Recently served small files of the packages, by project and path: a file replaced in a package is
 * served new within FILE_CACHE_MS. Bounded in bytes; the oldest entries go first.
 */
export class PackageFileCache {
  private readonly files = new Map<string, CachedFile>();
  private bytes = 0;

  get(key: string, now: number): CachedFile | undefined {
    const file = this.files.get(key);
    if (!file) return undefined;
    if (now - file.at < FILE_CACHE_MS) return file;
    this.delete(key);
    return undefined;
  }

  set(key: string, file: CachedFile): void {
    if (file.bytes.length > FILE_CACHE_ENTRY_BYTES) return;
    this.delete(key);
    this.files.set(key, file);
    this.bytes += file.bytes.length;
    for (const [oldest] of this.files) {
      if (this.bytes <= FILE_CACHE_TOTAL_BYTES) break;
      this.delete(oldest);
    }
  }

  /** Forgets a project's files (its package changed, or the project did). */
  forget(projectId: string): void {
    for (const key of this.files.keys()) if (key.startsWith(`${projectId}/`)) this.delete(key);
  }

  private delete(key: string): void {
    const file = this.files.get(key);
    if (!file) return;
    this.bytes -= file.bytes.length;
    this.files.delete(key);
  }
}

const etagOf = (size: number, time: Date) => `W/"${size.toString(16)}-${time.getTime().toString(16)}"`;

/** Whether the browser's copy is current (If-None-Match first, else If-Modified-Since). */
function fresh(request: FastifyRequest, etag: string, time: Date): boolean {
  const match = request.headers['if-none-match'];
  if (match) return match.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
  const since = request.headers['if-modified-since'];
  if (since) {
    const at = Date.parse(since);
    return Number.isFinite(at) && Math.floor(time.getTime() / 1000) * 1000 <= at;
  }
  return false;
}

async function open(store: FileStore, area: string, segments: string[]) {
  try {
    return await store.read(area, segments);
  } catch (error) {
    if (error instanceof FileStoreError) return undefined;
    throw error;
  }
}

/** A small file read whole (kept by the cache), a larger one streamed; undefined when there is none. */
async function load(
  store: FileStore,
  area: string,
  segments: string[],
): Promise<{ bytes?: Buffer; stream?: Readable; size: number; updateTime: Date } | undefined> {
  const file = await open(store, area, segments);
  if (!file || file.size > FILE_CACHE_ENTRY_BYTES) return file;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  const bytes = Buffer.concat(chunks);
  return { bytes, size: bytes.length, updateTime: file.updateTime };
}

/**
 * Serves a file of a project's html package, never through a symbolic link (the store opens
 * without following), never a folder listing: a folder gives its index.html. A path that names no
 * file and looks like a page (no extension) gives the package's index.html (SPA fallback).
 * Answers false when the package has no index.html and nothing matched (the caller shows the
 * default page or a 404).
 */
export async function serveFromPackage(
  store: FileStore,
  cache: PackageFileCache,
  projectId: string,
  segments: string[],
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<'served' | 'notFound' | 'noPackage'> {
  const key = `${projectId}/${segments.join('/')}`;
  const now = performance.now();
  const cached = cache.get(key, now);
  if (cached) {
    cached.headers ??= headersOf(cached.name, cached.bytes.length, cached.updateTime);
    return send(request, reply, cached.headers, {
      bytes: cached.bytes,
      size: cached.bytes.length,
      updateTime: cached.updateTime,
    });
  }
  const area = htmlArea(projectId);
  const last = segments.at(-1) ?? '';
  const looksLikeFile = /\.[A-Za-z0-9]{1,8}$/.test(last);
  // A name with an extension is tried as a file first (no separate look at what it is).
  let file = looksLikeFile ? await load(store, area, segments) : undefined;
  let target = segments;
  if (!file) {
    const info = segments.length ? await store.stat(area, segments).catch(() => undefined) : undefined;
    if (segments.length === 0 || info?.type === 'dir') target = [...segments, 'index.html'];
    if (!looksLikeFile || info?.type === 'dir') file = await load(store, area, target);
    if (!file && info?.type !== 'file' && !looksLikeFile) {
      target = ['index.html'];
      file = await load(store, area, target);
      if (!file) return 'noPackage';
    }
  }
  if (!file) return 'notFound';
  const name = target.at(-1) ?? 'index.html';
  const headers = headersOf(name, file.size, file.updateTime);
  if (file.bytes) cache.set(key, { bytes: file.bytes, name, updateTime: file.updateTime, at: now, headers });
  return send(request, reply, headers, file);
}

async function send(
  request: FastifyRequest,
  reply: FastifyReply,
  headers: FileHeaders,
  file: { bytes?: Buffer | undefined; stream?: Readable | undefined; size: number; updateTime: Date },
): Promise<'served'> {
  reply.headers(headers);
  if (fresh(request, headers.etag, file.updateTime)) {
    file.stream?.destroy();
    await reply.code(304).send();
    return 'served';
  }
  if (request.method === 'HEAD') {
    file.stream?.destroy();
    await reply.header('content-length', file.size).send();
    return 'served';
  }
  await reply.header('content-length', file.size).send(file.bytes ?? file.stream);
  return 'served';
}
