import { Duplex } from 'node:stream';
import { createDeflateRaw, createGunzip, createGzip, createInflateRaw } from 'node:zlib';
import { configure } from '@zip.js/zip.js';

/** zip.js asks for raw deflate, or for gzip (whose trailer gives it the CRC-32 computed natively). */
function codec<T>(format: string, raw: T, gzip: T): T {
  if (format === 'deflate-raw') return raw;
  if (format === 'gzip') return gzip;
  throw new TypeError(`unsupported compression format ${format}`);
}

/**
 * zip.js on Node's own zlib: deflate at level 1 (what `zip -1` does: fast, and media files are mostly
 * compressed already) and inflate, both native, on the calling thread (no web workers).
 */
class NodeDeflate {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  constructor(format: string) {
    const web = Duplex.toWeb(codec(format, createDeflateRaw, createGzip)({ level: 1, memLevel: 9 }));
    this.readable = web.readable as ReadableStream<Uint8Array>;
    this.writable = web.writable as WritableStream<Uint8Array>;
  }
}

class NodeInflate {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  constructor(format: string) {
    const web = Duplex.toWeb(codec(format, createInflateRaw, createGunzip)({}));
    this.readable = web.readable as ReadableStream<Uint8Array>;
    this.writable = web.writable as WritableStream<Uint8Array>;
  }
}

let configured = false;

/** Sets zip.js up once per process. */
export function configureZip(): void {
  if (configured) return;
  configured = true;
  configure({
    useWebWorkers: false,
    useCompressionStream: true,
    CompressionStream: NodeDeflate,
    DecompressionStream: NodeInflate,
  });
}
