/**
 * dist/main.js: the embedded engine's process forked first (it compiles PGlite while the server
 * loads: db/engine-prefork.ts), then the server (src/main.ts, bundled as dist/server.cjs) compiled
 * with V8's code cache (code-cache.ts). `node dist/main.js` does both at once; `npm start`
 * (scripts/start.mjs) checks the console's build between them. Built apart from the bundle.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCached } from './code-cache.js';
import { preforkHost } from './db/engine-prefork.js';

export { preforkHost };

export function run(): void {
  runCached(fileURLToPath(new URL('./server.cjs', import.meta.url)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  preforkHost();
  run();
}
