import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

let app: TestApp;
let admin: string;
let acme: string;
let other: string;
/** Two projects of acme: a table is shifted from `source` to `target`. */
let source: string;
let target: string;
let made = 0;

beforeAll(async () => {
  [app, admin, acme, other] = await appWithTenants(['acme', 'other']);
  await createProject(app, other, { id: 'theirs' });
});
afterAll(() => app.close());
// Each test has two projects of its own (the fixture's grant: 2 tables each); old ones go, so the pool lasts.
beforeEach(async () => {
  for (const id of [source, target].filter(Boolean)) await app.call('DELETE', `${SPM_URL}/project/${id}`, acme);
  made += 1;
  source = (await createProject(app, acme, { id: `from${made}` })).id;
  target = (await createProject(app, acme, { id: `to${made}` })).id;
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(method: Method, url: string, payload?: unknown, token = acme, projectId = source, language = 'en') {
  return app.app.inject({
    method,
    url: `${SPM_URL}${url}`,
    headers: { authorization: `Bearer ${token}`, 'x-request-project': projectId, 'accept-language': language },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok<T = Record<string, unknown>>(method: Method, url: string, payload?: unknown, projectId = source) {
  const response = await call(method, url, payload, acme, projectId);
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

const fields = [
  { name: 'code', title: 'Code', type: 'text', unique: true },
  { name: 'depth', title: 'Depth', type: 'number', options: { decimals: 2 } },
  { name: 'active', title: 'Active', type: 'boolean' },
];

/** A published table of `project` with two records; its id. */
async function wells(project = source, name = 'wells') {
  const { id } = await ok<{ id: string }>('POST', '/tables', { name, title: 'Wells' }, project);
  await ok('PUT', `/tables/${id}/draft`, { fields }, project);
  await ok('POST', `/tables/${id}/publish`, {}, project);
  for (const values of [
    { code: 'W1', depth: 12.5, active: true },
    { code: 'W2', depth: 3, active: false },
  ])
    await ok('POST', `/tables/${id}/records`, values, project);
  return id;
}

const records = async (project: string, id: string) =>
  (await ok<Array<{ id: string; data: unknown }>>('GET', `/tables/${id}/records`, undefined, project))
    .map((record) => record.data)
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The project's table names, sorted (tables made in the same millisecond list in id order). */
const tableNames = async (project: string) =>
  (await ok<Array<{ name: string }>>('GET', '/tables', undefined, project)).map((table) => table.name).sort();

describe('shift table', () => {
  it('copies a table with its fields and records; the source keeps it; a second copy is a conflict', async () => {
    const id = await wells();
    const copied = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'copy' });
    expect(copied.statusCode, copied.body).toBe(200);
    expect(copied.json()).toEqual({
      id,
      project: target,
      mode: 'copy',
      records: 2,
      message: `Table wells and its 2 records were shifted to project ${target}`,
    });
    const there = await ok<{ name: string; title: string; published: { fields: unknown[] } }>(
      'GET',
      `/tables/${id}`,
      undefined,
      target,
    );
    expect(there).toMatchObject({ name: 'wells', title: 'Wells', state: 'published' });
    expect(there.published.fields).toMatchObject(fields);
    expect(await records(target, id)).toEqual(await records(source, id));
    expect(await records(target, id)).toEqual([
      { code: 'W1', depth: 12.5, active: true },
      { code: 'W2', depth: 3, active: false },
    ]);
    // The copy works on its own: a new record there, the unique rule there too.
    await ok('POST', `/tables/${id}/records`, { code: 'W3' }, target);
    expect((await call('POST', `/tables/${id}/records`, { code: 'W1' }, acme, target)).json().fields).toEqual({
      code: 'This value exists already: no duplicates',
    });
    expect((await records(source, id)).length).toBe(2);

    const again = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'copy' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'tableShiftConflict',
      message: 'The target project has a table with the same identifier or name: wells',
    });
    const zh = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'move' }, acme, source, 'zh');
    expect(zh.json().message).toBe('目标项目已有标识或名称相同的表：wells');
    // A table of the same name (another id) is a conflict too.
    const named = await wells(source, 'pumps');
    await wells(target, 'PUMPS');
    expect((await call('POST', `/tables/${named}/shift`, { project: target, mode: 'copy' })).json().code).toBe(
      'tableShiftConflict',
    );
  });

  it('moves a table with its records in one step, audited; the source no longer has it', async () => {
    const id = await wells();
    const before = await records(source, id);
    const moved = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'move' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id, project: target, mode: 'move', records: 2 });
    expect(await tableNames(source)).toEqual([]);
    expect((await call('GET', `/tables/${id}`)).json().code).toBe('tableNotFound');
    expect((await call('GET', `/tables/${id}/records`)).statusCode).toBe(404);
    expect(await records(target, id)).toEqual(before);
    // The source's table count is free again: two new tables fit its grant.
    await ok('POST', '/tables', { name: 'a' });
    await ok('POST', '/tables', { name: 'b' });

    const audit = await app.call('GET', `${SPM_URL}/audit?query=${encodeURIComponent('{"sort":{"at":-1}}')}`, admin);
    expect(audit.json()[0]).toMatchObject({
      action: 'project.tableShift',
      actorId: 'acme',
      objectType: 'project',
      objectId: source,
      detail: { table: id, name: 'wells', target, mode: 'move', records: 2 },
    });
  });

  it("refuses another tenant's projects as 404, whichever side they are on", async () => {
    const id = await wells();
    const intoTheirs = await call('POST', `/tables/${id}/shift`, { project: 'theirs', mode: 'copy' });
    expect(intoTheirs.statusCode).toBe(404);
    expect(intoTheirs.json().code).toBe('notFound');
    const byThem = await call('POST', `/tables/${id}/shift`, { project: 'theirs', mode: 'move' }, other);
    expect(byThem.statusCode).toBe(404);
    const unknown = await call('POST', `/tables/${id}/shift`, { project: 'nowhere', mode: 'copy' });
    expect(unknown.statusCode).toBe(404);
    expect(await tableNames(source)).toEqual(['wells']);
    // The administrator reaches both, but a table goes only to a project of the same owner.
    const mixed = await call('POST', `/tables/${id}/shift`, { project: 'theirs', mode: 'move' }, admin);
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json()).toMatchObject({
      code: 'tableShiftOwner',
      message: 'A table moves or is copied only to a project of the same owner',
    });
    expect((await call('POST', `/tables/${id}/shift`, { project: target, mode: 'copy' }, admin)).statusCode).toBe(200);
    const same = await call('POST', `/tables/${id}/shift`, { project: source, mode: 'move' });
    expect(same.json()).toMatchObject({
      code: 'tableShiftSameProject',
      message: 'Choose another project as the target',
    });
  });

  it("refuses a shift past the target's grant and changes nothing", async () => {
    const id = await wells();
    await ok('POST', '/tables', { name: 'one' }, target);
    await ok('POST', '/tables', { name: 'two' }, target);
    for (const mode of ['copy', 'move']) {
      const full = await call('POST', `/tables/${id}/shift`, { project: target, mode });
      expect(full.statusCode).toBe(409);
      expect(full.json()).toMatchObject({
        code: 'tableShiftLimit',
        message: 'The target project has as many tables as its grant allows (2)',
      });
    }
    expect(await tableNames(target)).toEqual(['one', 'two']);
    expect(await tableNames(source)).toEqual(['wells']);
    expect((await records(source, id)).length).toBe(2);
    const zh = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'copy' }, acme, source, 'zh');
    expect(zh.json().message).toBe('目标项目的表数量已达授权上限（2）');
  });

  it('refuses a table whose relations the target lacks, and moving one another table relates to', async () => {
    const id = await wells();
    const { id: visits } = await ok<{ id: string }>('POST', '/tables', { name: 'visits' });
    await ok('PUT', `/tables/${visits}/draft`, {
      fields: [{ name: 'well', title: 'Well', type: 'relation', options: { table: id } }],
    });
    await ok('POST', `/tables/${visits}/publish`, {});
    const related = await call('POST', `/tables/${visits}/shift`, { project: target, mode: 'copy' });
    expect(related.statusCode).toBe(409);
    expect(related.json()).toMatchObject({
      code: 'tableShiftRelation',
      message: 'Field well relates to a table the target project does not have',
    });
    const relating = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'move' });
    expect(relating.json()).toMatchObject({
      code: 'tableShiftRelated',
      message: 'Table visits of this project relates to or maps this table: it cannot move away',
    });
    // Copied first, the related table is there: the relation may follow it.
    await ok('POST', `/tables/${id}/shift`, { project: target, mode: 'copy' });
    await ok('POST', `/tables/${visits}/shift`, { project: target, mode: 'copy' });
    expect(await tableNames(target)).toEqual(['visits', 'wells']);
  });

  it('checks the body', async () => {
    const id = await wells();
    const bad = await call('POST', `/tables/${id}/shift`, { project: target, mode: 'teleport' });
    expect(bad.statusCode).toBe(400);
    expect((await call('POST', '/tables/missing/shift', { project: target, mode: 'copy' })).json().code).toBe(
      'tableNotFound',
    );
  });
});
