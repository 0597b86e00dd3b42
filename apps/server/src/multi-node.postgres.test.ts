/**
 * Several nodes (issue 35 §2): two built servers (`node dist/main.js`), each with a data directory
 * and a port of its own, on one PostgreSQL (GANTRY_TEST_DATABASE_URL) and one private S3-compatible
 * server. What one node receives, the other serves: media files and project backup archives.
 * Collected only by the `server-postgres` project (it exists only when that variable is set).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localDate, sha256Hex } from '@gantry/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import buildServer from './test/built-server.setup.js';
import { uploadDevelopmentLicence } from './test/dev-licence.js';
import { type S3TestServer, startS3Server } from './test/s3-server.js';
import { scratchPostgres } from './test/scratch-postgres.js';
import { freePort, startServer, stopServer } from './test/server-process.js';

const SPM = '/portal/rest/spm';
const MEDIA = `${SPM}/proxy/core/mediaLibrary`;
const BACKUP = `${SPM}/proxy/core/backup`;
const PROJECT = 'shared1';
const database = scratchPostgres('gantry_nodes');

interface Node {
  base: string;
  dataDir: string;
}
const started: ChildProcess[] = [];
const nodes: Node[] = [];
let s3: S3TestServer;
let token: string;

async function startNode(): Promise<Node> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gantry-node-'));
  const port = await freePort();
  await startServer(dataDir, port, started, {
    env: { ...s3.env, GANTRY_S3_PREFIX: `${database.name}/`, DATABASE_URL: database.url },
  });
  const node = { base: `http://127.0.0.1:${port}`, dataDir };
  nodes.push(node);
  return node;
}

function send(node: Node, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${node.base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-request-project': PROJECT,
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
}
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

let one: Node;
let two: Node;
beforeAll(async () => {
  buildServer();
  s3 = await startS3Server();
  await database.create();
  // One after the other: the second finds the database migrated.
  one = await startNode();
  two = await startNode();
  const password = sha256Hex('Admin12345');
  const registered = await fetch(`${one.base}${SPM}/admin/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  expect(registered.status).toBe(200);
  const login = await fetch(`${two.base}${SPM}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  token = ((await login.json()) as { token: string }).token;
  expect((await uploadDevelopmentLicence(one.base, token, ['gis'])).status).toBe(200);
  const project = await send(one, 'POST', `${SPM}/project`, {
    id: PROJECT,
    name: 'Shared plant',
    industry: 'coal',
    projectType: 'blank',
    grant: {
      validityPeriod: 30,
      startTime: localDate(new Date()),
      userCount: 1,
      flow: { tableCount: 1 },
      dataGathering: { point: 10 },
      features: ['gis'],
    },
  });
  expect(project.status, await project.clone().text()).toBe(200);
}, 240_000);

afterAll(async () => {
  for (const child of started) await stopServer(child);
  for (const node of nodes) await rm(node.dataDir, { recursive: true, force: true });
  await s3?.stop();
  await database.drop();
}, 60_000);

describe('two nodes on one PostgreSQL and one bucket', () => {
  it('serves from node 2 a media file uploaded to node 1, and node 1 sees what node 2 changes', async () => {
    const content = randomBytes(3 * 1024 * 1024 + 5);
    const form = new FormData();
    form.append('file', new Blob([content]), 'drawing.bin');
    const uploaded = await send(one, 'POST', `${MEDIA}/upload?path=`, form);
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const downloaded = await send(two, 'GET', `${MEDIA}/download?path=drawing.bin`);
    expect(downloaded.status).toBe(200);
    expect(Buffer.compare(await bytesOf(downloaded), content)).toBe(0);
    expect(existsSync(path.join(one.dataDir, 'projects', PROJECT, 'fileServer'))).toBe(false);

    expect((await send(two, 'POST', `${MEDIA}/rename`, { path: 'drawing.bin', name: 'plan.bin' })).status).toBe(200);
    const listed = (await (await send(one, 'GET', `${MEDIA}/all/dir?files=true`)).json()) as Array<{ path: string }>;
    expect(listed.map((node) => node.path)).toEqual(['plan.bin']);
  }, 60_000);

  it('downloads from node 2 a project backup made on node 1, byte for byte', async () => {
    const query = {
      name: 'from node 1',
      item: { fileServer: true, mongodb: true },
      moduleRules: { rule: 0 },
      excludedDirs: [],
    };
    const exported = await send(one, 'GET', `${BACKUP}/export?projectId=${PROJECT}&query=${q(query)}`);
    expect(exported.status, await exported.clone().text()).toBe(200);
    const { id } = (await exported.json()) as { id: string };
    await expect
      .poll(
        async () =>
          ((await (await send(two, 'GET', `${SPM}/proxy/core/taskmanager/${id}`)).json()) as { status: string }).status,
        { timeout: 60_000, interval: 200 },
      )
      .toBe('success');
    const fromTwo = await send(two, 'GET', `${BACKUP}/download/${id}`);
    expect(fromTwo.status).toBe(200);
    const fromOne = await send(one, 'GET', `${BACKUP}/download/${id}`);
    const archive = await bytesOf(fromTwo);
    expect(archive.subarray(0, 2).toString()).toBe('PK');
    expect(Buffer.compare(archive, await bytesOf(fromOne))).toBe(0);
    // Whichever node ran the task, the archive is in the bucket, on neither node's disk.
    for (const node of [one, two]) {
      const local = await readdir(path.join(node.dataDir, 'backups', PROJECT)).catch(() => []);
      expect(local.filter((name) => name.endsWith('.zip'))).toEqual([]);
    }
  }, 90_000);
});
