import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DB_BACKUP_TASK_RESTORE, translate } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tasks } from '../../db/schema.js';
import { SPM_URL } from '../../test/fixtures.js';
import { ENGINE } from '../../test/test-app.js';
import { SERVER_STOPPED } from '../tasks/task.engine.js';
import {
  BACKUP,
  CORE,
  call,
  change,
  closeWorlds,
  DB,
  database,
  dump,
  files,
  job,
  MEDIA,
  openWorld,
  project,
  put,
  q,
  restore,
  seed,
  upload,
  type World,
  worlds,
} from './db-backup.fixtures.js';

let world: World;
beforeEach(async () => {
  world = await openWorld();
  worlds.current = world;
});
afterEach(() => closeWorlds());

/** A restore job of the project, ongoing and 40 % done, last heard of at `at` by `runner`. */
const insertRestoreJob = (id: string, runner: string, at: Date) =>
  world.app.database.db.insert(tasks).values({
    id,
    projectId: project,
    type: DB_BACKUP_TASK_RESTORE,
    status: 'ongoing',
    progress: 0.4,
    params: { language: 'en' },
    requester: 'acme',
    requestId: 'r1',
    runner,
    heartbeatAt: at,
    startTime: at,
    updatedAt: at,
  });

describe('database backups', () => {
  it('dumps the whole project and restores it exactly (documents with their times, time series, file bytes)', async () => {
    await seed();
    const stats = await call('GET', `${DB}/stats?excludedDirs=${q(['docs'])}`);
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json()).toEqual([
      { name: 'fileServer', size: 0, bytes: 9, count: 1 },
      { name: 'html', size: 0, bytes: 14, count: 1 },
      expect.objectContaining({ name: 'database', size: 0, count: 34 }),
    ]);
    const beforeData = await database();
    const beforeFiles = await files();
    expect(beforeData).toHaveLength(34);

    const id = await dump('nightly');
    const list = await call('GET', `${DB}/backup?query=${q({ filter: { type: 'dump', status: 'success' } })}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id,
        name: 'nightly',
        item: { fileServer: true, html: true, database: true },
        type: 'dump',
        status: 'success',
        fileSize: 0,
        updateTime: expect.any(String),
      }),
    ]);
    // Not a project backup: the project backup list does not show it.
    expect((await call('GET', BACKUP)).json()).toEqual([]);
    // The archive opens with a standard tool: every collection, the time series included.
    const archive = path.join(world.app.dataDir, 'backups', project, 'dumps', `${id}.zip`);
    const listing = execFileSync('unzip', ['-l', archive], { encoding: 'utf8' });
    for (const entry of [
      'mongodb/data_record.jsonl',
      'mongodb/cron.jsonl',
      'mongodb/flow.jsonl',
      'fileServer/docs/manual.bin',
      'html/index.html',
    ]) {
      expect(listing).toContain(entry);
    }

    await change();
    expect(await database()).not.toEqual(beforeData);
    const done = await restore(id, { fileServer: true, html: true, database: true });
    expect(done).toMatchObject({
      status: 'success',
      log: expect.stringMatching(/^Restore successful\narchive verified \(\d+ entries\) in \d+ ms\n/),
    });
    expect(await database()).toEqual(beforeData);
    expect(await files()).toEqual(beforeFiles);
    // Open again once the job ended.
    expect((await call('GET', `${CORE}/rule/r1`)).statusCode).toBe(200);
    // The restore is one of the project's restores (its commit is what a journal's recovery looks for).
    const restores = (await call('GET', `${BACKUP}?query=${q({ filter: { type: 'import' } })}`)).json();
    expect(restores).toEqual([expect.objectContaining({ restoreFile: id, type: 'import' })]);
  });

  it('restores only the chosen parts, and refuses parts the backup does not hold', async () => {
    await seed();
    const id = await dump('data only', world, project, { database: true });
    const list = (await call('GET', `${DB}/backup`)).json();
    expect(list[0].item).toEqual({ fileServer: false, html: false, database: true });
    const beforeData = await database();
    await change();
    const changedFiles = await files();
    const refused = await call('POST', `${DB}/restore?id=${id}`, { body: { fileServer: true, database: true } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'backupPartMissing', message: expect.stringContaining('fileServer') });
    const empty = await call('POST', `${DB}/restore?id=${id}`, { body: { database: false } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('backup content cannot be empty');

    expect(await restore(id, { database: true })).toMatchObject({ status: 'success' });
    expect(await database()).toEqual(beforeData);
    expect(await files()).toEqual(changedFiles);
  });

  it('keeps tenants and projects apart', async () => {
    await seed();
    const id = await dump('mine');
    // Another tenant naming this project: as if it did not exist.
    for (const [method, url, body] of [
      ['GET', `${DB}/backup`, undefined],
      ['GET', `${DB}/stats`, undefined],
      ['GET', `${DB}/${id}`, undefined],
      ['POST', `${DB}/dump`, { name: 'steal', item: { database: true } }],
      ['POST', `${DB}/restore?id=${id}`, { database: true }],
      ['GET', `${DB}/download/${id}`, undefined],
      ['DELETE', `${DB}/backup/${id}`, undefined],
    ] as const) {
      const response = await call(method, url, { token: world.other, body });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // This tenant's other project, or another tenant's, with this project's backup and job ids.
    for (const projectId of ['plant2', 'rival']) {
      const token = projectId === 'rival' ? world.other : world.acme;
      expect((await call('GET', `${DB}/${id}`, { token, projectId })).statusCode).toBe(404);
      expect((await call('GET', `${DB}/download/${id}`, { token, projectId })).statusCode).toBe(404);
      expect((await call('DELETE', `${DB}/backup/${id}`, { token, projectId })).statusCode).toBe(404);
      const restoring = await call('POST', `${DB}/restore?id=${id}`, { token, projectId, body: { database: true } });
      expect(restoring.statusCode).toBe(404);
      expect((await call('GET', `${DB}/backup`, { token, projectId })).json()).toEqual([]);
    }
    // No project named: refused.
    expect((await call('GET', `${DB}/backup`, { projectId: null })).statusCode).toBe(400);
    // Still there, and the owner may delete it.
    expect((await call('DELETE', `${DB}/backup/${id}`)).statusCode).toBe(200);
    expect((await call('GET', `${DB}/backup`)).json()).toEqual([]);
  });

  it('refuses the data calls of a project being restored (423 projectRestoring), and lets go when its job ends', async () => {
    // A restore job running in this process (the engine's own runner claims no such row).
    const at = new Date();
    await insertRestoreJob('tRestoring', world.app.services.tasks.runner, at);
    const refusedCalls = [
      ['GET', `${CORE}/rule`],
      ['POST', `${CORE}/rule`],
      ['GET', `${MEDIA}/all/dir`],
      ['GET', `${BACKUP}`],
      ['POST', `${DB}/dump`],
      ['DELETE', `${DB}/backup/x`],
    ] as const;
    for (const [method, url] of refusedCalls) {
      const response = await call(method, url, {
        body: method === 'POST' ? { id: 'x', name: 'n', item: { database: true } } : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(423);
      expect(response.json()).toEqual({
        code: 'projectRestoring',
        message: 'The project is restoring a database backup; try again when the restore has ended',
      });
    }
    // The query form of the project (links) is refused too.
    const link = await world.app.app.inject({
      method: 'GET',
      url: `${MEDIA}/download?path=a.txt&x-request-project=${project}&token=${world.acme}`,
    });
    expect(link.statusCode).toBe(423);
    // The job can be polled, the lists read; another project goes on.
    expect((await call('GET', `${DB}/tRestoring`)).json()).toMatchObject({ status: 'running', type: 'restore' });
    expect((await call('GET', `${DB}/backup`)).statusCode).toBe(200);
    expect((await call('GET', `${CORE}/rule`, { projectId: 'plant2' })).statusCode).toBe(200);
    // A second restore is refused while one runs.
    // The job ends (as the engine records it): the project opens at once.
    await world.app.database.db.execute(
      sql`update tasks set status = 'failed', message = 'boom' where id = 'tRestoring'`,
    );
    expect((await call('GET', `${CORE}/rule`)).statusCode).toBe(200);
    expect((await call('GET', `${DB}/tRestoring`)).json()).toMatchObject({ status: 'failed', log: 'boom' });
  });

  it('lets go of a project whose restore job a stopped server left (the engine fails it)', async () => {
    const at = new Date(Date.now() - 60 * 60 * 1000);
    await insertRestoreJob('tOrphan', 'rGoneProcess', at);
    expect((await call('GET', `${CORE}/rule`)).statusCode).toBe(423);
    await expect
      .poll(async () => (await call('GET', `${DB}/tOrphan`)).json().status, { timeout: 10_000, interval: 200 })
      .toBe('failed');
    expect((await call('GET', `${DB}/tOrphan`)).json().log).toBe(translate(SERVER_STOPPED, 'en'));
    expect((await call('GET', `${CORE}/rule`)).statusCode).toBe(200);
  });

  it('downloads with a code (AES-256, opened by 7z) and uploads it with the code; a wrong or missing code is refused', async () => {
    await seed();
    const id = await dump('coded');
    const plain = await call('GET', `${DB}/download/${id}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-disposition']).toContain('coded.zip');
    const coded = await call('GET', `${DB}/download/${id}?password=${encodeURIComponent('s3cret')}`);
    expect(coded.statusCode).toBe(200);
    const zip = path.join(world.app.dataDir, 'coded.zip');
    await writeFile(zip, coded.rawPayload);
    expect(execFileSync('7z', ['l', '-slt', zip], { encoding: 'utf8' })).toContain('AES-256');
    expect(execFileSync('7z', ['t', '-ps3cret', zip], { encoding: 'utf8' })).toContain('Everything is Ok');
    // The browser link form: token and project in the query.
    const link = await world.app.app.inject({
      method: 'GET',
      url: `${DB}/download/${id}?token=${world.acme}&x-request-project=${project}`,
    });
    expect(link.statusCode).toBe(200);
    expect(link.rawPayload.equals(plain.rawPayload)).toBe(true);

    const wrong = await upload('coded.zip', coded.rawPayload, { password: 'nope', projectId: 'plant2' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('backupPasswordWrong');
    const missing = await upload('coded.zip', coded.rawPayload, { projectId: 'plant2' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('encrypted');
    expect((await call('GET', `${DB}/backup`, { projectId: 'plant2' })).json()).toEqual([]);

    const stored = await upload('coded.zip', coded.rawPayload, { password: 's3cret', projectId: 'plant2' });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toMatchObject({
      id: expect.any(String),
      name: 'coded',
      item: { fileServer: true, html: true, database: true },
      sourceProjectId: project,
    });
    // Restored into the other project: its documents become this project's (projectId rewritten).
    const beforeData = await database();
    expect(
      await restore(stored.json().id, { fileServer: true, html: true, database: true }, world, 'plant2'),
    ).toMatchObject({
      status: 'success',
    });
    const moved = await database(world, 'plant2');
    expect(moved.map(({ collection, id: docId }) => `${collection}/${docId}`)).toEqual(
      beforeData.map(({ collection, id: docId }) => `${collection}/${docId}`),
    );
    expect(moved.find((row) => row.id === 'r2')?.doc).toMatchObject({ projectId: 'plant2' });
    expect(await files(world, 'plant2')).toEqual(await files());
  });

  it('refuses bad archives and changes nothing', async () => {
    await seed();
    const beforeData = await database();
    const beforeFiles = await files();
    const garbage = await upload('broken.zip', Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(500)]));
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().code).toBe('backupArchiveInvalid');
    const notZip = await upload('notes.txt', Buffer.from('hello'));
    expect(notZip.json().message).toBe('Upload file format error, please upload compressed file!');
    const badName = await upload('!!! ###.zip', Buffer.from('PK'));
    expect(badName.json().code).toBe('backupUploadName');

    // A project backup of some modules is not a database backup.
    const started = await call(
      'GET',
      `${BACKUP}/export?query=${q({ name: 'some', item: { mongodb: true }, moduleRules: { rule: 0 } })}`,
    );
    const taskId = started.json().id;
    await expect
      .poll(async () => (await call('GET', `${SPM_URL}/proxy/core/taskmanager/${taskId}`)).json().status, {
        timeout: 30_000,
      })
      .toBe('success');
    const partial = await call('GET', `${BACKUP}/download/${taskId}`);
    const notWhole = await upload('some.zip', partial.rawPayload);
    expect(notWhole.statusCode).toBe(400);
    expect(notWhole.json()).toMatchObject({ code: 'dbBackupNotWhole' });
    expect((await call('GET', `${DB}/backup`)).json()).toEqual([]);

    // A dump damaged on disk after it was listed: the restore fails naming the problem, nothing changes.
    const id = await dump('to damage');
    const archive = path.join(world.app.dataDir, 'backups', project, 'dumps', `${id}.zip`);
    const bytes = await readFile(archive);
    await change();
    const changedData = await database();
    const changedFiles = await files();
    // One byte inside the entries (deflated, so the hash or the inflation catches it).
    const at = Math.floor(bytes.length / 3);
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    await writeFile(archive, bytes);
    const failed = await restore(id, { fileServer: true, html: true, database: true });
    expect(failed.status).toBe('failed');
    expect(failed.log).toMatch(/^The backup file is not valid: /);
    expect(await database()).toEqual(changedData);
    expect(await files()).toEqual(changedFiles);
    expect(changedData).not.toEqual(beforeData);
    expect(changedFiles).not.toEqual(beforeFiles);
  });

  it('answers that FTP storage is not configured when it is not (the list: empty, 200)', async () => {
    const list = await call('GET', `${DB}/ftp`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([]);
    expect(list.headers['ftp-configured']).toBe('false');
    // A dump without FTP storage: no warning.
    const id = await dump('local only');
    expect((await job(id)).warning).toBeUndefined();
    for (const [method, url] of [
      ['DELETE', `${DB}/ftp/x1`],
      ['GET', `${DB}/ftp/download/x1`],
      ['POST', `${DB}/ftp/restore?id=x1`],
    ] as const) {
      const response = await call(method, url, { body: method === 'POST' ? { database: true } : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(503);
      expect(response.json()).toEqual({ code: 'dbBackupFtpUnavailable', message: 'FTP storage is not configured' });
    }
  });

  it(`moves a project between engines both ways (${ENGINE} ⇄ PGlite)`, async () => {
    const embedded = await openWorld({ engine: 'pglite' });
    await seed();
    await seed(embedded);
    await put('rule', { id: 'only-embedded', x: 1 }, embedded);
    const sources: Array<[World, World]> = [
      [world, embedded],
      [embedded, world],
    ];
    for (const [from, to] of sources) {
      const expectedData = await database(from);
      const expectedFiles = await files(from);
      const id = await dump('move', from);
      const file = await call('GET', `${DB}/download/${id}`, { w: from });
      expect(file.statusCode).toBe(200);
      const stored = await upload('move.zip', file.rawPayload, { w: to });
      expect(stored.statusCode, stored.body).toBe(200);
      await change(to);
      const done = await restore(stored.json().id, { fileServer: true, html: true, database: true }, to);
      expect(done).toMatchObject({ status: 'success' });
      expect(await database(to)).toEqual(expectedData);
      expect(await files(to)).toEqual(expectedFiles);
    }
  });
});
