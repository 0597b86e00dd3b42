import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithTenants, projectBody, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * Project extension fields (issue 16 §3, console.md §2 settings/project): the schema editor's fields
 * checked when saved, every project save checked against them (registry value checks, required, not
 * editable, serial and formula given by the server), and batch change of the batch-changeable fields,
 * never reaching another tenant's project.
 */

let app: TestApp;
let admin: string;
let acme: string;
let globex: string;

const EXPAND = {
  schema: {
    fields: [
      { name: 'plant', title: 'Plant', widget: 'text', required: true },
      { name: 'capacity', title: 'Capacity', widget: 'number', options: { decimals: 2, min: 0 } },
      {
        name: 'stage',
        title: 'Stage',
        widget: 'selector',
        options: { options: [{ value: 'build' }, { value: 'run' }] },
      },
      { name: 'serial', title: 'Serial', widget: 'text', kind: 'serialId', options: { prefix: 'SN-', digits: 4 } },
      {
        name: 'doubled',
        title: 'Doubled',
        widget: 'text',
        kind: 'formula',
        options: { expression: 'capacity * 2', result: 'number' },
      },
      { name: 'score', title: 'Score', widget: 'rating', options: { max: 5 } },
    ],
  },
  editableFields: ['capacity', 'stage', 'score'],
  batchChangeFields: ['stage', 'score'],
};

const body = (extra: Record<string, unknown>, name = 'Plant') => projectBody(app, { name, extra });

beforeAll(async () => {
  [app, admin, acme, globex] = await appWithTenants(['acme', 'globex']);
});
afterAll(() => app.close());

