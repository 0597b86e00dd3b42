import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

let app: TestApp;
let acme: string;
let other: string;
let project: string;
let made = 0;

beforeAll(async () => {
  [app, , acme, other] = await appWithTenants(['acme', 'other']);
});
afterAll(() => app.close());
// A project of its own per test (the fixture's grant: 2 tables); the last one goes, so the pool lasts.
beforeEach(async () => {
  if (project) await app.call('DELETE', `${SPM_URL}/project/${project}`, acme);
  made += 1;
  project = (await createProject(app, acme, { id: `map${made}` })).id;
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(method: Method, url: string, payload?: unknown, token = acme, language = 'en') {
  return app.app.inject({
    method,
    url: `${SPM_URL}${url}`,
    headers: { authorization: `Bearer ${token}`, 'x-request-project': project, 'accept-language': language },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok<T = Record<string, unknown>>(method: Method, url: string, payload?: unknown): Promise<T> {
  const response = await call(method, url, payload);
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

const text = (name: string) => ({ name, title: name, type: 'text' });
const number = (name: string) => ({ name, title: name, type: 'number', options: { decimals: 2 } });

/** Saves and publishes `fields` as the table's definition. */
async function publish(id: string, definition: Record<string, unknown>) {
  await ok('PUT', `/tables/${id}/draft`, definition);
  await ok('POST', `/tables/${id}/publish`, {});
}

/** A published source `wells` (code, depth, note) and its mapping table `wellsMap` with one record. */
async function mapped() {
  const { id: source } = await ok<{ id: string }>('POST', '/tables', { name: 'wells' });
  await publish(source, { fields: [text('code'), number('depth'), text('note')] });
  const created = await call('POST', '/tables', { name: 'wellsMap', title: 'Wells (mapped)', source });
  expect(created.statusCode, created.body).toBe(200);
  const map = created.json<{ id: string; published: { fields: Array<{ name: string }> } }>();
  await ok('POST', `/tables/${map.id}/records`, { code: 'M1', depth: 4, note: 'x' });
  return { source, map };
}

interface Preview {
  sourceVersion: number;
  syncedVersion: number;
  changes: unknown[];
  mismatched: string[];
}

describe('mapping table', () => {
  it('follows its source: the sync step lists the changes, confirming deletes the mismatched fields', async () => {
    const { source, map } = await mapped();
    expect(map).toMatchObject({ name: 'wellsMap', state: 'published', mapping: { source, sourceVersion: 1 } });
    expect(map.published.fields.map((field) => field.name)).toEqual(['code', 'depth', 'note']);
    expect(await ok('GET', `/tables/${map.id}/sync`)).toEqual({
      source,
      sourceVersion: 1,
      syncedVersion: 1,
      changes: [],
      mismatched: [],
    });

    await publish(source, {
      fields: [
        text('code'),
        { ...text('depth'), title: 'Depth (text)' },
        { name: 'active', title: 'Active', type: 'boolean' },
      ],
    });
    const preview = await ok<Preview>('GET', `/tables/${map.id}/sync`);
    expect(preview).toEqual({
      source,
      sourceVersion: 2,
      syncedVersion: 1,
      changes: [
        { field: 'depth', title: 'Depth (text)', change: 'typeChanged', from: 'number', to: 'text', values: 1 },
        { field: 'note', title: 'note', change: 'removed', from: 'text', values: 1 },
        { field: 'active', title: 'Active', change: 'added', to: 'boolean', values: 0 },
      ],
      mismatched: ['depth', 'note'],
    });

    const stale = await call('POST', `/tables/${map.id}/sync`, { sourceVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'tableSyncFailed',
      message: 'data sync exception: the source changed since these differences were shown: look again',
    });
    const zh = await call('POST', `/tables/${map.id}/sync`, { sourceVersion: 1 }, acme, 'zh');
    expect(zh.json().message).toBe('数据同步异常：源表在查看差异后又有变化，请重新查看');
    // Refused: nothing changed.
    expect((await ok<{ data: unknown }[]>('GET', `/tables/${map.id}/records`))[0]?.data).toEqual({
      code: 'M1',
      depth: 4,
      note: 'x',
    });

    const synced = await ok<{ version: number; mapping: unknown; published: { fields: unknown[] } }>(
      'POST',
      `/tables/${map.id}/sync`,
      { sourceVersion: preview.sourceVersion },
    );
    expect(synced.version).toBe(2);
    expect(synced.mapping).toMatchObject({ source, sourceVersion: 2 });
    expect(synced.published.fields).toMatchObject([
      { name: 'code', type: 'text' },
      { name: 'depth', type: 'text', title: 'Depth (text)' },
      { name: 'active', type: 'boolean' },
    ]);
    // The mismatched fields' values went with them; the records follow the new definition.
    expect((await ok<{ data: unknown }[]>('GET', `/tables/${map.id}/records`))[0]?.data).toEqual({ code: 'M1' });
    await ok('POST', `/tables/${map.id}/records`, { code: 'M2', depth: 'deep', active: true });
    expect(await ok<Preview>('GET', `/tables/${map.id}/sync`)).toMatchObject({ changes: [], mismatched: [] });
  });

  it("answers 'data sync exception' when the sync cannot be done, and changes nothing", async () => {
    const { source, map } = await mapped();
    // The mapping table's own rule needs `note` together with `code`: without `note` it no longer holds.
    await publish(map.id, {
      fields: [text('code'), number('depth'), text('note')],
      uniqueTogether: ['code', 'note'],
    });
    await publish(source, { fields: [text('code'), number('depth')] });
    const { sourceVersion } = await ok<Preview>('GET', `/tables/${map.id}/sync`);
    const broken = await call('POST', `/tables/${map.id}/sync`, { sourceVersion });
    expect(broken.statusCode).toBe(409);
    expect(broken.json().code).toBe('tableSyncFailed');
    expect(broken.json().message).toMatch(
      /^data sync exception: without the mismatched fields the definition no longer holds \(uniqueTogether/,
    );
    expect((await ok<{ data: unknown }[]>('GET', `/tables/${map.id}/records`))[0]?.data).toMatchObject({ note: 'x' });

    await ok('DELETE', `/tables/${source}`);
    const gone = await call('GET', `/tables/${map.id}/sync`, undefined, acme, 'zh');
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe('数据同步异常：源表已不存在或尚未发布');
  });

  it('is made from a published table of the project, within the grant; others are refused', async () => {
    const { id: draft } = await ok<{ id: string }>('POST', '/tables', { name: 'drafty' });
    const unpublished = await call('POST', '/tables', { name: 'm', source: draft });
    expect(unpublished.statusCode).toBe(400);
    expect(unpublished.json()).toMatchObject({
      code: 'tableMappingSource',
      message: "A mapping table's source must be a published table of this project",
    });
    expect((await call('POST', '/tables', { name: 'm', source: 'nowhere' })).json().code).toBe('tableMappingSource');
    expect((await call('GET', `/tables/${draft}/sync`)).json()).toMatchObject({
      code: 'tableNotMapping',
      message: 'This table is no mapping table',
    });
    await publish(draft, { fields: [text('code')] });
    const { id: map } = await ok<{ id: string }>('POST', '/tables', { name: 'm', source: draft });
    // The fixture's grant allows 2 tables: a mapping table counts as one.
    const third = await call('POST', '/tables', { name: 'm2', source: draft });
    expect(third.json()).toMatchObject({ code: 'tableLimit' });
    expect((await call('GET', `/tables/${map}/sync`, undefined, other)).statusCode).toBe(404);
    expect((await call('POST', `/tables/${map}/sync`, { sourceVersion: 1 }, other)).statusCode).toBe(404);
  });
});
