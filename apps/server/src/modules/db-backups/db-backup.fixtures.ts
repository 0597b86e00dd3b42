import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../db/database.js';
import { PROJECT_HEADER } from '../../plugins/project-gate.js';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import { type createTestApp, multipartFile, type TestApp } from '../../test/test-app.js';

export const DB = '/portal/rest/db-backup';
export const CORE = '/portal/rest/core';
export const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;
export const BACKUP = `${SPM_URL}/proxy/core/backup`;
export const project = 'plant1';

export interface World {
  app: TestApp;
  admin: string;
  acme: string;
  other: string;
}
/** The test's app and accounts: the default of every helper below. */
let currentWorld: World | undefined;
const openedApps: TestApp[] = [];
export const worlds = {
  get current(): World {
    if (!currentWorld) throw new Error('no world: set worlds.current first');
    return currentWorld;
  },
  set current(world: World) {
    currentWorld = world;
  },
  opened: openedApps,
};

/** An app with tenants acme (projects plant1, plant2) and other (project rival). */
export async function openWorld(
  options: Parameters<typeof createTestApp>[1] = {},
  env: Record<string, string> = {},
): Promise<World> {
  const [app, admin, acme, other] = await appWithTenants(['acme', 'other'], env, options);
  worlds.opened.push(app);
  await createProject(app, acme, { id: project });
  await createProject(app, acme, { id: 'plant2' });
  await createProject(app, other, { id: 'rival' });
  await app.app.ready();
  return { app, admin, acme, other };
}

