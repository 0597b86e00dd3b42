import { Duplex } from 'node:stream';
import { constants, createDeflateRaw, createInflateRaw } from 'node:zlib';
import { configure } from '@zip.js/zip.js';

/**
 * zip.js on Node's own zlib: deflate at level 1 (what `zip -1` does: fast, and media files are mostly
 * compressed already) and inflate, both native, on the calling thread (no web workers).
 */
class NodeDeflate {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  constructor(format: string) {
    if (format !== 'deflate-raw') throw new TypeError(`unsupported compression format ${format}`);
    const web = Duplex.toWeb(createDeflateRaw({ level: 1, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY }));
    this.readable = web.readable as ReadableStream<Uint8Array>;
    this.writable = web.writable as WritableStream<Uint8Array>;
  }
}

class NodeInflate {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  constructor(format: string) {
    if (format !== 'deflate-raw') throw new TypeError(`unsupported compression format ${format}`);
    const web = Duplex.toWeb(createInflateRaw());
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
