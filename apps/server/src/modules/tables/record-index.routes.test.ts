import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { MAX_TABLE_INDEXES, recordIndexName, statisticsName, tableIndexPrefix } from './record-index.js';

/**
 * The grid stays fast (issue 16 §2): publishing makes the table's record indexes (and drops those of
 * removed fields), the list's statement is one the index serves, and keyset paging (`next-cursor`)
 * returns every record the caller may see exactly once, in the list's order.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
let app: TestApp;
let acme: string;
const project = 'keys1';
let table: string;

const USERS: Record<string, { dept: string }> = { u1: { dept: 'd1' }, u2: { dept: 'd1' }, u3: { dept: 'd2' } };
/** View: u1 sees everything, the others their department's records. */
const VIEW = [
  { who: 'users', ids: ['u1'], records: 'all' },
  { who: 'all', records: 'department' },
];

function call(method: Method, url: string, as?: string, payload?: unknown) {
  return app.app.inject({
    method,
    url: `${SPM_URL}${url}`,
    headers: { authorization: `Bearer ${acme}`, 'x-request-project': project, ...(as ? { 'x-view-as': as } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok<T>(method: Method, url: string, as?: string, payload?: unknown): Promise<T> {
  const response = await call(method, url, as, payload);
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

const field = (name: string, type: string, extra: object = {}) => ({ name, title: name, type, ...extra });

async function publish(fields: object[], permissions: object = { view: VIEW }) {
  await ok('PUT', `/tables/${table}/draft`, undefined, { fields, permissions });
  await ok('POST', `/tables/${table}/publish`, undefined, {});
}

async function indexNames(tableId = table): Promise<string[]> {
  const prefix = tableIndexPrefix(project, tableId);
  const { rows } = (await app.database.db.execute(
    sql`select indexname from pg_indexes where left(indexname, ${prefix.length}) = ${prefix} order by 1`,
  )) as unknown as { rows: Array<{ indexname: string }> };
  return rows.map((row) => row.indexname);
}

const BASE_FIELDS = [
  field('num', 'number', { sortable: true, showInFilter: true }),
  field('flag', 'boolean', { sortable: true }),
  field('note', 'text'),
];

interface Row {
  id: string;
  creator: string;
  data: { num?: number | null; flag?: boolean | null };
  createTime: string;
}
const rows: Row[] = [];

beforeAll(async () => {
  [app, , acme] = await appWithTenants(['acme']);
  await createProject(app, acme, { id: project });
  for (const dept of ['d1', 'd2'])
    await app.app.inject({
      method: 'POST',
      url: '/portal/rest/core/dept',
      headers: { authorization: acme, 'x-request-project': project },
      payload: { id: dept, name: dept },
    });
  for (const [id, user] of Object.entries(USERS))
    await app.app.inject({
      method: 'POST',
      url: '/portal/rest/core/user',
      headers: { authorization: acme, 'x-request-project': project },
      payload: { id, username: id, ...user, roles: [] },
    });
  table = (await ok<{ id: string }>('POST', '/tables', undefined, { name: 'wells' })).id;
  await publish(BASE_FIELDS);
  // 45 records: few distinct values and some missing ones, so ties and NULLs meet page edges.
  for (let i = 0; i < 45; i++) {
    const creator = ['u1', 'u2', 'u3', 'owner'][i % 4] as string;
    const values = { ...(i % 7 === 3 ? {} : { num: i % 5 }), ...(i % 3 === 0 ? {} : { flag: i % 2 === 0 }) };
    const record = await ok<Row>('POST', `/tables/${table}/records`, creator === 'owner' ? undefined : creator, values);
    rows.push({ ...record, creator });
    if (i % 10 === 0) app.advance(1000);
  }
});
afterAll(() => app.close());

describe('record indexes', () => {
  it('are made on publish for the sort and filter fields, named by table and field, and dropped with the field or table', async () => {
    expect(await indexNames()).toEqual(
      [recordIndexName(project, table, 'num'), recordIndexName(project, table, 'flag')].sort(),
    );
    const { rows: stats } = (await app.database.db.execute(
      sql`select stxname from pg_statistic_ext where stxname in (${statisticsName(recordIndexName(project, table, 'num'))}, 'project_documents_default_tstats')`,
    )) as unknown as { rows: unknown[] };
    expect(stats).toHaveLength(2);
    // The list's own statement is one the index serves (a small table is read whole and sorted otherwise).
    await app.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      const { rows: plan } = (await tx.execute(
        sql.raw(
          `explain select id from project_documents where project_id = '${project}' and collection = 'table_record' and doc ->> 'table' = '${table}' and nullif(doc #> '{data,"num"}'::text[], 'null'::jsonb) >= '2'::jsonb order by nullif(doc #> '{data,"num"}'::text[], 'null'::jsonb) desc, id desc limit 5`,
        ),
      )) as unknown as { rows: Array<Record<string, string>> };
      expect(plan.map((line) => Object.values(line)[0]).join('\n')).toContain(recordIndexName(project, table, 'num'));
    });

    // At most MAX_TABLE_INDEXES per table, the list's sort field first; a removed field's index goes.
    const many = Array.from({ length: MAX_TABLE_INDEXES + 4 }, (_, i) =>
      field(`f${i}`, 'number', { showInFilter: true }),
    );
    const other = (await ok<{ id: string }>('POST', '/tables', undefined, { name: 'many' })).id;
    const last = `f${MAX_TABLE_INDEXES + 3}`;
    await ok('PUT', `/tables/${other}/draft`, undefined, { fields: many, list: { sortField: last } });
    await ok('POST', `/tables/${other}/publish`, undefined, {});
    const made = await indexNames(other);
    expect(made).toHaveLength(MAX_TABLE_INDEXES);
    expect(made).toContain(recordIndexName(project, other, last));
    expect(made).not.toContain(recordIndexName(project, other, `f${MAX_TABLE_INDEXES + 2}`));
    await ok('PUT', `/tables/${other}/draft`, undefined, { fields: many.slice(1, 3) });
    await ok('POST', `/tables/${other}/publish`, undefined, {});
    expect(await indexNames(other)).toEqual(
      [recordIndexName(project, other, 'f1'), recordIndexName(project, other, 'f2')].sort(),
    );
    await ok('DELETE', `/tables/${other}`);
    expect(await indexNames(other)).toEqual([]);
  });

  it('a dropped index is made again on the next list (a restored or copied table)', async () => {
    const [name] = await indexNames();
    await app.database.db.execute(sql.raw(`drop index ${name}`));
    await ok('GET', `/tables/${table}/records`);
    expect(await indexNames()).toHaveLength(1);
    app.advance(61_000);
    await ok('GET', `/tables/${table}/records`);
    expect(await indexNames()).toHaveLength(2);
  });
});

// ---- keyset paging against a reference reading ---------------------------------------------------

type Sort = Record<string, 1 | -1>;

/** jsonb order of the values stored here (numbers below booleans); NULL above all (last ascending, first descending). */
function compareKey(a: unknown, b: unknown, direction: 1 | -1): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 3 : typeof v === 'boolean' ? 2 : 1);
  const order = rank(a) - rank(b) || (a === b || rank(a) === 3 ? 0 : (a as number) < (b as number) ? -1 : 1);
  return order * direction;
}

function reference(sort: Sort, user: string | undefined, min: number | undefined): string[] {
  const visible = rows.filter((row) => {
    if (min !== undefined && !(typeof row.data.num === 'number' && row.data.num >= min)) return false;
    if (user === undefined || user === 'u1') return true;
    return USERS[row.creator]?.dept === USERS[user]?.dept;
  });
  const keys: Array<[string, 1 | -1]> = Object.keys(sort).length > 0 ? Object.entries(sort) : [['createTime', -1]];
  const last = keys.at(-1)?.[1] ?? 1;
  return visible
    .sort((a, b) => {
      for (const [name, direction] of keys) {
        const value = (row: Row) =>
          name === 'createTime' ? Date.parse(row.createTime) : row.data[name as keyof Row['data']];
        const order = compareKey(value(a), value(b), direction);
        if (order !== 0) return order;
      }
      return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * last;
    })
    .map((row) => row.id);
}

describe('keyset paging', () => {
  it('pages through every visible record exactly once, in order, whatever the sort, page size and user', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Sort>({}, { num: 1 }, { num: -1 }, { flag: 1, num: -1 }, { flag: -1, createTime: 1 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(undefined, 'u1', 'u2', 'u3'),
        fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
        async (sort, limit, user, min) => {
          const filter = min === undefined ? {} : { filter: { num: { gte: min } } };
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let page = 0; page < 60; page++) {
            const query = { sort, limit, ...filter, ...(cursor ? { cursor } : {}) };
            const response = await call(
              'GET',
              `/tables/${table}/records?query=${encodeURIComponent(JSON.stringify(query))}`,
              user,
            );
            expect(response.statusCode, response.body).toBe(200);
            const ids = response.json<Array<{ id: string }>>().map((row) => row.id);
            seen.push(...ids);
            const next = response.headers['next-cursor'];
            if (ids.length < limit) expect(next).toBeUndefined();
            if (typeof next !== 'string') break;
            cursor = next;
          }
          expect(seen).toEqual(reference(sort, user, min));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('refuses a cursor made for another sort, a broken one, and a cursor with skip', async () => {
    const first = await call(
      'GET',
      `/tables/${table}/records?query=${encodeURIComponent('{"sort":{"num":1},"limit":2}')}`,
    );
    const cursor = String(first.headers['next-cursor']);
    const other = await call(
      'GET',
      `/tables/${table}/records?query=${encodeURIComponent(JSON.stringify({ sort: { num: -1 }, limit: 2, cursor }))}`,
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('another sort');
    for (const query of [
      { cursor: 'not a cursor' },
      { cursor: 'eyJzIjoiIn0' },
      { sort: { num: 1 }, skip: 2, cursor },
    ]) {
      const response = await call('GET', `/tables/${table}/records?query=${encodeURIComponent(JSON.stringify(query))}`);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});
