import { COLLECTIONS, DOCUMENT_LIMITS } from '@gantry/shared';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectCollectionStats, projectDocuments } from '../../db/schema.js';
import { appWithTenants, createProject, projectBody, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

const CORE = '/portal/rest/core';

let app: TestApp;
let admin: string;
let acme: string;
let other: string;
let project: string;
let otherProject: string;

beforeEach(async () => {
  [app, admin, acme, other] = await appWithTenants(['acme', 'other']);
  project = (await createProject(app, acme, { id: 'plant1' })).id;
  otherProject = (await createProject(app, other, { id: 'plant2' })).id;
});
afterEach(() => app.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const q = (query: unknown) => encodeURIComponent(JSON.stringify(query));

/** A data-layer call: bare token (as the console sends to core), the project in its header. */
function data(method: Method, url: string, token: string, projectId: string | undefined, payload?: unknown) {
  return app.app.inject({
    method,
    url: `${CORE}${url}`,
    headers: { authorization: token, ...(projectId ? { 'x-request-project': projectId } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('generic data layer', () => {
  it('a project moved to another tenant is theirs at once: its former owner is refused on the next read', async () => {
    await data('POST', '/rule', acme, project, { _id: 'r1', name: 'high temperature' });
    // Read twice: the project's owner is now what this process holds.
    for (let i = 0; i < 2; i++) expect((await data('GET', '/rule/r1', acme, project)).statusCode).toBe(200);
    expect((await data('GET', '/rule/r1', other, project)).statusCode).toBe(404);

    const moved = await app.call('PUT', `${SPM_URL}/project/${project}`, admin, {
      ...projectBody(app, { name: 'Plant' }),
      user: 'other',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await data('GET', '/rule/r1', acme, project)).statusCode).toBe(404);
    expect((await data('GET', '/rule', acme, project)).statusCode).toBe(404);
    expect((await data('GET', '/rule/r1', other, project)).json()).toMatchObject({ name: 'high temperature' });
  });

  it('saves, reads, replaces, merges and deletes documents, keeping createTime and the id', async () => {
    const created = await data('POST', '/dashboard', acme, project, { name: 'Line 1', widgets: [{ kind: 'gauge' }] });
    expect(created.statusCode).toBe(200);
    const doc = created.json();
    expect(doc.id).toMatch(/^[0-9a-f]{24}$/);
    expect(doc).toMatchObject({ name: 'Line 1', widgets: [{ kind: 'gauge' }] });
    expect(Date.parse(doc.createTime)).toBeGreaterThan(0);

    const named = await data('POST', '/dashboard', acme, project, { _id: 'main', name: 'Main' });
    expect(named.json()).toMatchObject({ id: 'main', _id: 'main', name: 'Main' });
    const taken = await data('POST', '/dashboard', acme, project, { id: 'main' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('documentIdTaken');

    app.advance(5_000);
    const replaced = await data('PUT', '/dashboard/main', acme, project, { title: 'Replaced', createTime: 'forged' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).not.toHaveProperty('name');
    expect(replaced.json().title).toBe('Replaced');
    expect(replaced.json().createTime).toBe(named.json().createTime);
    expect(Date.parse(replaced.json().updateTime) - Date.parse(replaced.json().createTime)).toBe(5_000);

    const merged = await data('PATCH', '/dashboard/main', acme, project, { color: 'red' });
    expect(merged.json()).toMatchObject({ id: 'main', title: 'Replaced', color: 'red' });
    const read = await data('GET', '/dashboard/main', acme, project);
    expect(read.json()).toEqual(merged.json());

    const mismatch = await data('PUT', '/dashboard/main', acme, project, { id: 'other' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe('documentInvalid');

    expect((await data('DELETE', '/dashboard/main', acme, project)).json()).toEqual({ id: 'main' });
    expect((await data('GET', '/dashboard/main', acme, project)).statusCode).toBe(404);
    expect((await data('DELETE', '/dashboard/main', acme, project)).statusCode).toBe(404);
    expect((await data('PATCH', '/dashboard/main', acme, project, { a: 1 })).statusCode).toBe(404);
    // PUT creates a document that was not there.
    expect((await data('PUT', '/dashboard/fresh', acme, project, { a: 1 })).json()).toMatchObject({
      id: 'fresh',
      a: 1,
    });
  });

  it('lists with the query language on document values: types never mix, paths, like, sort, count, projection', async () => {
    const docs = [
      { id: 'a', name: 'Pump A', level: 5, meta: { zone: 'north' }, on: true },
      { id: 'b', name: 'pump b', level: '7', meta: { zone: 'south' }, on: false },
      { id: 'c', name: 'Valve', level: 12, meta: { zone: 'north' } },
      { id: 'd', name: 'Fan', level: null },
    ];
    for (const doc of docs) expect((await data('POST', '/table_record', acme, project, doc)).statusCode).toBe(200);
    const ids = async (query: unknown) => {
      const response = await data('GET', `/table_record?query=${q(query)}`, acme, project);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().map((doc: { id: string }) => doc.id);
    };
    // A number never matches the string '7', and the string never a number.
    expect(await ids({ filter: { level: { gt: 4 } }, sort: { id: 1 } })).toEqual(['a', 'c']);
    expect(await ids({ filter: { level: '7' } })).toEqual(['b']);
    expect(await ids({ filter: { level: 7 } })).toEqual([]);
    expect(await ids({ filter: { level: { not: { gt: 4 } } }, sort: { id: 1 } })).toEqual(['b', 'd']);
    expect(await ids({ filter: { level: null }, sort: { id: 1 } })).toEqual(['d']);
    expect(await ids({ filter: { level: { in: [5, '7'] } }, sort: { id: 1 } })).toEqual(['a', 'b']);
    expect(await ids({ filter: { 'meta.zone': 'north' }, sort: { id: -1 } })).toEqual(['c', 'a']);
    expect(await ids({ filter: { name: { like: '^pump' } }, sort: { id: 1 } })).toEqual(['a', 'b']);
    expect(await ids({ filter: { on: true } })).toEqual(['a']);
    expect(await ids({ sort: { name: 1 }, limit: 2 })).toEqual(['d', 'a']);
    expect(await ids({ sort: { createTime: -1 }, skip: 3 })).toHaveLength(1);

    const counted = await data('GET', `/table_record?query=${q({ withCount: true, limit: 1 })}`, acme, project);
    expect(counted.headers.count).toBe('4');
    expect(counted.json()).toHaveLength(1);
    const filtered = await data('GET', `/table_record/count?query=${q({ 'meta.zone': 'north' })}`, acme, project);
    expect(filtered.json()).toEqual({ count: 2 });
    const projected = await data(
      'GET',
      `/table_record?query=${q({ project: ['name'], filter: { id: 'a' } })}`,
      acme,
      project,
    );
    expect(projected.json()).toEqual([{ id: 'a', name: 'Pump A' }]);

    for (const bad of [
      { filter: { 'bad name': 1 } },
      { filter: { name: { like: '((a{1,50}){1,50}){1,50}b' } } },
      { filter: { level: { gt: { nested: 1 } } } },
      { sort: { name: 2 } },
    ]) {
      const response = await data('GET', `/table_record?query=${q(bad)}`, acme, project);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().code).toBe('badQuery');
    }
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const unknown = await data('GET', '/no_such_model', acme, project);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('modelNotFound');
    expect(unknown.json().message).toContain('no_such_model');

    const noHeader = await data('GET', '/dashboard', acme, undefined);
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().code).toBe('projectHeaderMissing');

    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let level = 0; level < DOCUMENT_LIMITS.depth + 1; level++) {
      const next: Record<string, unknown> = {};
      cursor.child = next;
      cursor = next;
    }
    for (const [body, code] of [
      [[1, 2], 'documentInvalid'],
      [{ $where: 'x' }, 'documentInvalid'],
      [{ id: 'has/slash' }, 'documentInvalid'],
      [{ id: 'x'.repeat(DOCUMENT_LIMITS.idMax + 1) }, 'documentInvalid'],
      [deep, 'documentInvalid'],
      [{ text: 'nul\u0000inside' }, undefined],
    ] as const) {
      const response = await data('POST', '/dashboard', acme, project, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      if (code) expect(response.json().code).toBe(code);
    }
    const huge = await data('POST', '/dashboard', acme, project, { blob: 'x'.repeat(DOCUMENT_LIMITS.bytes) });
    expect(huge.statusCode).toBe(413);
    const count = await data('GET', '/dashboard/count', acme, project);
    expect(count.json()).toEqual({ count: 0 });
  });

  it('keeps every project to its owner: another tenant gets 404 on every call, the administrator gets through', async () => {
    await data('POST', '/user', acme, project, { id: 'u1', name: 'Operator' });
    await data('POST', '/user', other, otherProject, { id: 'u1', name: 'Someone else' });
    const calls: Array<[Method, string, unknown?]> = [
      ['GET', '/user'],
      ['GET', '/user/count'],
      ['GET', '/user/u1'],
      ['POST', '/user', { id: 'u2' }],
      ['PUT', '/user/u1', { name: 'stolen' }],
      ['PATCH', '/user/u1', { name: 'stolen' }],
      ['DELETE', '/user/u1'],
    ];
    for (const [method, url, payload] of calls) {
      const response = await data(method, url, other, project, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('notFound');
    }
    const unknownProject = await data('GET', '/user', acme, 'no-such-project');
    expect(unknownProject.statusCode).toBe(404);
    expect((await data('GET', '/user/u1', acme, project)).json().name).toBe('Operator');
    expect((await data('GET', '/user/u1', other, otherProject)).json().name).toBe('Someone else');
    expect((await data('GET', '/user/u1', admin, project)).json().name).toBe('Operator');
    const anonymous = await app.app.inject({
      method: 'GET',
      url: `${CORE}/user`,
      headers: { 'x-request-project': project },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses writes to a disabled project and under a disabled tenant, still answers reads', async () => {
    await data('POST', '/rule', acme, project, { id: 'r1' });
    const off = await app.call('PATCH', `${SPM_URL}/project/${project}/status`, admin, { status: false });
    expect(off.statusCode).toBe(200);
    const refused = await data('POST', '/rule', admin, project, { id: 'r2' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('projectReadOnly');
    expect((await data('DELETE', '/rule/r1', admin, project)).statusCode).toBe(409);
    expect((await data('GET', '/rule/r1', admin, project)).statusCode).toBe(200);
  });

  it("answers the project's real collections and its size; they go with the project", async () => {
    const names = () => app.call('GET', `${SPM_URL}/project/_collectionNames?projectId=${project}`, acme);
    expect((await names()).json()).toEqual([]);
    await data('POST', '/flow', acme, project, { id: 'f1', steps: [1, 2, 3] });
    await data('POST', '/dashboard', acme, project, { id: 'd1' });
    await data('POST', '/dashboard', acme, project, { id: 'd2' });
    expect((await names()).json()).toEqual(['dashboard', 'flow']);
    const stats = (await app.call('GET', `${SPM_URL}/project/${project}/data-stats`, acme)).json();
    expect(stats.documents).toBe(3);
    expect(stats.bytes).toBeGreaterThan(0);
    expect(
      stats.collections.map((row: { collection: string; documents: number }) => [row.collection, row.documents]),
    ).toEqual([
      ['dashboard', 2],
      ['flow', 1],
    ]);
    await data('DELETE', '/dashboard/d1', acme, project);
    await data('DELETE', '/dashboard/d2', acme, project);
    expect((await names()).json()).toEqual(['flow']);
    expect((await app.call('GET', `${SPM_URL}/project/${project}/data-stats`, other)).statusCode).toBe(404);
    expect((await app.call('GET', `${SPM_URL}/project/_collectionNames?projectId=${project}`, other)).statusCode).toBe(
      404,
    );

    expect((await app.call('DELETE', `${SPM_URL}/project/${project}`, acme)).statusCode).toBe(200);
    // Both the documents (foreign key) and the totals (trigger) are gone.
    const { db } = app.database;
    expect(await db.$count(projectDocuments, eq(projectDocuments.projectId, project))).toBe(0);
    expect(await db.$count(projectCollectionStats, eq(projectCollectionStats.projectId, project))).toBe(0);
  });

  it('names every collection of the spec, each once', () => {
    expect(new Set(COLLECTIONS).size).toBe(COLLECTIONS.length);
    expect(COLLECTIONS).toHaveLength(35);
  });
});
