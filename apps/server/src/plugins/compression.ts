import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { addToVary } from '../lib/vary.js';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Text types only: JSON, text (CSV exports, HTML), XML and SVG, JavaScript. Images, archives and
 * `application/octet-stream` downloads are left alone (already compressed, or unknown).
 */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:javascript|[\w.+-]*\+?json|[\w.+-]*\+?xml)\b|image\/svg\+xml)/;

/**
 * Compression of answers (register before the routes: it attaches to each route as it is added).
 * Brotli (quality 4, the plugin's recommended default for dynamic answers) or gzip, as the caller
 * accepts, above COMPRESS_THRESHOLD for buffered answers (streamed ones, such as files, are
 * compressed whatever their size when their type is compressible). Requests are never decompressed:
 * a compressed body would dodge the body size limit's intent and costs the server, not the caller.
 * The console's files are precompressed at build time and sent as they are by @fastify/static.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
  });
}

/**
 * Adds `Accept-Encoding` to `Vary` on every answer of `scope` (the console's files, whose body
 * depends on it through their precompressed variants), keeping what is there (CORS adds `Origin`).
 */
export function varyOnAcceptEncoding(scope: FastifyInstance): void {
  scope.addHook('onSend', (_request, reply, payload, done) => {
    addToVary(reply, 'Accept-Encoding');
    done(null, payload);
  });
}
