/**
 * Several nodes (issue 35 §2): two built server processes (`node dist/main.js`) with data directories
 * of their own, on one PostgreSQL and one S3-compatible server (s3rver, started here on loopback).
 * What one node takes in, the other serves: media, a backup (its progress on the other's websocket,
 * its archive, its restore), a periodic cycle's due slot runs once; and when one is killed with SIGKILL mid-backup, the other fails that task
 * once its heartbeat stops, never runs it again, and answers throughout.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { translate } from '@gantry/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SERVER_STOPPED } from './modules/tasks/task.engine.js';
import { type S3TestServer, startS3Server } from './test/s3-server.js';
import { scratchPostgres, withClient } from './test/scratch-postgres.js';
import { call, freePort, setUpProject, sleep, startServer, stopServer } from './test/server-process.js';

const SPM = '/portal/rest/spm';
const MEDIA = `${SPM}/proxy/core/mediaLibrary`;
const BACKUP = `${SPM}/proxy/core/backup`;
const TASKS = `${SPM}/proxy/core/taskmanager`;
const PROJECT = 'shared1';
const database = scratchPostgres('gantry_nodes');
const started: ChildProcess[] = [];
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

interface Node {
  base: string;
  dir: string;
  child: ChildProcess;
}
let s3: S3TestServer;
let root = '';
let one: Node;
let two: Node;
let token = '';
let headers: Record<string, string> = {};

async function startNode(name: string): Promise<Node> {
  const dir = path.join(root, name);
  const port = await freePort();
  const env = { ...s3.env, GANTRY_S3_PREFIX: 'platform/', DATABASE_URL: database.url };
  const child = await startServer(dir, port, started, { env, log: path.join(root, `${name}.log`) });
  return { base: `http://127.0.0.1:${port}`, dir, child };
}

async function upload(node: Node, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(`${node.base}${MEDIA}/upload?path=`, { method: 'POST', headers, body: form });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function download(node: Node, url: string): Promise<Buffer> {
  const response = await fetch(`${node.base}${url}`, { headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function task(node: Node, id: string) {
  const answer = await call(node.base, 'GET', `${TASKS}/${id}`, undefined, token, headers);
  expect(answer.status).toBe(200);
  return answer.body as { status: string; progress: number; message: string | null };
}

async function finished(node: Node, id: string, within = 60_000) {
  const until = Date.now() + within;
  for (;;) {
    const found = await task(node, id);
    if (found.status !== 'ongoing') return found;
    expect(Date.now(), `task ${id} still running`).toBeLessThan(until);
    await sleep(50);
  }
}

async function exportOn(node: Node, name: string): Promise<string> {
  const query = {
    name,
    item: { fileServer: true, html: false, mongodb: true },
    moduleRules: { rule: 0 },
    excludedDirs: [],
  };
  const response = await fetch(`${node.base}${BACKUP}/export?query=${q(query)}`, { headers });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/** Every file below `dir` (a node's own data directory: scratch only, never a project's files). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

beforeAll(async () => {
  s3 = await startS3Server();
  await database.create();
  root = await mkdtemp(path.join(tmpdir(), 'gantry-nodes-'));
  // One after the other: the second finds the database migrated.
  one = await startNode('one');
  two = await startNode('two');
  ({ token, headers } = await setUpProject(one.base, { id: PROJECT, name: 'Shared plant' }));
}, 180_000);

afterAll(async () => {
  for (const child of started) await stopServer(child);
  await s3?.stop();
  if (root) await rm(root, { recursive: true, force: true });
  await database.drop();
}, 60_000);

describe('two nodes on PostgreSQL and object storage', () => {
  it('a media file uploaded on one node downloads from the other, and neither keeps it on its disk', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    await upload(one, 'shared.bin', bytes);
    expect(Buffer.compare(await download(two, `${MEDIA}/download?path=shared.bin`), bytes)).toBe(0);
    for (const node of [one, two]) {
      expect((await filesUnder(node.dir)).filter((file) => file.endsWith('shared.bin'))).toEqual([]);
    }
    // What the other node changes, this one sees.
    const renamed = await call(
      two.base,
      'POST',
      `${MEDIA}/rename`,
      { path: 'shared.bin', name: 'plan.bin' },
      token,
      headers,
    );
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const listed = await call(one.base, 'GET', `${MEDIA}/all/dir?files=true`, undefined, token, headers);
    expect((listed.body as Array<{ path: string }>).map((node) => node.path)).toEqual(['plan.bin']);
  });

  it("a backup started on one node shows its progress on the other's websocket, downloads from it and restores there", async () => {
    const socket = new WebSocket(
      `${two.base.replace('http', 'ws')}${SPM}/proxy/ws/historycomputed?token=${encodeURIComponent(token)}`,
    );
    const messages: string[] = [];
    socket.on('message', (data: Buffer) => messages.push(data.toString()));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ name: 'historycomputed' }));
    try {
      const saved = await call(
        one.base,
        'POST',
        '/portal/rest/core/rule',
        { id: 'r1', name: 'before' },
        token,
        headers,
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = await exportOn(one, 'on one');
      expect((await finished(one, id)).status).toBe('success');
      const until = Date.now() + 5_000;
      while (!messages.some((message) => message.includes(id))) {
        expect(Date.now(), 'no progress on the other node').toBeLessThan(until);
        await sleep(50);
      }
      const archive = await download(two, `${BACKUP}/download/${id}`);
      expect(archive.subarray(0, 4).toString('hex')).toBe('504b0304');
      expect(Buffer.compare(archive, await download(one, `${BACKUP}/download/${id}`))).toBe(0);
      // Whichever node ran it, the archive is in the bucket, on neither node's disk.
      for (const node of [one, two])
        expect((await filesUnder(node.dir)).filter((file) => file.endsWith('.zip'))).toEqual([]);

      // Changed after the backup, then restored on the other node: as it was.
      await call(two.base, 'PUT', '/portal/rest/core/rule/r1', { name: 'after' }, token, headers);
      const restore = {
        id,
        name: 'on two',
        item: { fileServer: true, html: false, mongodb: true },
        moduleRules: { rule: 2 },
      };
      const response = await fetch(`${two.base}${BACKUP}/import?query=${q(restore)}`, { headers });
      expect(response.status, await response.clone().text()).toBe(200);
      const restoreId = ((await response.json()) as { id: string }).id;
      expect((await finished(two, restoreId)).status).toBe('success');
      const rule = await call(one.base, 'GET', '/portal/rest/core/rule/r1', undefined, token, headers);
      expect(rule.body).toMatchObject({ name: 'before' });
    } finally {
      socket.terminate();
    }
  });

  // Last: node one does not come back.
  it("a periodic cycle's due slot runs once across both nodes", async () => {
    const made = await call(
      one.base,
      'POST',
      '/portal/rest/db-backup/cycles',
      { name: 'hourly', hours: 1, keep: 3 },
      token,
      headers,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const cycleId = (made.body as { id: string }).id;
    // Due now (the slot ten minutes ago): both nodes' schedulers (every 15 s, on the same seconds) see it.
    await withClient(database.url, (client) =>
      client.query(
        `UPDATE db_backup_cycles SET anchor_at = now() - interval '70 minutes',
             next_run_at = now() - interval '10 minutes' WHERE id = $1`,
        [cycleId],
      ),
    );
    const runs = async () =>
      (
        await withClient(database.url, (client) =>
          client.query<{ tasks: number; dumps: number }>(
            `SELECT (SELECT count(*)::int FROM tasks WHERE starts_with(id, $1)) AS tasks,
                      (SELECT count(*)::int FROM db_backups WHERE starts_with(task_id, $1)) AS dumps`,
            [`pc_${cycleId}_`],
          ),
        )
      ).rows[0];
    const until = Date.now() + 40_000;
    while ((await runs())?.tasks === 0) {
      expect(Date.now(), 'the due cycle never ran').toBeLessThan(until);
      await sleep(250);
    }
    const listed = async () =>
      (await call(two.base, 'GET', '/portal/rest/db-backup/cycles', undefined, token, headers)).body as Array<{
        id: string;
        lastResult: { status: string } | null;
      }>;
    const settledBy = Date.now() + 60_000;
    while ((await listed()).find((cycle) => cycle.id === cycleId)?.lastResult?.status !== 'success') {
      expect(Date.now(), 'the run never succeeded').toBeLessThan(settledBy);
      await sleep(500);
    }
    // Two more looks of each node's scheduler: still the one run, its one dump.
    await sleep(31_000);
    expect(await runs()).toEqual({ tasks: 1, dumps: 1 });
  }, 150_000);

  it('kill -9 of a node mid-backup: the other fails that task once its heartbeat stops, never reruns it, and answers throughout', async () => {
    // Enough media that the backup runs for a while.
    for (let i = 0; i < 6; i++) await upload(one, `bulk-${i}.bin`, randomBytes(16 * 1024 * 1024));
    const id = await exportOn(one, 'interrupted');
    const until = Date.now() + 30_000;
    while ((await task(one, id)).progress <= 0) {
      expect(Date.now(), 'the backup never started on node one').toBeLessThan(until);
      await sleep(20);
    }
    const runner = async () =>
      (
        await withClient(database.url, (client) =>
          client.query<{ runner: string | null }>('SELECT runner FROM tasks WHERE id = $1', [id]),
        )
      ).rows[0]?.runner;
    const killedRunner = await runner();
    one.child.kill('SIGKILL');
    await new Promise((resolve) => one.child.once('exit', resolve));

    // The other node answers meanwhile, and ends the task once the heartbeat is stale (30 s).
    const slowest: number[] = [];
    const deadline = Date.now() + 60_000;
    let ended: { status: string; message: string | null } | undefined;
    while (!ended) {
      const began = performance.now();
      const health = await fetch(`${two.base}/healthz`);
      expect(health.status).toBe(200);
      slowest.push(performance.now() - began);
      const found = await task(two, id);
      // Never claimed again: the task stays with the node that died until it is failed.
      expect(found.status === 'ongoing' || found.status === 'failed', JSON.stringify(found)).toBe(true);
      expect(await runner()).toBe(killedRunner);
      if (found.status !== 'ongoing') ended = found;
      expect(Date.now(), 'the task of the killed node was never failed').toBeLessThan(deadline);
      await sleep(250);
    }
    expect(ended.message).toBe(translate(SERVER_STOPPED, 'zh_Hans'));
    const listed = await call(two.base, 'GET', `${BACKUP}?query=${q({ limit: 100 })}`, undefined, token, headers);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain('interrupted');
  }, 150_000);
});
