// The floor of a start on the embedded engine, which `npm run bench -- start` compares the server
// with: the least any server of this design does before /healthz answers. It forks the engine's
// process (the built server's own dist/pglite-host.js, with the server's options), loads Fastify and
// node-postgres meanwhile, connects once and runs one statement, then listens. No routes but
// /healthz, no migrations, no caches, no logging. Run through `npm start` of a package.json the bench
// writes, so npm's own cost is in it as in the server's figure. GANTRY_DATA_DIR, PORT and HOST as
// the server reads them; one SIGTERM stops it (the engine closes its files first).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('../apps/server/', import.meta.url));
const require = createRequire(path.join(serverDir, 'package.json'));
const socketDir = mkdtempSync(path.join(tmpdir(), 'gantry-floor-'));
const options = {
  dataDir: path.join(process.env.GANTRY_DATA_DIR ?? '', 'pglite'),
  socketDir,
  sharedBuffers: '16MB',
  limitsMs: { request: 5_000, background: 600_000 },
};
const engine = fork(path.join(serverDir, 'dist/pglite-host.js'), [], {
  execArgv: ['--enable-source-maps'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
engine.send({ type: 'start', options });
const ready = new Promise((resolve, reject) => {
  engine.on('message', (message) => message.type === 'ready' && resolve(undefined));
  engine.once('exit', (code) => reject(new Error(`the engine exited with ${code}`)));
});
const Fastify = require('fastify');
const pg = require('pg');
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
await ready;
const client = new pg.Client({ host: socketDir, port: 5432, user: 'postgres', database: 'postgres' });
await client.connect();
await client.query('SELECT 1');
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', async () => {
  await app.close();
  await client.end();
  const exited = new Promise((resolve) => engine.once('exit', resolve));
  engine.send({ type: 'stop' });
  await exited;
  rmSync(socketDir, { recursive: true, force: true });
  process.exit(0);
});
