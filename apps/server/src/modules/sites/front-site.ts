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

/**
 * Serves a file of a project's html package, never through a symbolic link (the store opens
 * without following), never a folder listing: a folder gives its index.html. A path that names no
 * file and looks like a page (no extension) gives the package's index.html (SPA fallback).
 * Answers false when the package has no index.html and nothing matched (the caller shows the
 * default page or a 404).
 */
export async function serveFromPackage(
  store: FileStore,
  projectId: string,
  segments: string[],
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<'served' | 'notFound' | 'noPackage'> {
  const area = htmlArea(projectId);
  const info = segments.length ? await store.stat(area, segments).catch(() => undefined) : undefined;
  let target = segments;
  if (segments.length === 0 || info?.type === 'dir') target = [...segments, 'index.html'];
  let file = await open(store, area, target);
  const last = segments.at(-1) ?? '';
  if (!file && !(info?.type === 'file') && !/\.[A-Za-z0-9]{1,8}$/.test(last)) {
    target = ['index.html'];
    file = await open(store, area, target);
    if (!file) return 'noPackage';
  }
  if (!file) return 'notFound';
  const name = target.at(-1) ?? 'index.html';
  const etag = etagOf(file.size, file.updateTime);
  reply
    .header('content-type', contentTypeOf(name))
    .header('cache-control', cacheControlOf(name))
    .header('etag', etag)
    .header('last-modified', file.updateTime.toUTCString());
  if (fresh(request, etag, file.updateTime)) {
    file.stream.destroy();
    await reply.code(304).send();
    return 'served';
  }
  if (request.method === 'HEAD') {
    file.stream.destroy();
    await reply.header('content-length', file.size).send();
    return 'served';
  }
  await reply.header('content-length', file.size).send(file.stream);
  return 'served';
}
