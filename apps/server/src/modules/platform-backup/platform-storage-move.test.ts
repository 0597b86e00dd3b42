import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { S3FileStore } from '../../lib/s3-file-store.js';
import { adminWithLicence, createProject, createTenant, SPM_URL, TENANT_PASSWORD } from '../../test/fixtures.js';
import { type S3TestServer, startS3Server } from '../../test/s3-server.js';
import { ADMIN_PASSWORD, createTestApp, multipartFile, type TestApp, wire } from '../../test/test-app.js';
import { PlatformBackupRepository } from './platform-backup.repository.js';
import { recoverPlatformRestore } from './platform-backup-io.js';

/**
 * Moving storage (issue 35 §3): a platform backup holds the files of whichever store is configured,
 * and a restore writes them into whichever store is configured now, through the console's upload and
 * restore. Real servers: the app on disk, the app on a private S3-compatible server (test/s3-server.ts).
 */
const PLATFORM = '/portal/rest/platform-backup';
const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;
const BACKUP = `${SPM_URL}/proxy/core/backup`;
const TEMPLATES = `${SPM_URL}/templates`;
const project = 'plant1';

let s3: S3TestServer;
const opened: TestApp[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
});

interface Platform {
  app: TestApp;
  admin: string;
  acme: string;
}

async function platform(env: Record<string, string> = {}): Promise<Platform> {
  const app = await createTestApp(env);
  opened.push(app);
  const admin = await adminWithLicence(app);
  await createTenant(app, admin, 'acme');
  const acme = await app.login('acme', TENANT_PASSWORD);
  await createProject(app, acme, { id: project });
  return { app, admin, acme };
}
const onS3 = (prefix: string) => platform({ ...s3.env, GANTRY_S3_PREFIX: prefix });

function inject(p: Platform, method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) {
  return p.app.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${p.acme}`, 'x-request-project': project, 'accept-language': 'en' },
    ...(body === undefined ? {} : { payload: body }),
  });
}

async function sendFile(p: Platform, url: string, token: string, name: string, bytes: Buffer) {
  const form = multipartFile('file', name, bytes, 'application/zip');
  const answer = await p.app.app.inject({
    method: 'POST',
    url,
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${token}`, 'x-request-project': project },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const taskOf = async (p: Platform, id: string) =>
  until(
    async () =>
      (await inject(p, 'GET', `${SPM_URL}/proxy/core/taskmanager/${id}`)).json<{ status: string; message?: string }>(),
    (task) => task.status !== 'ongoing',
    'a task',
  );

/** What must survive a move: a media file's bytes, a project backup archive, a template package. */
interface Kept {
  media: Buffer;
  backupId: string;
  archive: Buffer;
  templateId: string;
  template: Buffer;
}

async function fill(p: Platform): Promise<Kept> {
  // Larger than one multipart part (8 MiB): object storage writes it in parts.
  const media = randomBytes(9 * 1024 * 1024 + 5);
  const folder = await inject(p, 'POST', `${MEDIA}/dir`, { path: 'docs' });
  expect(folder.statusCode, folder.body).toBe(200);
  await sendFile(p, `${MEDIA}/upload?path=docs`, p.acme, 'manual.bin', media);

  const query = { name: 'nightly', item: { fileServer: true, mongodb: false }, excludedDirs: [] };
  const started = await inject(
    p,
    'GET',
    `${BACKUP}/export?projectId=${project}&query=${encodeURIComponent(JSON.stringify(query))}`,
  );
  expect(started.statusCode, started.body).toBe(200);
  const backupId = started.json<{ id: string }>().id;
  expect((await taskOf(p, backupId)).status).toBe('success');
  const archive = (await inject(p, 'GET', `${BACKUP}/download/${backupId}`)).rawPayload;
  expect(archive.subarray(0, 2).toString()).toBe('PK');

  const imported = await sendFile(p, `${TEMPLATES}/import?name=moved`, p.acme, 'moved.zip', archive);
  const templateId = imported.json<{ id: string }>().id;
  const template = (await inject(p, 'GET', `${TEMPLATES}/${templateId}/package`)).rawPayload;
  expect(template.length).toBeGreaterThan(1000);
  return { media, backupId, archive, templateId, template };
}

