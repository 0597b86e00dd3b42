import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDemo } from '../../cli/demo.js';
import { adminWithLicence, createTenant, grant, projectBody, SPM_URL, TENANT_PASSWORD } from '../../test/fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// Issue 32: one count of the tables (licence/project-measures.ts), one gate (licence/table-gate.ts)
// on every path that makes tables. Each test has a tenant of its own, so its dashboard sums only
// the test's projects.
let app: TestApp;
let admin: string;
let tenants = 0;

beforeAll(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
});
afterAll(() => app?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function newTenant(): Promise<string> {
  tenants += 1;
  await createTenant(app, admin, `gate${tenants}`);
  return app.login(`gate${tenants}`, TENANT_PASSWORD);
}

function call(token: string, method: Method, url: string, project?: string, payload?: unknown) {
  return app.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': 'en',
      ...(project ? { 'x-request-project': project } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function finished(token: string, taskId: string) {
  let task = { status: 'ongoing', message: null as string | null };
  await expect
    .poll(
      async () => {
        task = (await call(token, 'GET', `${SPM_URL}/proxy/core/taskmanager/${taskId}`)).json();
        return task.status;
      },
      { timeout: 60_000, interval: 100 },
    )
    .not.toBe('ongoing');
  return task;
}

async function newProject(token: string, id: string, tableCount: number): Promise<string> {
  const response = await call(token, 'POST', `${SPM_URL}/project`, undefined, {
    ...projectBody(app, { id }),
    grant: grant(app, { userCount: 2, flow: { tableCount } }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return id;
}

/** The table count as the project detail, the designer's list and the dashboard show it. */
async function counts(token: string, project: string) {
  const detail = (await call(token, 'GET', `${SPM_URL}/project/${project}`)).json<{
    license: { flow: { tableCount: number } };
  }>();
  const listed = (await call(token, 'GET', `${SPM_URL}/tables`, project)).json<unknown[]>();
  const dashboard = (await call(token, 'GET', `${SPM_URL}/dashboard`)).json<{
    licence: { measures: Array<{ path: string; used: number }> };
  }>();
  const used = dashboard.licence.measures.find((measure) => measure.path === 'flow.tableCount')?.used;
  return { detail: detail.license.flow.tableCount, designer: listed.length, dashboard: used };
}

/** The first table of a designer list answer. */
const listed = (response: { json: <T>() => T }) => response.json<Array<{ id: string }>>()[0]?.id ?? '';

const newTable = (token: string, project: string, name: string) =>
  call(token, 'POST', `${SPM_URL}/tables`, project, { name });

describe('the table gate', () => {
  it('the designer makes tables up to the grant; the generic layer makes no table and no designer record', async () => {
    const token = await newTenant();
    const project = await newProject(token, 'gatea', 2);
    const first = await newTable(token, project, 'one');
    expect(first.statusCode, first.body).toBe(200);
    expect((await newTable(token, project, 'two')).statusCode).toBe(200);
    const third = await newTable(token, project, 'three');
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({
      code: 'tableLimit',
      message: 'The project has as many tables as its grant allows (2)',
    });

    const table = first.json<{ id: string }>().id;
    for (const [url, body] of [
      ['/portal/rest/core/table', { name: 'side door' }],
      ['/portal/rest/core/table', { name: 'designed', draft: {}, published: null }],
      ['/portal/rest/core/table_record', { table, data: { value: 1 } }],
    ] as const) {
      const response = await call(token, 'POST', url, project, body);
      expect(response.statusCode, `${url} ${response.body}`).toBe(409);
      expect(response.json().code).toBe('tableUseDesigner');
    }
    expect(await counts(token, project)).toEqual({ detail: 2, designer: 2, dashboard: 2 });
    // Deleting one makes room for one.
    expect((await call(token, 'DELETE', `${SPM_URL}/tables/${table}`, project)).statusCode).toBe(200);
    expect((await newTable(token, project, 'three')).statusCode).toBe(200);
    expect((await newTable(token, project, 'four')).statusCode).toBe(409);
  });

  it('a template install brings its tables within the grant; one with more tables than the grant is refused', async () => {
    const token = await newTenant();
    const install = (id: string, tableCount: number) =>
      call(token, 'POST', `${SPM_URL}/project/_template`, undefined, {
        ...projectBody(app, { id, projectType: 'template', type: 'heating-station' }),
        grant: grant(app, { userCount: 2, flow: { tableCount } }),
      });
    const refused = await install('gateb1', 1);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'tablesOverGrant',
      message: 'The project would then have 2 tables, more than its grant allows (1); nothing was changed',
    });
    expect((await call(token, 'GET', `${SPM_URL}/project/gateb1`)).statusCode).toBe(404);

    const started = await install('gateb2', 2);
    expect(started.statusCode, started.body).toBe(200);
    const task = await finished(token, started.json<{ task: { id: string } }>().task.id);
    expect(task.status, task.message ?? '').toBe('success');
    // The template's tables are the project's: listed by the designer, counted, and the grant is full.
    expect(await counts(token, 'gateb2')).toEqual({ detail: 2, designer: 2, dashboard: 2 });
    const listed = (await call(token, 'GET', `${SPM_URL}/tables`, 'gateb2')).json<Array<{ name: string }>>();
    expect(listed.map((table) => table.name).sort()).toEqual(['station', 'station_reading']);
    expect((await newTable(token, 'gateb2', 'extra')).json().code).toBe('tableLimit');
  });

  it('a restore brings back the tables its backup had within the grant, and is refused beyond it', async () => {
    const token = await newTenant();
    const project = await newProject(token, 'gatec', 2);
    const ids = [];
    for (const name of ['one', 'two']) ids.push((await newTable(token, project, name)).json<{ id: string }>().id);
    const exported = await call(
      token,
      'GET',
      `${SPM_URL}/proxy/core/backup/export?projectId=${project}&query=${q({ name: 'tables', item: { mongodb: true }, moduleRules: { table: 0 } })}`,
      project,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    const backup = exported.json<{ id: string }>().id;
    expect((await finished(token, backup)).status).toBe('success');
    expect((await call(token, 'DELETE', `${SPM_URL}/tables/${ids[0]}`, project)).statusCode).toBe(200);
    const restore = async () => {
      const started = await call(
        token,
        'GET',
        `${SPM_URL}/proxy/core/backup/import?query=${q({ id: backup, item: { mongodb: true }, moduleRules: { table: 2 } })}`,
        project,
      );
      expect(started.statusCode, started.body).toBe(200);
      return finished(token, started.json<{ id: string }>().id);
    };
    const back = await restore();
    expect(back.status, back.message ?? '').toBe('success');
    expect(await counts(token, project)).toEqual({ detail: 2, designer: 2, dashboard: 2 });

    // The grant lowered to one table under the project's two: a restore adding none still passes
    // (the project keeps what it had); one that would add a table past the grant is refused.
    const current = (await call(token, 'GET', `${SPM_URL}/project/${project}`)).json<Record<string, unknown>>();
    const lowered = await call(token, 'PUT', `${SPM_URL}/project/${project}`, undefined, {
      ...projectBody(app),
      name: current.name,
      grant: grant(app, { userCount: 2, flow: { tableCount: 1 } }),
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    const same = await restore();
    expect(same.status, same.message ?? '').toBe('success');
    expect(await counts(token, project)).toEqual({ detail: 2, designer: 2, dashboard: 2 });
    const second = listed(await call(token, 'GET', `${SPM_URL}/tables`, project));
    expect((await call(token, 'DELETE', `${SPM_URL}/tables/${second}`, project)).statusCode).toBe(200);
    const refused = await restore();
    expect(refused.status).toBe('failed');
    expect(refused.message).toBe(
      'The project would then have 2 tables, more than its grant allows (1); nothing was changed',
    );
    expect(await counts(token, project)).toEqual({ detail: 1, designer: 1, dashboard: 1 });
  });

  it('the demo fill makes designer tables through the gate, as many as the grant leaves room for', async () => {
    const token = await newTenant();
    const project = await newProject(token, 'gated', 3);
    expect((await newTable(token, project, 'own')).statusCode).toBe(200);
    // 1,000 documents would bring 10 tables: two fit.
    const made = await fillDemo(app.database.db, project, 1_000, 5);
    expect(made).toHaveLength(2);
    expect(await counts(token, project)).toEqual({ detail: 3, designer: 3, dashboard: 3 });
    const records = await call(token, 'GET', `${SPM_URL}/tables/${made[0]}/records?query=${q({ limit: 5 })}`, project);
    expect(records.statusCode, records.body).toBe(200);
    expect(records.json<unknown[]>().length).toBeGreaterThan(0);
    expect((await newTable(token, project, 'more')).json().code).toBe('tableLimit');
  });
});