export async function closeWorlds(): Promise<void> {
  for (const app of worlds.opened.splice(0)) await app.close();
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export function call(
  method: Method,
  url: string,
  options: { token?: string; projectId?: string | null; body?: object; w?: World; language?: 'en' | 'zh' } = {},
) {
  const w = options.w ?? worlds.current;
  return w.app.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${options.token ?? w.acme}`,
      'accept-language': options.language ?? 'en',
      ...(options.projectId === null ? {} : { [PROJECT_HEADER]: options.projectId ?? project }),
    },
    ...(options.body === undefined ? {} : { payload: options.body }),
  });
}
export const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** A zip file as the upload calls take it (multipart `file`). */
export const form = (name: string, content: Uint8Array) => multipartFile('file', name, content, 'application/zip');

export async function put(collection: string, doc: Record<string, unknown>, w = worlds.current, projectId = project) {
  const response = await call('POST', `${CORE}/${collection}`, { projectId, body: doc, w });
  expect(response.statusCode, response.body).toBe(200);
}

export async function uploadMedia(
  folder: string,
  name: string,
  content: Uint8Array,
  w = worlds.current,
  projectId = project,
) {
  const body = form(name, content);
  const response = await w.app.app.inject({
    method: 'POST',
    url: `${MEDIA}/upload?path=${encodeURIComponent(folder)}`,
    headers: { authorization: `Bearer ${w.acme}`, [PROJECT_HEADER]: projectId, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(200);
}

export async function upload(
  name: string,
  content: Uint8Array,
  options: { password?: string; projectId?: string; w?: World } = {},
) {
  const w = options.w ?? worlds.current;
  const body = form(name, content);
  return w.app.app.inject({
    method: 'POST',
    url: `${DB}/upload${options.password ? `?password=${encodeURIComponent(options.password)}` : ''}`,
    headers: {
      authorization: `Bearer ${w.acme}`,
      'accept-language': 'en',
      [PROJECT_HEADER]: options.projectId ?? project,
      ...body.headers,
    },
    payload: body.payload,
  });
}

/** Polls a job as the console does, until it is no longer running. */
export async function job(id: string, w = worlds.current, projectId = project) {
  let answer: { status: string; log: string; warning?: { key: string; params: object; message: string } } = {
    status: 'running',
    log: '',
  };
  await expect
    .poll(
      async () => {
        const response = await call('GET', `${DB}/${id}`, { w, projectId });
        expect(response.statusCode, response.body).toBe(200);
        answer = response.json();
        return answer.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .not.toBe('running');
  return answer;
}

export async function dump(
  name: string,
  w = worlds.current,
  projectId = project,
  item: unknown = { fileServer: true, html: true, database: true },
) {
  const started = await call('POST', `${DB}/dump`, { w, projectId, body: { name, item, excludedDirs: [] } });
  expect(started.statusCode, started.body).toBe(200);
  const { id } = started.json<{ id: string }>();
  const done = await job(id, w, projectId);
  expect(done, done.log).toMatchObject({ status: 'success', log: expect.stringMatching(/^backup complete/) });
  return id;
}

export async function restore(id: string, item: object, w = worlds.current, projectId = project) {
  const started = await call('POST', `${DB}/restore?id=${id}`, { w, projectId, body: item });
  expect(started.statusCode, started.body).toBe(200);
  return job(started.json<{ id: string }>().id, w, projectId);
}

interface StoredRow {
  collection: string;
  id: string;
  doc: Record<string, unknown>;
}

/** Every document of a project exactly as stored: collection, id, body, times. */
export async function database(w = worlds.current, projectId = project) {
  const rows = await queryRows<StoredRow & { create_time: string; update_time: string }>(
    w.app.database.db,
    sql`select collection, id, doc, create_time, update_time from project_documents
      where project_id = ${projectId} order by collection, id`,
  );
  return rows.map((row) => ({
    ...row,
    create_time: new Date(row.create_time).toISOString(),
    update_time: new Date(row.update_time).toISOString(),
  }));
}

/** Every file and folder of a project's media library and html package, with its bytes. */
export async function files(w = worlds.current, projectId = project): Promise<Record<string, string>> {
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
  for (const kind of ['fileServer', 'html']) {
    await walk(path.join(w.app.dataDir, 'projects', projectId, kind), `${kind}/`);
  }
  return found;
}

export async function seed(w = worlds.current, projectId = project) {
  await put('rule', { id: 'r1', name: 'high temperature', threshold: 80 }, w, projectId);
  await put('rule', { id: 'r2', name: 'low pressure', nested: { a: [1, 2, { b: null }] }, projectId }, w, projectId);
  await put('user', { id: 'u1', name: 'operator' }, w, projectId);
  await put('cron', { id: 'c1', every: '5m', text: 'ünïcode ✓ 漢字' }, w, projectId);
  for (let i = 0; i < 30; i++) {
    await put('data_record', { id: `rec${String(i).padStart(3, '0')}`, value: i * 1.5, tag: 'temp' }, w, projectId);
  }
  await uploadMedia('', 'logo.png', Buffer.from('png-bytes'), w, projectId);
  const folder = await call('POST', `${MEDIA}/dir`, { w, projectId, body: { path: 'docs/empty' } });
  expect(folder.statusCode, folder.body).toBe(200);
  await uploadMedia('docs', 'manual.bin', randomBytes(200_000), w, projectId);
  await mkdir(path.join(w.app.dataDir, 'projects', projectId, 'html'), { recursive: true });
  await writeFile(path.join(w.app.dataDir, 'projects', projectId, 'html', 'index.html'), '<h1>front</h1>');
}

export async function change(w = worlds.current, projectId = project) {
  await call('DELETE', `${CORE}/rule/r1`, { w, projectId });
  await call('PATCH', `${CORE}/rule/r2`, { w, projectId, body: { threshold: 9 } });
  await put('rule', { id: 'r3', name: 'new' }, w, projectId);
  await put('setting', { id: 's1', key: 'theme' }, w, projectId);
  await call('DELETE', `${CORE}/data_record/rec007`, { w, projectId });
  await put('data_record', { id: 'rec999', value: -1 }, w, projectId);
  await call('DELETE', `${MEDIA}?path=logo.png`, { w, projectId });
  await uploadMedia('', 'intruder.txt', Buffer.from('x'), w, projectId);
  await writeFile(path.join(w.app.dataDir, 'projects', projectId, 'html', 'index.html'), '<h1>changed</h1>');
  await writeFile(path.join(w.app.dataDir, 'projects', projectId, 'html', 'extra.js'), 'alert(1)');
}
