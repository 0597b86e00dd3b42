// npm start: install what is missing, build the console and the server when older than their sources,
// then run the built server (apps/server/dist/main.js) IN THIS PROCESS: no second node process, so the
// SIGINT/SIGTERM npm forwards to this script reaches the server's own handlers (graceful shutdown:
// apps/server/src/main.ts). Migrations apply at start. Honours PORT, HOST, GANTRY_DATA_DIR, DATABASE_URL
// and NODE_ENV (default production).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureConsoleBuilt, ensureDependencies, ensureServerBuilt, ROOT } from './lib.mjs';

ensureDependencies();
await ensureServerBuilt();

process.env.NODE_ENV ??= 'production';
// package.json starts this script with --enable-source-maps: stack traces name the TypeScript sources.
const server = await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/main.js')).href);
// The embedded engine's process starts first (the longest part of a start), the console's check
// (and build, when stale) meanwhile.
server.preforkHost();
ensureConsoleBuilt();
server.run();
