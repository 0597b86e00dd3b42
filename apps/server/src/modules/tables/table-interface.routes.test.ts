import {
  LIST_FIELD_OPERATORS,
  LIST_LOGICAL_OPERATORS,
  PROJECT_HEADER,
  RECORD_QUERY_KEYS,
  TABLE_API_BASE,
  TABLE_RECORD_CALLS,
} from '@gantry/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

// The table interface (issue 32) shows TABLE_RECORD_CALLS and the list operators of
// packages/shared/src/table-interface.ts: here the server is held to them, so neither can drift.
let app: TestApp;
let session: string;
let token: string;
let project: string;
let table: string;

beforeAll(async () => {
  [app, , session] = await appWithTenants(['acme']);
  project = (await createProject(app, session, { id: 'apiplant' })).id;
  const created = await app.call('POST', `${SPM_URL}/login/current/tokens`, session, {
    name: 'integration',
    scope: 'all',
    expiresInDays: 30,
  });
  expect(created.statusCode, created.body).toBe(200);
  token = created.json<{ token: string }>().token;
  table = (await call('POST', '/tables', { name: 'wells' })).json<{ id: string }>().id;
  await call('PUT', `/tables/${table}/draft`, {
    fields: [
      { name: 'name', title: 'name', type: 'text' },
      { name: 'depth', title: 'depth', type: 'number', batchEdit: true },
    ],
  });
  const published = await call('POST', `/tables/${table}/publish`, {});
  expect(published.statusCode, published.body).toBe(200);
});
afterAll(() => app?.close());

/** A call as the interface's example makes it: the API token, the project header. */
function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) {
  return app.app.inject({
    method,
    url: `${TABLE_API_BASE}${path}`,
    headers: { authorization: `Bearer ${token ?? session}`, [PROJECT_HEADER]: project, 'accept-language': 'en' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('the table interface', () => {
  it('shows every records route the server has, and no other', () => {
    expect(token.startsWith('gty_')).toBe(true);
    const served = app.actionRoutes
      .filter((route) => route.method !== 'HEAD' && route.url.startsWith(`${TABLE_API_BASE}/tables/:id/records`))
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    const shown = TABLE_RECORD_CALLS.map((item) => `${item.method} ${TABLE_API_BASE}${item.path}`).sort();
    expect(served).toEqual(shown);
  });

  it('every call shown works with an API token, as the example makes it', async () => {
    const made = await call('POST', `/tables/${table}/records`, { name: 'north', depth: 5 });
    expect(made.statusCode, made.body).toBe(200);
    const record = made.json<{ id: string }>().id;
    const paths = (path: string) => path.replace(':id', table).replace(':recordId', record);
    const bodies: Record<string, unknown> = {
      create: { name: 'south', depth: 9 },
      batch: { ids: [record], values: { depth: 6 } },
      replace: { name: 'north', depth: 7 },
      update: { depth: 8 },
    };
    for (const item of TABLE_RECORD_CALLS) {
      const response = await call(item.method, paths(item.path), bodies[item.key]);
      expect(response.statusCode, `${item.key}: ${response.body}`).toBe(200);
    }
  });

  it('parses every operator shown, and refuses one not shown', async () => {
    const values: Record<string, unknown> = {
      eq: 'north',
      ne: 'north',
      gt: 'a',
      gte: 'a',
      lt: 'z',
      lte: 'z',
      in: ['north'],
      nin: ['north'],
      like: 'nor',
      not: { like: 'x' },
    };
    const filters: Array<[string, unknown]> = [
      ...LIST_FIELD_OPERATORS.flatMap(
        (op): Array<[string, unknown]> => [
          [op, { name: { [op]: values[op] } }],
          [`$${op}`, { name: { [`$${op}`]: values[op] } }],
        ],
      ),
      ...LIST_LOGICAL_OPERATORS.map((op): [string, unknown] => [
        op,
        { [op]: op === 'not' ? { name: 'north' } : [{ name: 'north' }, { depth: { gt: 1 } }] },
      ]),
    ];
    for (const [op, filter] of filters) {
      const response = await call('GET', `/tables/${table}/records?query=${q({ filter })}`);
      expect(response.statusCode, `${op}: ${response.body}`).toBe(200);
    }
    const unknown = await call('GET', `/tables/${table}/records?query=${q({ filter: { name: { regex: 'x' } } })}`);
    expect(unknown.statusCode).toBe(400);
    const query = {
      filter: { depth: { gte: 0 } },
      sort: { depth: -1 },
      skip: 0,
      limit: 1,
      project: ['name'],
      withCount: true,
    };
    expect(Object.keys(query).sort()).toEqual(RECORD_QUERY_KEYS.filter((key) => key !== 'cursor').sort());
    const page = await call('GET', `/tables/${table}/records?query=${q(query)}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['next-cursor']).toBeDefined();
    const next = await call(
      'GET',
      `/tables/${table}/records?query=${q({ sort: { depth: -1 }, limit: 1, cursor: page.headers['next-cursor'] })}`,
    );
    expect(next.statusCode, next.body).toBe(200);
  });
});
