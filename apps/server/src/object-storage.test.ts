import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from './db/database.js';
import { S3FileStore } from './lib/s3-file-store.js';
import { RestoreJournals } from './modules/backups/backup-restore.js';
import { appWithTenants, createProject, projectBody, SPM_URL } from './test/fixtures.js';
import { type S3TestServer, startS3Server } from './test/s3-server.js';
import type { TestApp } from './test/test-app.js';

/**
 * The server on object storage (issue 35): GANTRY_STORAGE=s3 against a private S3-compatible server,
 * through the API only. The project's files are objects in the bucket, none on the node's disk.
 */
const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;
const BACKUP = `${SPM_URL}/proxy/core/backup`;
const project = 'plant1';

let s3: S3TestServer;
let app: TestApp;
let acme: string;
let admin: string;
let prefix: string;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());
beforeEach(async () => {
  prefix = `node-${randomUUID()}/`;
  [app, admin, acme] = await appWithTenants(['acme'], { ...s3.env, GANTRY_S3_PREFIX: prefix });
  await createProject(app, acme, { id: project });
});
afterEach(() => app.close());

type Method = 'GET' | 'POST' | 'DELETE';
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
function call(method: Method, url: string, body?: unknown) {
  return app.app.inject({
    method,
    url,
    headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'en' },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

function form(field: string, name: string, content: Uint8Array, type = 'application/octet-stream') {
  const boundary = `----s3${randomBytes(8).toString('hex')}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(folder: string, name: string, content: Uint8Array) {
  const body = form('file', name, content);
  const response = await app.app.inject({
    method: 'POST',
    url: `${MEDIA}/upload?path=${encodeURIComponent(folder)}`,
    headers: { authorization: acme, 'x-request-project': project, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const download = async (file: string) =>
  (await call('GET', `${MEDIA}/download?path=${encodeURIComponent(file)}`)).rawPayload;
interface Node {
  path: string;
  type: string;
  size?: number;
  child?: Node[];
}
/** The library's tree without times (a restore writes its files anew, on disk too). */
const shape = (nodes: Node[]): Node[] =>
  nodes.map(({ path: at, type, size, child }) => ({ path: at, type, size, ...(child ? { child: shape(child) } : {}) }));
const listing = async () => shape((await call('GET', `${MEDIA}/all/dir?files=true`)).json<Node[]>());

async function finished(taskId: string) {
  let task = { status: 'ongoing', message: null as string | null };
  await expect
    .poll(
      async () => {
        task = (await call('GET', `${SPM_URL}/proxy/core/taskmanager/${taskId}`)).json();
        return task.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .not.toBe('ongoing');
  return task;
}

describe('project files in object storage', () => {
  it('uploads, lists, moves and downloads media as objects, nothing on the node’s disk', async () => {
    const big = randomBytes(12 * 1024 * 1024 + 17);
    expect((await call('POST', `${MEDIA}/dir`, { path: 'docs/empty' })).statusCode).toBe(200);
    await upload('docs', 'big.bin', big);
    await upload('', 'note.txt', Buffer.from('hello, bucket'));
    expect(Buffer.compare(await download('docs/big.bin'), big)).toBe(0);
    expect((await download('note.txt')).toString()).toBe('hello, bucket');
    const tree = await listing();
    expect(tree.map((node) => node.path)).toEqual(['docs', 'note.txt']);
    expect(tree[0]?.child?.map((node) => node.path)).toEqual(['docs/empty', 'docs/big.bin']);
    const moved = await call('POST', `${MEDIA}/move`, { path: 'note.txt', to: 'docs/empty' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await download('docs/empty/note.txt')).toString()).toBe('hello, bucket');

    expect(existsSync(path.join(app.dataDir, 'projects', project, 'fileServer'))).toBe(false);
    // Another node on the same bucket and prefix sees the same files.
    const other = new S3FileStore(s3.location(prefix));
    const seen = [];
    for await (const entry of other.entries(`projects/${project}/fileServer`, 100)) seen.push(entry.segments.join('/'));
    expect(seen.sort()).toEqual(['docs', 'docs/big.bin', 'docs/empty', 'docs/empty/note.txt']);
  });

  it('keeps template packages in the bucket and installs a project from one', async () => {
    const made = await app.app.inject({
      method: 'POST',
      url: `${SPM_URL}/project/_template`,
      headers: { authorization: acme, 'accept-language': 'en' },
      payload: { ...projectBody(app, { projectType: 'template' }), projectId: 'fromtpl', type: 'heating-station' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const task = await finished(made.json<{ task: { id: string } }>().task.id);
    expect(task.status, task.message ?? '').toBe('success');
    // The node's templates folder is scratch only (packages being written or read): empty after.
    expect(await readdir(path.join(app.dataDir, 'templates')).catch(() => [])).toEqual([]);
    const other = new S3FileStore(s3.location(prefix));
    const packages = [];
    for await (const entry of other.entries('templates', 100)) packages.push(entry.segments.join('/'));
    expect(packages).toEqual(expect.arrayContaining([expect.stringMatching(/^builtin-heating-station-.*\.zip$/)]));
  });

  it('backs up the project’s files from the bucket, downloads the archive, and restores them into it', async () => {
    await upload('', 'logo.png', Buffer.from('png-bytes'));
    expect((await call('POST', `${MEDIA}/dir`, { path: 'docs/empty' })).statusCode).toBe(200);
    await upload('docs', 'manual.txt', randomBytes(300_000));
    const before = await listing();
    const manual = await download('docs/manual.txt');

    const query = { name: 'nightly', item: { fileServer: true, mongodb: false }, excludedDirs: [] };
    const started = await call('GET', `${BACKUP}/export?projectId=${project}&query=${q(query)}`);
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json<{ id: string }>().id;
    expect((await finished(id)).status).toBe('success');
    const archive = await call('GET', `${BACKUP}/download/${id}`);
    expect(archive.statusCode).toBe(200);
    expect(archive.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // The archive is an object of the bucket; the node's own folder holds nothing of it.
    const bucket = new S3FileStore(s3.location(prefix));
    expect(await bucket.stat(`backups/${project}`, [`${id}.zip`])).toMatchObject({
      type: 'file',
      size: archive.rawPayload.length,
    });
    expect(await readdir(path.join(app.dataDir, 'backups', project)).catch(() => [])).toEqual([]);

    expect((await call('DELETE', `${MEDIA}?path=logo.png`)).statusCode).toBe(200);
    expect((await call('DELETE', `${MEDIA}?path=docs`)).statusCode).toBe(200);
    await upload('', 'intruder.txt', Buffer.from('x'));

    const restore = await call('GET', `${BACKUP}/import?query=${q({ id, item: { fileServer: true } })}`);
    expect(restore.statusCode, restore.body).toBe(200);
    const task = await finished(restore.json<{ id: string }>().id);
    expect(task.status, task.message ?? '').toBe('success');
    expect(await listing()).toEqual(before);
    expect(Buffer.compare(await download('docs/manual.txt'), manual)).toBe(0);
    expect((await download('logo.png')).toString()).toBe('png-bytes');
    expect(existsSync(path.join(app.dataDir, 'projects', project, 'fileServer'))).toBe(false);
    // The restore read the archive through a spool copy it left nowhere.
    expect(await readdir(path.join(app.dataDir, 'backups', project)).catch(() => [])).toEqual([]);

    // A deleted project's objects go with it.
    const deleted = await app.call('DELETE', `${SPM_URL}/project/${project}`, acme);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await bucket.hasArea(`projects/${project}/fileServer`)).toBe(false);
    expect(await bucket.hasArea(`backups/${project}`)).toBe(false);
  }, 120_000);

  it('finishes a restore’s file swap cut short while moving in, losing none of the files already moved', async () => {
    const query = { name: 'swap', item: { fileServer: true, mongodb: false }, excludedDirs: [] };
    const started = await call('GET', `${BACKUP}/export?projectId=${project}&query=${q(query)}`);
    const id = started.json<{ id: string }>().id;
    expect((await finished(id)).status).toBe('success');
    // As a restore (record `id`, committed) leaves it when stopped in the delete phase of moving its
    // staged files in: the live area holds both, staging only the one not yet deleted, the old files aside.
    const bucket = new S3FileStore(s3.location(prefix));
    const put = (area: string, name: string, text: string) =>
      bucket.write(area, [name], Readable.from([Buffer.from(text)]), { maxBytes: 1024, overwrite: true });
    const staging = `projects/${project}/.restore-${id}`;
    await put(`projects/${project}/fileServer`, 'a.txt', 'restored a');
    await put(`projects/${project}/fileServer`, 'b.txt', 'restored b');
    await put(`${staging}/fileServer`, 'b.txt', 'restored b');
    await put(`${staging}/old-fileServer`, 'c.txt', 'before the restore');
    await new RestoreJournals(app.dataDir).write({
      restoreId: id,
      projectId: project,
      kinds: ['fileServer'],
      movingIn: ['fileServer'],
    });

    expect((await app.services.backups.recover()).finished).toBe(1);
    const names = (await bucket.tree(`projects/${project}/fileServer`, [], { files: true, maxNodes: 10 })).nodes
      .map((node) => node.name)
      .sort();
    expect(names).toEqual(['a.txt', 'b.txt']);
    expect(await bucket.hasArea(staging)).toBe(false);
    expect(await new RestoreJournals(app.dataDir).all()).toEqual([]);
  }, 120_000);

  it('holds the bucket’s files in a platform backup (its log says how many came from object storage)', async () => {
    await upload('', 'note.txt', Buffer.from('in the platform backup'));
    const started = await app.app.inject({
      method: 'POST',
      url: '/portal/rest/platform-backup',
      headers: { authorization: admin },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { taskId } = started.json<{ taskId: string }>();
    let task: { status: string; log: string } | undefined;
    await expect
      .poll(
        async () => {
          [task] = await queryRows<{ status: string; log: string }>(
            app.database.db,
            sql`SELECT status, log FROM tasks WHERE id = ${taskId}`,
          );
          return task?.status;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe('success');
    expect(task?.log).toMatch(/files: [1-9]\d* from object storage in/);
  });

  it('keeps a database backup in the bucket: downloads it (plain and with a code) and restores from it', async () => {
    const DB = '/portal/rest/db-backup';
    const job = async (id: string) => {
      let answer = { status: 'running', log: '' };
      await expect
        .poll(
          async () => {
            answer = (await call('GET', `${DB}/${id}`)).json();
            return answer.status;
          },
          { timeout: 60_000, interval: 100 },
        )
        .not.toBe('running');
      return answer;
    };
    await upload('', 'kept.txt', Buffer.from('in the dump'));
    const started = await call('POST', `${DB}/dump`, {
      name: 'nightly',
      item: { fileServer: true, html: false, database: true },
      excludedDirs: [],
    });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json<{ id: string }>().id;
    expect(await job(id)).toMatchObject({ status: 'success' });
    const bucket = new S3FileStore(s3.location(prefix));
    expect(await bucket.stat(`backups/${project}/dumps`, [`${id}.zip`])).toMatchObject({ type: 'file' });
    const plain = await call('GET', `${DB}/download/${id}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const coded = await call('GET', `${DB}/download/${id}?password=${encodeURIComponent('s3cret')}`);
    expect(coded.statusCode).toBe(200);
    expect(coded.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(Buffer.compare(coded.rawPayload, plain.rawPayload)).not.toBe(0);

    expect((await call('DELETE', `${MEDIA}?path=kept.txt`)).statusCode).toBe(200);
    const restoring = await call('POST', `${DB}/restore?id=${id}`, { fileServer: true, database: true });
    expect(restoring.statusCode, restoring.body).toBe(200);
    const restored = await job(restoring.json<{ id: string }>().id);
    expect(restored.status, restored.log).toBe('success');
    expect((await download('kept.txt')).toString()).toBe('in the dump');
    expect(await readdir(path.join(app.dataDir, 'backups', project, 'dumps')).catch(() => [])).toEqual([]);

    expect((await call('DELETE', `${DB}/backup/${id}`)).statusCode).toBe(200);
    expect(await bucket.stat(`backups/${project}/dumps`, [`${id}.zip`])).toBeUndefined();
  }, 120_000);
});