/** Everything kept is there and downloads with the same bytes (signed in afresh: a restore signs everyone out). */
async function expectKept(p: Platform, kept: Kept) {
  p.acme = await p.app.login('acme', TENANT_PASSWORD);
  const media = await inject(p, 'GET', `${MEDIA}/download?path=${encodeURIComponent('docs/manual.bin')}`);
  expect(media.statusCode, media.body.slice(0, 200)).toBe(200);
  expect(Buffer.compare(media.rawPayload, kept.media)).toBe(0);
  const archive = await inject(p, 'GET', `${BACKUP}/download/${kept.backupId}`);
  expect(archive.statusCode, archive.body.slice(0, 200)).toBe(200);
  expect(Buffer.compare(archive.rawPayload, kept.archive)).toBe(0);
  const template = await inject(p, 'GET', `${TEMPLATES}/${kept.templateId}/package`);
  expect(template.statusCode, template.body.slice(0, 200)).toBe(200);
  expect(Buffer.compare(template.rawPayload, kept.template)).toBe(0);
}

/** A platform backup made from the console; answers the archive's bytes and the task's log. */
async function backUp(p: Platform): Promise<{ bytes: Buffer; log: string }> {
  const started = await p.app.call('POST', PLATFORM, p.admin);
  expect(started.statusCode, started.body).toBe(200);
  const { taskId } = started.json<{ taskId: string }>();
  const [task] = await until(
    () =>
      queryRows<{ status: string; message: string | null; log: string }>(
        p.app.database.db,
        sql`SELECT status, message, log FROM tasks WHERE id = ${taskId}`,
      ),
    (rows) => rows[0]?.status !== 'ongoing',
    'the platform backup',
  );
  expect(task?.status, task?.log).toBe('success');
  const download = await p.app.call('GET', `${PLATFORM}/${task?.message}/download`, p.admin);
  expect(download.statusCode).toBe(200);
  return { bytes: download.rawPayload, log: task?.log ?? '' };
}

/** Uploads an archive to the console and restores it there, as the administrator does. */
async function restoreThrough(p: Platform, archive: Buffer) {
  const uploaded = await sendFile(p, `${PLATFORM}/upload`, p.admin, 'moved.zip', archive);
  const name = uploaded.json<{ name: string }>().name;
  const restore = await p.app.call('POST', `${PLATFORM}/${name}/restore`, p.admin, { password: wire(ADMIN_PASSWORD) });
  expect(restore.statusCode, restore.body).toBe(200);
  const ended = await until(
    async () => (await p.app.call('GET', `${PLATFORM}/restore-status`)).json<{ state: string; reason?: string }>(),
    (value) => value.state !== 'restoring',
    'the restore',
  );
  expect(ended.state, ended.reason).toBe('succeeded');
  p.admin = await p.app.login();
}

