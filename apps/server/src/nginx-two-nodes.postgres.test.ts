/**
 * Two built server nodes (`node dist/main.js`) on one PostgreSQL behind Debian's nginx, run with the
 * README's example configuration (deploy/nginx.conf): the console, the sign-in, a project backup with
 * its progress over the websocket, and its download, all through the proxy, whichever node answers.
 * The nodes share the data directory here (the disk store); with GANTRY_STORAGE=s3 each has its own.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startNginx } from './test/nginx.js';
import { scratchPostgres } from './test/scratch-postgres.js';
import { call, freePort, setUpProject, sleep, startServer, stopServer } from './test/server-process.js';

const SPM = '/portal/rest/spm';
const BACKUP = `${SPM}/proxy/core/backup`;
const TASKS = `${SPM}/proxy/core/taskmanager`;
const PROJECT = 'proxied';
const database = scratchPostgres('gantry_nginx');
const started: ChildProcess[] = [];
let dir = '';
let base = '';
let ports: [number, number];

beforeAll(async () => {
  await database.create();
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-nginx-'));
  const env = { DATABASE_URL: database.url, GANTRY_TRUST_PROXY: '127.0.0.1' };
  ports = [await freePort(), await freePort()];
  // One after the other: the second finds the database migrated.
  for (const port of ports) await startServer(path.join(dir, 'data'), port, started, { env });
  const proxyPort = await freePort();
  started.push(await startNginx(path.join(dir, 'nginx'), proxyPort, ports));
  base = `http://127.0.0.1:${proxyPort}`;
}, 180_000);

afterAll(async () => {
  for (const child of started) await stopServer(child);
  if (dir) await rm(dir, { recursive: true, force: true });
  await database.drop();
}, 60_000);

describe('two nodes behind nginx (deploy/nginx.conf)', () => {
  it('serves the console, signs in, backs up with progress over the websocket and downloads, through the proxy', async () => {
    const console = await fetch(`${base}/portal/`);
    expect(console.status).toBe(200);
    expect(console.headers.get('content-type')).toContain('text/html');

    // Registered, signed in, licensed and a project made through the proxy; every call may reach either node.
    const { token, headers } = await setUpProject(base, { id: PROJECT, name: 'Behind the proxy' });
    for (let i = 0; i < 4; i++)
      expect((await call(base, 'GET', `${SPM}/login/current/user`, undefined, token)).status).toBe(200);
    const saved = await call(base, 'POST', '/portal/rest/core/rule', { id: 'r1', name: 'kept' }, token, headers);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // The websocket through the proxy: the progress of the backup, whichever node runs it.
    const socket = new WebSocket(
      `${base.replace('http', 'ws')}${SPM}/proxy/ws/historycomputed?token=${encodeURIComponent(token)}`,
    );
    const messages: string[] = [];
    socket.on('message', (data: Buffer) => messages.push(data.toString()));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ name: 'historycomputed' }));
    try {
      const query = {
        name: 'proxied',
        item: { fileServer: true, html: false, mongodb: true },
        moduleRules: { rule: 0 },
        excludedDirs: [],
      };
      const exported = await fetch(`${base}${BACKUP}/export?query=${encodeURIComponent(JSON.stringify(query))}`, {
        headers,
      });
      expect(exported.status, await exported.clone().text()).toBe(200);
      const { id } = (await exported.json()) as { id: string };
      const until = Date.now() + 60_000;
      for (;;) {
        const task = await call(base, 'GET', `${TASKS}/${id}`, undefined, token, headers);
        const status = (task.body as { status: string }).status;
        if (status !== 'ongoing') {
          expect(status, JSON.stringify(task.body)).toBe('success');
          break;
        }
        expect(Date.now()).toBeLessThan(until);
        await sleep(50);
      }
      const seen = Date.now() + 5_000;
      while (!messages.some((message) => message.includes(id))) {
        expect(Date.now(), `no progress of ${id} through the proxy: ${messages.join('\n')}`).toBeLessThan(seen);
        await sleep(50);
      }

      // The archive, from either node (round robin): the same bytes each time.
      const sizes = new Set<number>();
      for (let i = 0; i < 4; i++) {
        const download = await fetch(`${base}${BACKUP}/download/${id}`, { headers });
        expect(download.status, await download.clone().text()).toBe(200);
        const bytes = Buffer.from(await download.arrayBuffer());
        expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
        sizes.add(bytes.length);
      }
      expect(sizes.size).toBe(1);
      // Both nodes answered downloads (the proxy's log names the node of each request).
      const log = await readFile(path.join(dir, 'nginx', 'logs', 'access.log'), 'utf8');
      const nodes = new Set(
        log
          .split('\n')
          .filter((line) => line.includes(`/download/${id}`))
          .map((line) => line.match(/node=(\S+)/)?.[1]),
      );
      expect([...nodes].sort()).toEqual(ports.map((port) => `127.0.0.1:${port}`).sort());
    } finally {
      socket.terminate();
    }
  });
});
