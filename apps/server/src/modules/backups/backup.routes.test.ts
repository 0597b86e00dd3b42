import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { translate } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectDocuments } from '../../db/schema.js';
import { ArchiveReader } from '../../lib/archive/archive-reader.js';
import { TRASH_FOLDER, Trash } from '../../lib/trash.js';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import { multipartFile, type TestApp } from '../../test/test-app.js';
import { SERVER_STOPPED } from '../tasks/task.engine.js';
import { importTask } from './backup.service.js';
import { verifyArchive } from './backup-archive.js';

const BACKUP = `${SPM_URL}/proxy/core/backup`;
const CORE = '/portal/rest/core';
const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;

let app: TestApp;
let acme: string;
let other: string;
const project = 'plant1';

beforeEach(async () => {
  [app, , acme, other] = await appWithTenants(['acme', 'other']);
  await createProject(app, acme, { id: project });
  await createProject(app, acme, { id: 'plant2' });
  await createProject(app, other, { id: 'rival' });
  await app.app.ready();
});
afterEach(() => app.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
function call(method: Method, url: string, options: { token?: string; projectId?: string; body?: unknown } = {}) {
  return app.app.inject({
    method,
    url,
    headers: {
      authorization: options.token ?? acme,
      'accept-language': 'en',
      ...(options.projectId === undefined
        ? { 'x-request-project': project }
        : options.projectId
          ? { 'x-request-project': options.projectId }
          : {}),
    },
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  });
}
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function put(collection: string, doc: Record<string, unknown>, projectId = project) {
  const response = await call('POST', `${CORE}/${collection}`, { projectId, body: doc });
  expect(response.statusCode, response.body).toBe(200);
}

/**
 * A table document as a template install or an earlier version left it: the generic data layer makes
 * no tables (only the designer does, `tableUseDesigner`), so it is written as the repository stores it.
 */
async function putTable(doc: { id: string; name: string }, projectId = project) {
  const now = new Date();
  await app.database.db
    .insert(projectDocuments)
    .values({ projectId, collection: 'table', id: doc.id, doc, createTime: now, updateTime: now });
}

/** A zip file as the upload calls take it (multipart `file`). */
const form = (name: string, content: Uint8Array) => multipartFile('file', name, content, 'application/zip');

async function uploadMedia(folder: string, name: string, content: Uint8Array, projectId = project) {
  const body = form(name, content);
  const response = await app.app.inject({
    method: 'POST',
    url: `${MEDIA}/upload?path=${encodeURIComponent(folder)}`,
    headers: { authorization: acme, 'x-request-project': projectId, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function finished(taskId: string, token = acme) {
  let task: { status: string; message: string | null; progress: number } = {
    status: 'ongoing',
    message: null,
    progress: 0,
  };
  await expect
    .poll(
      async () => {
        task = (await call('GET', `${SPM_URL}/proxy/core/taskmanager/${taskId}`, { token })).json();
        return task.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .not.toBe('ongoing');
  return task;
}

async function exportBackup(query: Record<string, unknown>, projectId = project) {
  const started = await call('GET', `${BACKUP}/export?projectId=${projectId}&query=${q(query)}`, { projectId });
  expect(started.statusCode, started.body).toBe(200);
  const { id } = started.json<{ id: string }>();
  const task = await finished(id);
  expect(task.status, task.message ?? '').toBe('success');
  return id;
}

async function restore(query: Record<string, unknown>, projectId = project) {
  const started = await call('GET', `${BACKUP}/import?query=${q(query)}`, { projectId });
  expect(started.statusCode, started.body).toBe(200);
  return finished(started.json<{ id: string }>().id);
}

async function documents(collection: string, projectId = project) {
  const response = await call('GET', `${CORE}/${collection}?query=${q({ limit: 1000, sort: { id: 1 } })}`, {
    projectId,
  });
  return response.json<Array<Record<string, unknown>>>().map(({ updateTime: _u, ...doc }) => doc);
}

async function mediaFiles(projectId = project): Promise<Record<string, string>> {
  const root = path.join(app.dataDir, 'projects', projectId, 'fileServer');
  const found: Record<string, string> = {};
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        found[`${rel}/`] = 'dir';
        await walk(path.join(dir, entry.name), `${rel}/`);
      } else found[rel] = (await readFile(path.join(dir, entry.name))).toString('base64');
    }
  };
  await walk(root, '');
  return found;
}

async function seed() {
  await put('rule', { id: 'r1', name: 'high temperature', threshold: 80 });
  await put('rule', { id: 'r2', name: 'low pressure', threshold: 1.5, projectId: project });
  await putTable({ id: 't1', name: 'wells' });
  await put('table_record', { id: 'tr1', tableId: 't1', values: { depth: 1200 } });
  await put('user', { id: 'u1', name: 'operator' });
  await put('setting', { id: 's1', key: 'theme', value: 'dark' });
  await put('cron', { id: 'c1', every: '5m' });
  await uploadMedia('', 'logo.png', Buffer.from('png-bytes'));
  const mkdir1 = await call('POST', `${MEDIA}/dir`, { body: { path: 'docs/empty' } });
  expect(mkdir1.statusCode).toBe(200);
  await uploadMedia('docs', 'manual.txt', randomBytes(300_000));
  await mkdir(path.join(app.dataDir, 'projects', project, 'html'), { recursive: true });
  await writeFile(path.join(app.dataDir, 'projects', project, 'html', 'index.html'), '<h1>front</h1>');
}

describe('project backups', () => {
  it('backs up documents (with the selection links), files and html, and restores them exactly', async () => {
    await seed();
    const sizes = await call('GET', `${BACKUP}/getSizeAndTime?excludedDirs=${q(['docs'])}`);
    expect(sizes.statusCode, sizes.body).toBe(200);
    expect(sizes.json()).toEqual([
      { name: 'fileServer', size: 0, bytes: 9, count: 1 },
      { name: 'html', size: 0, bytes: 14, count: 1 },
      expect.objectContaining({ name: 'mongodb', count: 7 }),
    ]);
    const beforeRules = await documents('rule');
    const beforeRecords = await documents('table_record');
    const beforeFiles = await mediaFiles();

    const id = await exportBackup({
      name: 'nightly',
      item: { fileServer: true, html: true, mongodb: true },
      moduleRules: { rule: 0, table_record: 0 },
      excludedDirs: [],
    });
    const record = (await call('GET', `${BACKUP}/${id}`)).json();
    expect(record).toMatchObject({
      id,
      name: 'nightly',
      type: 'export',
      status: 'succeed',
      item: { fileServer: true, html: true, mongodb: true },
      // table_record brought setting, and the data group user and role.
      documents: { rule: 2, table_record: 1, user: 1, role: 0, setting: 1 },
      safety: false,
      sourceProjectId: project,
    });
    expect(record.documents.cron).toBeUndefined();

    // The archive opens with a standard tool and verifies whole.
    const file = path.join(app.dataDir, 'backups', project, `${id}.zip`);
    const listing = execFileSync('unzip', ['-l', file], { encoding: 'utf8' });
    expect(listing).toContain('mongodb/rule.jsonl');
    expect(listing).toContain('fileServer/docs/manual.txt');
    expect(listing).toContain('html/index.html');
    const reader = await ArchiveReader.open(file);
    const manifest = await verifyArchive(reader);
    await reader.close();
    expect(manifest.project).toEqual({ id: project, name: expect.any(String) });
    expect(manifest.dirs).toEqual(['fileServer/docs', 'fileServer/docs/empty']);

    // Change everything, then restore with "clear then add".
    await call('DELETE', `${CORE}/rule/r1`);
    await call('PATCH', `${CORE}/rule/r2`, { body: { threshold: 9 } });
    await put('rule', { id: 'r3', name: 'new' });
    await call('DELETE', `${MEDIA}?path=logo.png`);
    await uploadMedia('', 'intruder.txt', Buffer.from('x'));
    await writeFile(path.join(app.dataDir, 'projects', project, 'html', 'index.html'), '<h1>changed</h1>');

    const plan = await call(
      'GET',
      `${BACKUP}/import/plan?query=${q({ id, item: ['mongodb', 'fileServer', 'html'], moduleRules: { rule: 2, table_record: 0 } })}`,
    );
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json()).toEqual({
      modules: [
        { module: 'rule', rule: 2, added: 2, overwritten: 0, kept: 0, deleted: 2 },
        { module: 'table_record', rule: 0, added: 0, overwritten: 1, kept: 0, deleted: 0 },
      ],
      files: [
        { kind: 'fileServer', added: 1, replaced: 1, removed: 1 },
        { kind: 'html', added: 0, replaced: 1, removed: 0 },
      ],
    });

    const task = await restore({
      id,
      name: 'undo',
      item: { fileServer: true, html: true, mongodb: true },
      moduleRules: { rule: 2, table_record: 0 },
    });
    expect(task.status, task.message ?? '').toBe('success');
    expect(task.message).toBe('Restore successful');
    expect(await documents('rule')).toEqual(beforeRules);
    expect(await documents('table_record')).toEqual(beforeRecords);
    expect(await mediaFiles()).toEqual(beforeFiles);
    expect(await readFile(path.join(app.dataDir, 'projects', project, 'html', 'index.html'), 'utf8')).toBe(
      '<h1>front</h1>',
    );
    // No staging left behind.
    expect((await readdir(path.join(app.dataDir, 'projects', project))).sort()).toEqual(['fileServer', 'html']);

    // The restore is listed under 'reduction' (type import); a safety backup of what it replaced too.
    const restores = await call('GET', `${BACKUP}?query=${q({ filter: { type: 'import' }, withCount: true })}`);
    expect(restores.headers.count).toBe('1');
    expect(restores.json()[0]).toMatchObject({
      name: 'undo',
      type: 'import',
      restoreFile: id,
      moduleRules: { rule: 2 },
    });
    const safety = (await call('GET', `${BACKUP}?query=${q({ filter: { safety: true } })}`)).json();
    expect(safety).toHaveLength(1);
    expect(safety[0]).toMatchObject({ type: 'export', safety: true, documents: { rule: 2, table_record: 1 } });

    // The safety backup undoes the restore.
    const undo = await restore({
      id: safety[0].id,
      item: ['mongodb', 'fileServer', 'html'],
      mongoItem: ['rule', 'table_record'],
      itemType: 2,
    });
    expect(undo.status, undo.message ?? '').toBe('success');
    expect((await documents('rule')).map((doc) => doc.id)).toEqual(['r2', 'r3']);
    expect(Object.keys(await mediaFiles()).sort()).toEqual(['docs/', 'docs/empty/', 'docs/manual.txt', 'intruder.txt']);
  }, 120_000);

  it('keeps every character of a document: quotes, backslashes, control characters, other scripts', async () => {
    const hostile = {
      id: 'weird-1',
      name: 'say "hi"\\n \\\\ back\\slash\n\ttab \u0001\u0002\u001f 温度 😀 \u2028',
      nested: { 'key "quoted"': ['\\', '"', '\r\n', 0.1, -2e-7, null, true], empty: {} },
    };
    await put('rule', hostile);
    await put('rule', { id: 'r2', name: 'plain' });
    const before = await documents('rule');
    const id = await exportBackup({
      name: 'characters',
      item: { fileServer: false, html: false, mongodb: true },
      moduleRules: { rule: 0 },
      excludedDirs: [],
    });
    const record = (await call('GET', `${BACKUP}/${id}`)).json();
    expect(record.documents).toEqual({ rule: 2 });

    await call('PATCH', `${CORE}/rule/${hostile.id}`, { body: { name: 'changed' } });
    expect((await documents('rule')).find((doc) => doc.id === hostile.id)?.name).toBe('changed');
    const task = await restore({
      id,
      item: { fileServer: false, html: false, mongodb: true },
      moduleRules: { rule: 0 },
    });
    expect(task.status, task.message ?? '').toBe('success');
    expect(await documents('rule')).toEqual(before);
    expect(before.find((doc) => doc.id === hostile.id)).toMatchObject(hostile);
  });

  it("restores the designer's tables: the next record list reads the restored definition at once", async () => {
    const tables = `${SPM_URL}/tables`;
    const draft = async (id: string, fields: string[]) => {
      const body = { fields: fields.map((name) => ({ name, title: name, type: 'text' })) };
      expect((await call('PUT', `${tables}/${id}/draft`, { body })).statusCode).toBe(200);
      expect((await call('POST', `${tables}/${id}/publish`, { body: {} })).statusCode).toBe(200);
    };
    const id = (await call('POST', tables, { body: { name: 'wells' } })).json<{ id: string }>().id;
    await draft(id, ['depth']);
    const backup = await exportBackup({ name: 'tables', item: { mongodb: true }, moduleRules: { table: 0 } });
    await draft(id, ['depth', 'site']);
    const list = (filter: Record<string, string>) =>
      call('GET', `${tables}/${id}/records?query=${q({ filter })}`).then((r) => r.statusCode);
    // Read twice: the definition with `site` is now what this process holds.
    expect([await list({ site: 'north' }), await list({ site: 'north' })]).toEqual([200, 200]);

    const task = await restore({ id: backup, item: { mongodb: true }, moduleRules: { table: 2 } });
    expect(task.status, task.message ?? '').toBe('success');
    expect(await list({ site: 'north' })).toBe(400);
    expect(await list({ depth: '1' })).toBe(200);
  });

  it('a restore rewrites only the documents that differ: an unchanged one keeps its row version', async () => {
    await put('rule', { id: 'r1', name: 'high temperature', threshold: 80 });
    await put('rule', { id: 'r2', name: 'low pressure', threshold: 1.5 });
    const backup = await exportBackup({ name: 'rules', item: { mongodb: true }, moduleRules: { rule: 0 } });
    const rowVersions = async () => {
      const { rows } = (await app.database.db.execute(
        sql`select id, xmin::text as version from project_documents where project_id = ${project} and collection = 'rule'`,
      )) as unknown as { rows: Array<{ id: string; version: string }> };
      return Object.fromEntries(rows.map((row) => [row.id, row.version]));
    };
    await app.database.db.execute(
      sql`update project_documents set doc = doc || '{"threshold": 9}' where project_id = ${project} and id = 'r2'`,
    );
    await put('rule', { id: 'r3', name: 'added after the backup' });
    const before = await rowVersions();

    for (const rule of [0, 2]) {
      const task = await restore({ id: backup, item: { mongodb: true }, moduleRules: { rule } });
      expect(task.status, task.message ?? '').toBe('success');
    }
    const after = await rowVersions();
    expect(after.r1).toBe(before.r1);
    expect(after.r2).not.toBe(before.r2);
    expect(Object.keys(after).sort()).toEqual(['r1', 'r2']);
    expect((await documents('rule')).map((doc) => [doc.id, doc.threshold])).toEqual([
      ['r1', 80],
      ['r2', 1.5],
    ]);
  });

  it('takes back a file it offered for download under the name the browser saved it as', async () => {
    await seed();
    const id = await exportBackup({
      name: '一号工厂_2026-11-28 20:50:56',
      item: ['mongodb'],
      moduleRules: { rule: 0 },
    });
    const download = await call('GET', `${BACKUP}/download/${id}`);
    expect(download.statusCode).toBe(200);
    // What a browser saves `一号工厂_2026-11-28 20:50:56.zip` as (a colon is not allowed in a file name).
    const body = form('一号工厂_2026-11-28 20_50_56.zip', download.rawPayload);
    const uploaded = await app.app.inject({
      method: 'POST',
      url: `${BACKUP}/upload`,
      headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'en', ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({ status: 'OK', name: '一号工厂_2026_11_28_20_50_56' });
  });

  it('moves a project: a backup of one restores into another, its project id rewritten', async () => {
    await seed();
    const id = await exportBackup({ name: 'move', item: ['mongodb'], moduleRules: { rule: 0 } });
    const download = await call('GET', `${BACKUP}/download/${id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('filename="move.zip"');
    const body = form('move.zip', download.rawPayload);
    const uploaded = await app.app.inject({
      method: 'POST',
      url: `${BACKUP}/upload?projectId=plant2`,
      headers: { authorization: acme, 'x-request-project': 'plant2', 'accept-language': 'en', ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({
      status: 'OK',
      name: 'move',
      sourceProjectId: project,
      documents: { rule: 2 },
    });
    // One restore at a time per project: a second while the first is queued or running is refused.
    const first = await call(
      'GET',
      `${BACKUP}/import?query=${q({ id: uploaded.json().id, item: ['mongodb'], moduleRules: { rule: 1 } })}`,
      { projectId: 'plant2' },
    );
    const second = await call(
      'GET',
      `${BACKUP}/import?query=${q({ id: uploaded.json().id, item: ['mongodb'], moduleRules: { rule: 1 } })}`,
      { projectId: 'plant2' },
    );
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('A restore of this project is running; try again when it has ended');
    const task = await finished(first.json().id);
    expect(task.status, task.message ?? '').toBe('success');
    const moved = await documents('rule', 'plant2');
    expect(moved.map((doc) => doc.id)).toEqual(['r1', 'r2']);
    expect(moved[1]?.projectId).toBe('plant2');
  }, 60_000);

  it('lists, filters, renames and deletes records; the other tenant sees none of it', async () => {
    const first = await exportBackup({ name: 'alpha', item: ['html'] });
    app.advance(1000);
    await exportBackup({ name: 'beta', item: ['html'] });
    const list = await call(
      'GET',
      `${BACKUP}?query=${q({ filter: { type: 'export', status: 'succeed' }, withCount: true })}`,
    );
    expect(list.headers.count).toBe('2');
    expect(list.json().map((row: { name: string }) => row.name)).toEqual(['beta', 'alpha']);
    const named = await call('GET', `${BACKUP}?query=${q({ filter: { name: { like: 'alp' } } })}`);
    expect(named.json().map((row: { name: string }) => row.name)).toEqual(['alpha']);

    expect((await call('PATCH', `${BACKUP}/${first}`, { body: { name: 'x'.repeat(31) } })).statusCode).toBe(400);
    const renamed = await call('PATCH', `${BACKUP}/${first}`, { body: { name: 'gamma' } });
    expect(renamed.json().name).toBe('gamma');

    for (const [method, url] of [
      ['GET', `${BACKUP}/${first}`],
      ['GET', `${BACKUP}`],
      ['GET', `${BACKUP}/getSizeAndTime`],
      ['GET', `${BACKUP}/download/${first}`],
      ['PATCH', `${BACKUP}/${first}`],
      ['DELETE', `${BACKUP}/${first}`],
      ['GET', `${BACKUP}/export?query=${q({ name: 'steal', item: ['html'] })}`],
      ['GET', `${BACKUP}/import?query=${q({ id: first, item: ['html'] })}`],
    ] as const) {
      const response = await call(method, url, {
        token: other,
        body: method === 'PATCH' ? { name: 'mine' } : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // Its own project's header does not reach another project's records either.
    expect((await call('GET', `${BACKUP}/${first}`, { token: other, projectId: 'rival' })).statusCode).toBe(404);
    expect((await call('GET', `${BACKUP}/${first}`, { projectId: '' })).json().code).toBe('projectHeaderMissing');

    expect((await call('DELETE', `${BACKUP}/${first}?projectId=${project}`)).json()).toEqual({ status: 'OK' });
    expect(existsSync(path.join(app.dataDir, 'backups', project, `${first}.zip`))).toBe(false);
    expect((await call('GET', `${BACKUP}/${first}`)).statusCode).toBe(404);

    // Deleting the project deletes its backups, records and files.
    expect(existsSync(path.join(app.dataDir, 'backups', project))).toBe(true);
    expect((await call('DELETE', `${SPM_URL}/project/${project}`)).statusCode).toBe(200);
    expect(existsSync(path.join(app.dataDir, 'backups', project))).toBe(false);
  }, 60_000);

  it('refuses bad requests with the spec messages, and changes nothing', async () => {
    const message = async (url: string) => (await call('GET', url)).json<{ message: string }>().message;
    expect(await message(`${BACKUP}/export?query=${q({ name: 'x', item: { fileServer: false } })}`)).toBe(
      'backup content cannot be empty',
    );
    expect(await message(`${BACKUP}/export?query=${q({ name: 'x', item: ['mongodb'] })}`)).toBe(
      'data content required',
    );
    expect(await message(`${BACKUP}/import?query=${q({ id: 'nope', item: ['mongodb'] })}`)).toBe(
      'restore rule required',
    );
    expect(await message(`${BACKUP}/import?query=${q({ id: 'nope', item: ['html'] })}`)).toBe(
      'The backup record does not exist',
    );
    const id = await exportBackup({ name: 'html only', item: ['html'] });
    expect(await message(`${BACKUP}/import?query=${q({ id, item: ['mongodb'], moduleRules: { rule: 0 } })}`)).toBe(
      'This backup does not hold the chosen content: mongodb',
    );
    const upload = async (name: string, content: Uint8Array) => {
      const body = form(name, content);
      return app.app.inject({
        method: 'POST',
        url: `${BACKUP}/upload`,
        headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'en', ...body.headers },
        payload: body.payload,
      });
    };
    expect((await upload('notes.txt', Buffer.from('hello'))).json().message).toBe(
      'Upload file format error, please upload compressed file!',
    );
    expect((await upload('fake.zip', Buffer.from('hello, not a zip at all'))).json().message).toBe(
      'Upload file format error, please upload compressed file!',
    );
    expect((await upload('!!! ###.zip', Buffer.from('PK\u0003\u0004'))).json().message).toBe(
      'Backup names allow no special symbols except dot and underscore',
    );
    const list = await call('GET', `${BACKUP}?query=${q({ withCount: true })}`);
    expect(list.headers.count).toBe('1');
    expect(await readdir(path.join(app.dataDir, 'backups', project))).toEqual([`${id}.zip`]);
  }, 60_000);

  it('a restore killed after its commit is reported succeeded by the next start, an uncommitted one stays failed', async () => {
    await seed();
    const id = await exportBackup({ name: 'undo', item: ['mongodb'], moduleRules: { rule: 0 } });
    const done = await call('GET', `${BACKUP}/import?query=${q({ id, item: ['mongodb'], moduleRules: { rule: 2 } })}`);
    const restoreId = done.json<{ id: string }>().id;
    expect((await finished(restoreId)).status).toBe('success');
    // What the task engine does at a start with a task a killed server was running.
    const stoppedAs = (taskId: string) =>
      app.database.db.execute(
        sql`update tasks set status = 'failed', message = ${SERVER_STOPPED} where id = ${taskId}`,
      );
    await stoppedAs(restoreId);
    const orphan = await app.services.tasks.submit(importTask, {
      projectId: project,
      requester: 'acme',
      params: {
        backupId: 'gone',
        name: 'gone',
        item: { fileServer: false, html: false, mongodb: true },
        rules: {},
        language: 'en',
      },
    });
    await expect.poll(async () => (await finished(orphan.id)).status).toBe('failed');
    await stoppedAs(orphan.id);

    await app.services.backups.recover();
    const task = (id: string) => call('GET', `${SPM_URL}/proxy/core/taskmanager/${id}`).then((r) => r.json());
    expect(await task(restoreId)).toMatchObject({ status: 'success', message: 'Restore successful' });
    expect(await task(orphan.id)).toMatchObject({ status: 'failed', message: translate(SERVER_STOPPED, 'en') });
  });

  it('a start decides what stopped work left with renames into the trash, which empties in the background', async () => {
    await seed();
    const id = await exportBackup({ name: 'whole', item: ['mongodb'], moduleRules: { rule: 0 } });
    const backups = path.join(app.dataDir, 'backups', project);
    const projectDir = path.join(app.dataDir, 'projects', project);
    const journals = path.join(app.dataDir, 'restore-journals');
    // A backup stopped mid-write (its archive and spool, untouched for two hours: stale for any process).
    await mkdir(path.join(backups, '.partial-stopped.spool'), { recursive: true });
    await writeFile(path.join(backups, '.partial-stopped.spool', 'rule.deflate'), 'x');
    await writeFile(path.join(backups, '.partial-stopped.zip'), 'x');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of ['.partial-stopped.spool', '.partial-stopped.zip'])
      await utimes(path.join(backups, name), old, old);
    // A restore killed while staging (no journal), and one killed after its commit (journal, record):
    // its staged files become the project's, the old ones go.
    const stage = async (restoreId: string, files: string[]) => {
      const folder = path.join(projectDir, `.restore-${restoreId}`, 'fileServer');
      await mkdir(folder, { recursive: true });
      for (const name of files) await writeFile(path.join(folder, name), name);
    };
    await stage('stopped', ['half.bin']);
    await stage(id, ['new-1.bin', 'new-2.bin']);
    await mkdir(path.join(projectDir, 'fileServer'), { recursive: true });
    await writeFile(path.join(projectDir, 'fileServer', 'old.bin'), 'old');
    await mkdir(journals, { recursive: true });
    await writeFile(
      path.join(journals, `${id}.json`),
      JSON.stringify({ restoreId: id, projectId: project, kinds: ['fileServer'] }),
    );

    expect(await app.services.backups.recover()).toMatchObject({ finished: 1, dropped: 1, partials: 2 });
    expect(await readdir(backups)).toEqual([`${id}.zip`]);
    expect((await readdir(projectDir)).filter((name) => name.startsWith('.'))).toEqual([]);
    expect((await readdir(path.join(projectDir, 'fileServer'))).sort()).toEqual(['new-1.bin', 'new-2.bin']);
    expect(await readdir(journals)).toEqual([]);
    const trash = path.join(app.dataDir, TRASH_FOLDER);
    expect(await readdir(trash)).toHaveLength(4);
    const logged: string[] = [];
    const log = {
      info: (_: object, message: string) => logged.push(message),
      warn: (_: object, message: string) => logged.push(message),
    };
    await new Trash(app.dataDir, log).empty();
    expect(await readdir(trash)).toEqual([]);
    expect(logged).toEqual(['emptying the restore trash', 'restore trash emptied']);
  });

  it('a paused backup leaves no record and no partial file', async () => {
    await seed();
    // Enough files that the backup is still writing them when the pause comes (each file is a safe
    // point): 20 files of 200 KB were sometimes all written before it.
    const docs = path.join(app.dataDir, 'projects', project, 'fileServer', 'docs');
    await mkdir(docs, { recursive: true });
    await Promise.all(
      Array.from({ length: 2_000 }, (_, i) => writeFile(path.join(docs, `blob${i}.bin`), randomBytes(2_000))),
    );
    const started = await call(
      'GET',
      `${BACKUP}/export?query=${q({ name: 'paused', item: ['fileServer', 'mongodb'], moduleRules: { rule: 0 } })}`,
    );
    const { id } = started.json<{ id: string }>();
    const pause = await call('PATCH', `${SPM_URL}/proxy/core/taskmanager/${id}`, { body: { status: 'pause', id } });
    expect(pause.statusCode, pause.body).toBe(200);
    const task = await finished(id);
    expect(task.status).toBe('pause');
    expect((await call('GET', `${BACKUP}?query=${q({ withCount: true })}`)).headers.count).toBe('0');
    const folder = path.join(app.dataDir, 'backups', project);
    expect(existsSync(folder) ? await readdir(folder) : []).toEqual([]);
  }, 60_000);

  it('downloads with a verification code as an AES-256 zip that 7-Zip opens, and uploads it back with the code', async () => {
    await seed();
    const id = await exportBackup({ name: 'locked', item: ['mongodb', 'fileServer'], moduleRules: { rule: 0 } });
    const download = await call('GET', `${BACKUP}/download/${id}?password=${encodeURIComponent('s3cret code')}`);
    expect(download.statusCode).toBe(200);
    const dir = path.join(app.dataDir, 'check');
    await mkdir(dir);
    const zip = path.join(dir, 'locked.zip');
    await writeFile(zip, download.rawPayload);
    const tested = execFileSync('7z', ['t', '-ps3cret code', zip], { encoding: 'utf8' });
    expect(tested).toContain('Everything is Ok');
    expect(execFileSync('7z', ['l', '-slt', zip], { encoding: 'utf8' })).toContain('AES-256');
    expect(() => execFileSync('7z', ['t', '-pwrong', zip], { stdio: 'pipe' })).toThrow();

    const send = (password?: string) => {
      const body = form('locked.zip', download.rawPayload);
      return app.app.inject({
        method: 'POST',
        url: `${BACKUP}/upload${password ? `?password=${encodeURIComponent(password)}` : ''}`,
        headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'en', ...body.headers },
        payload: body.payload,
      });
    };
    expect((await send()).json().message).toBe(
      'The backup file is not valid: the file is encrypted: give its verification code',
    );
    expect((await send('wrong')).json()).toMatchObject({ code: 'backupPasswordWrong' });
    const ok = await send('s3cret code');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'OK', documents: { rule: 2 } });
  }, 60_000);
});
