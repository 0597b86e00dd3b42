/**
 * dist/main.js, what `npm start` runs: the embedded engine's process forked at once (it compiles
 * PGlite while the server loads: db/engine-prefork.ts), then the server (src/main.ts, bundled as
 * dist/server.cjs) compiled with V8's code cache (code-cache.ts). Built apart from the bundle.
 */
import { fileURLToPath } from 'node:url';
import { runCached } from './code-cache.js';
import { preforkHost } from './db/engine-prefork.js';

preforkHost();
runCached(fileURLToPath(new URL('./server.cjs', import.meta.url)));