describe('project extension fields', () => {
  it('the schema editor: refuses bad identifiers, options and unknown list entries; tenants read the saved schema', async () => {
    const bad = await app.call('PATCH', `${SPM_URL}/setting`, admin, {
      projectExpand: {
        schema: {
          fields: [
            { name: '1st', title: 'First', widget: 'text' },
            { name: 'level', title: 'Level', widget: 'number', options: { min: 5, max: 1 } },
            { name: 'kind', title: 'Kind', widget: 'selector', options: { options: [] } },
          ],
        },
        batchChangeFields: ['nowhere'],
      },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(
      [
        'projectExpand.batchChangeFields.0',
        'projectExpand.schema.fields.0.name',
        'projectExpand.schema.fields.1.options.max',
        'projectExpand.schema.fields.1.options.min',
        'projectExpand.schema.fields.2.options.options',
      ].sort(),
    );
    const computedBatch = await app.call('PATCH', `${SPM_URL}/setting`, admin, {
      projectExpand: { ...EXPAND, batchChangeFields: ['serial'] },
    });
    expect(computedBatch.statusCode).toBe(400);
    expect(Object.keys(computedBatch.json().fields)).toEqual(['projectExpand.batchChangeFields.0']);

    // Formulas are compiled when saved: a syntax error, a function not allowed and an unknown field
    // are each named on their expression, and nothing is saved.
    const formula = (name: string, expression: string) => ({
      name,
      title: name,
      widget: 'text',
      kind: 'formula',
      options: { expression, result: 'number' },
    });
    const badFormulas = await app.call('PATCH', `${SPM_URL}/setting`, admin, {
      language: 'en',
      projectExpand: {
        schema: {
          fields: [
            { name: 'capacity', title: 'Capacity', widget: 'number' },
            formula('broken', 'capacity *'),
            formula('escape', 'import({}, {})'),
            formula('elsewhere', 'capacity + nowhere'),
            formula('fine', 'capacity * 2'),
            formula('nul', 'concat("a", "\\u0000")'),
          ],
        },
      },
    });
    expect(badFormulas.statusCode, badFormulas.body).toBe(400);
    const problems = badFormulas.json().fields as Record<string, string>;
    expect(Object.keys(problems).sort()).toEqual([
      'projectExpand.schema.fields.1.options.expression',
      'projectExpand.schema.fields.2.options.expression',
      'projectExpand.schema.fields.3.options.expression',
      'projectExpand.schema.fields.5.options.expression',
    ]);
    expect(problems['projectExpand.schema.fields.1.options.expression']).toMatch(/^公式无法解析：/);
    expect(problems['projectExpand.schema.fields.2.options.expression']).toBe(
      '公式无法解析：function import is not allowed',
    );
    expect(problems['projectExpand.schema.fields.3.options.expression']).toBe('公式引用了不存在的字段 nowhere');
    expect(problems['projectExpand.schema.fields.5.options.expression']).toBe(
      '公式字段 nul 含有空字符（U+0000），其结果无法保存',
    );
    const unchanged = await app.call('GET', `${SPM_URL}/setting`, admin);
    expect(unchanged.json().language).not.toBe('en');
    expect(unchanged.json().projectExpand.schema.fields).toEqual([]);

    const saved = await app.call('PATCH', `${SPM_URL}/setting`, admin, { projectExpand: EXPAND });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await app.call('GET', `${SPM_URL}/project/_expand`, acme);
    expect(read.statusCode).toBe(200);
    expect(read.json().schema.fields.map((f: { name: string }) => f.name)).toEqual([
      'plant',
      'capacity',
      'stage',
      'serial',
      'doubled',
      'score',
    ]);
    expect(read.json().batchChangeFields).toEqual(['stage', 'score']);
  });

  it('checks the values on create and update, names the field, gives serials and computes formulas', async () => {
    const missing = await app.call('POST', `${SPM_URL}/project`, acme, body({ capacity: 3 }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'projectExpandInvalid',
      fields: { 'extra.plant': expect.any(String) },
    });
    const wrong = await app.call(
      'POST',
      `${SPM_URL}/project`,
      acme,
      body({ plant: 'North', capacity: 'big', stage: 'dream', nope: 1 }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().fields).sort()).toEqual(['extra.capacity', 'extra.nope', 'extra.stage']);

    const first = await app.call(
      'POST',
      `${SPM_URL}/project`,
      acme,
      body({ plant: 'North', capacity: 2.5, stage: 'build', serial: 'SN-9999' }, 'North'),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().extra).toEqual({
      plant: 'North',
      capacity: 2.5,
      stage: 'build',
      serial: 'SN-0001',
      doubled: 5,
    });
    const second = await app.call('POST', `${SPM_URL}/project`, acme, body({ plant: 'South' }, 'South'));
    expect(second.json().extra).toMatchObject({ plant: 'South', serial: 'SN-0002' });

    const id = first.json().id as string;
    const put = (extra: Record<string, unknown>) =>
      app.call('PUT', `${SPM_URL}/project/${id}`, acme, body(extra, 'North'));
    const notEditable = await put({ plant: 'Renamed', capacity: 4 });
    expect(notEditable.statusCode).toBe(400);
    expect(notEditable.json().fields).toEqual({ 'extra.plant': expect.stringMatching(/cannot be edited|不可编辑/) });
    const edited = await put({ plant: 'North', capacity: 4, score: 3 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().extra).toEqual({
      plant: 'North',
      capacity: 4,
      stage: 'build',
      serial: 'SN-0001',
      doubled: 8,
      score: 3,
    });
    const tooHigh = await put({ score: 6 });
    expect(tooHigh.statusCode).toBe(400);
    expect(Object.keys(tooHigh.json().fields)).toEqual(['extra.score']);
  });

  it('serials come from a counter: concurrent creates never share one, a deleted project’s never comes back', async () => {
    // The administrator's own projects: the tenants' grant pools stay free for the other tests.
    const create = (name: string) => app.call('POST', `${SPM_URL}/project`, admin, body({ plant: name }, name));
    const serialOf = (response: Awaited<ReturnType<typeof create>>) => {
      expect(response.statusCode, response.body).toBe(200);
      return response.json().extra.serial as string;
    };
    // Projects numbered before the counter existed: its first use continues after the highest.
    const before = (await create('Before')).json().id as string;
    await app.database.db.execute(sql`delete from serial_counters`);
    await app.database.db.execute(
      sql`update projects set extra = jsonb_set(extra, '{serial}', '"SN-0041"') where id = ${before}`,
    );
    const made = await Promise.all(['C1', 'C2', 'C3', 'C4'].map(create));
    const serials = made.map(serialOf).sort();
    expect(serials).toEqual(['SN-0042', 'SN-0043', 'SN-0044', 'SN-0045']);

    const last = made.find((response) => response.json().extra.serial === 'SN-0045')?.json().id as string;
    expect((await app.call('DELETE', `${SPM_URL}/project/${last}`, admin)).statusCode).toBe(200);
    const after = await create('After');
    expect(serialOf(after)).toBe('SN-0046');

    const ids = [before, after.json().id, ...made.map((response) => response.json().id)].filter((id) => id !== last);
    for (const id of ids) expect((await app.call('DELETE', `${SPM_URL}/project/${id}`, admin)).statusCode).toBe(200);
  });

  it('batch change sets only batch-changeable fields, on the caller’s projects only, all or none', async () => {
    const ids: string[] = [];
    for (const name of ['B1', 'B2']) {
      const created = await app.call('POST', `${SPM_URL}/project`, acme, body({ plant: name }, name));
      ids.push(created.json().id);
    }
    const theirs = (await app.call('POST', `${SPM_URL}/project`, globex, body({ plant: 'G' }, 'G'))).json().id;
    const batch = (token: string, payload: unknown) => app.call('PATCH', `${SPM_URL}/project/_batch`, token, payload);

    const notBatch = await batch(acme, { ids, extra: { stage: 'run', capacity: 9 } });
    expect(notBatch.statusCode).toBe(400);
    expect(Object.keys(notBatch.json().fields)).toEqual(['extra.capacity']);
    const badValue = await batch(acme, { ids, extra: { stage: 'dream' } });
    expect(badValue.statusCode).toBe(400);
    expect(Object.keys(badValue.json().fields)).toEqual(['extra.stage']);

    const foreign = await batch(acme, { ids: [...ids, theirs], extra: { stage: 'run' } });
    expect(foreign.statusCode).toBe(404);
    for (const id of ids) {
      const project = await app.call('GET', `${SPM_URL}/project/${id}`, acme);
      expect(project.json().extra.stage).toBeUndefined();
    }
    expect((await app.call('GET', `${SPM_URL}/project/${theirs}`, globex)).json().extra.stage).toBeUndefined();

    const done = await batch(acme, { ids, extra: { stage: 'run', score: 4 } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().updated).toBe(2);
    for (const id of ids) {
      const extra = (await app.call('GET', `${SPM_URL}/project/${id}`, acme)).json().extra;
      expect(extra).toMatchObject({ stage: 'run', score: 4 });
      expect(extra.plant).toMatch(/^B[12]$/);
    }
    // The administrator reaches every tenant's projects.
    const all = await batch(admin, { ids: [ids[0], theirs], extra: { score: 1 } });
    expect(all.statusCode).toBe(200);
  });
});