describe('moving a platform between the data directory and object storage (issue 35 §3)', () => {
  it('moves media, a project backup and a template from disk into object storage, and back', async () => {
    const disk = await platform();
    const kept = await fill(disk);
    const fromDisk = await backUp(disk);
    expect(fromDisk.log).toMatch(/files: [1-9]\d* in/);

    // Object storage with a platform of its own already there: all of it is replaced.
    const prefix = `move-${randomUUID()}/`;
    const bucket = new S3FileStore(s3.location(prefix));
    const cloud = await onS3(prefix);
    await sendFile(cloud, `${MEDIA}/upload`, cloud.acme, 'stale.txt', Buffer.from('replaced by the restore'));
    await restoreThrough(cloud, fromDisk.bytes);
    await expectKept(cloud, kept);
    expect((await inject(cloud, 'GET', `${MEDIA}/download?path=stale.txt`)).statusCode).toBe(404);
    // The files are objects of the bucket, none on the node's disk; no staging area is left.
    expect(existsSync(path.join(cloud.app.dataDir, 'projects', project, 'fileServer'))).toBe(false);
    expect(await bucket.stat(`projects/${project}/fileServer`, ['docs', 'manual.bin'])).toMatchObject({
      size: kept.media.length,
    });
    expect((await bucket.areas()).filter((area) => area.startsWith('.'))).toEqual([]);

    // Back to the disk: the archive made on object storage holds the bucket's files.
    const fromCloud = await backUp(cloud);
    expect(fromCloud.log).toMatch(/files: [1-9]\d* from object storage in/);
    const back = await platform();
    await restoreThrough(back, fromCloud.bytes);
    await expectKept(back, kept);
    const onDisk = await readFile(path.join(back.app.dataDir, 'projects', project, 'fileServer', 'docs', 'manual.bin'));
    expect(Buffer.compare(onDisk, kept.media)).toBe(0);
  }, 240_000);

  it('after a crash, finishes a restore into object storage whose data committed and drops one whose data did not', async () => {
    const prefix = `crash-${randomUUID()}/`;
    const bucket = new S3FileStore(s3.location(prefix));
    const cloud = await onS3(prefix);
    await sendFile(cloud, `${MEDIA}/upload`, cloud.acme, 'note.txt', Buffer.from('current'));
    const deps = {
      db: cloud.app.database.background,
      dataDir: cloud.app.dataDir,
      repo: new PlatformBackupRepository(),
      store: bucket,
    };
    const note = async () =>
      (await bucket.readWhole(`projects/${project}/fileServer`, ['note.txt'], 100)).bytes.toString();
    // What a restore leaves when it is killed after writing its journal: staged objects and the journal.
    const stage = async (id: string, movedAside: boolean) => {
      const staging = `.platform-restore-${id}`;
      await bucket.mkdir(`${staging}/projects`, [project, 'fileServer']);
      await bucket.write(
        `${staging}/projects`,
        [project, 'fileServer', 'note.txt'],
        Readable.from([Buffer.from(`restored ${id}`)]),
        {
          maxBytes: 100,
          overwrite: true,
        },
      );
      await writeFile(
        path.join(cloud.app.dataDir, '.platform-restore.json'),
        JSON.stringify({ id, staging, movedAside, target: 'store' }),
      );
    };

    await stage('uncommitted', false);
    expect(await recoverPlatformRestore(deps)).toBe('dropped');
    expect(await note()).toBe('current');
    expect((await bucket.areas()).filter((area) => area.startsWith('.'))).toEqual([]);

    // Committed, and cut short in the middle of setting the live areas aside.
    await stage('committed', false);
    await deps.repo.markRestoreCommitted(
      cloud.app.database.db,
      { id: 'cli', name: 'test' },
      { restoreId: 'committed' },
    );
    await bucket.moveArea(`projects/${project}`, `.platform-restore-committed.old/projects/${project}`);
    await bucket.mkdir(`projects/${project}/fileServer`, ['half-moved']);
    expect(await recoverPlatformRestore(deps)).toBe('finished');
    expect(await note()).toBe('restored committed');
    expect(await bucket.stat(`projects/${project}/fileServer`, ['half-moved'])).toBeUndefined();
    expect((await bucket.areas()).filter((area) => area.startsWith('.'))).toEqual([]);
    expect(existsSync(path.join(cloud.app.dataDir, '.platform-restore.json'))).toBe(false);
    expect(await recoverPlatformRestore(deps)).toBe('none');

    // A journal of object storage with the disk configured: refused, said why, left for the right settings.
    await stage('elsewhere', false);
    await expect(recoverPlatformRestore({ ...deps, store: undefined })).rejects.toThrow(/GANTRY_STORAGE=s3/);
    expect(await recoverPlatformRestore(deps)).toBe('dropped');
  }, 120_000);
});
