/**
 * dist/main.js, what `npm start` runs: the server (src/main.ts, bundled as dist/server.cjs) compiled
 * with V8's code cache (code-cache.ts). Built apart from the bundle, from Node's own modules only.
 */
import { fileURLToPath } from 'node:url';
import { runCached } from './code-cache.js';

runCached(fileURLToPath(new URL('./server.cjs', import.meta.url)));
