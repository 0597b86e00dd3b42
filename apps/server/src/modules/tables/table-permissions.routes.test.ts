import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * Record permissions (§4a): a matrix of project users × permission configurations × records. What
 * each user lists, counts, reads and changes is compared with a reference reading of the rules
 * written here apart from the server's SQL: nothing another rule forbids is returned or changed.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
let app: TestApp;
let acme: string;
const project = 'perm1';

const DEPARTMENTS: Record<string, string | undefined> = { d1: undefined, d2: 'd1', d3: undefined };
const USERS: Record<string, { dept?: string; roles: string[] }> = {
  u1: { dept: 'd1', roles: ['r1'] },
  u2: { dept: 'd2', roles: ['r1'] },
  u3: { dept: 'd1', roles: ['r2'] },
  u4: { dept: 'd3', roles: [] },
  u5: { roles: ['r2'] },
};
const MEMBERS = Object.keys(USERS);

interface Rule {
  who?: 'all' | 'users' | 'departments' | 'roles';
  ids?: string[];
  records: 'all' | 'self' | 'department' | 'departmentTree' | 'role' | 'none';
}

function call(method: Method, url: string, as?: string, payload?: unknown) {
  return app.app.inject({
    method,
    url: `${SPM_URL}${url}`,
    headers: {
      authorization: `Bearer ${acme}`,
      'x-request-project': project,
      'accept-language': 'en',
      ...(as ? { 'x-view-as': as } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok<T>(method: Method, url: string, as?: string, payload?: unknown): Promise<T> {
  const response = await call(method, url, as, payload);
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

// ---- the reference reading ---------------------------------------------------------------------

function below(dept: string): string[] {
  return [
    dept,
    ...Object.keys(DEPARTMENTS)
      .filter((d) => DEPARTMENTS[d] === dept)
      .flatMap(below),
  ];
}

function first(rules: Rule[], user: string): Rule['records'] {
  const { dept, roles } = USERS[user] ?? { roles: [] };
  for (const rule of rules) {
    const who = rule.who ?? 'all';
    const ids = rule.ids ?? [];
    if (
      who === 'all' ||
      (who === 'users' && ids.includes(user)) ||
      (who === 'departments' && dept !== undefined && ids.includes(dept)) ||
      (who === 'roles' && roles.some((role) => ids.includes(role)))
    )
      return rule.records;
  }
  return 'none';
}

/** Whether `user` reaches a record created by `creator` (a member, or 'owner') under `scope`. */
function reaches(scope: Rule['records'], user: string, creator: string): boolean {
  const me = USERS[user] ?? { roles: [] };
  const them = USERS[creator];
  if (scope === 'all') return true;
  if (scope === 'none' || !them) return false;
  if (scope === 'self') return creator === user;
  if (scope === 'department') return me.dept !== undefined && them.dept === me.dept;
  if (scope === 'departmentTree')
    return me.dept !== undefined && them.dept !== undefined && below(me.dept).includes(them.dept);
  return me.roles.some((role) => them.roles.includes(role));
}

// ---- setup ---------------------------------------------------------------------------------------

let table: string;
/** Record id → its creator. */
const creators = new Map<string, string>();

beforeAll(async () => {
  [app, , acme] = await appWithTenants(['acme']);
  await createProject(app, acme, { id: project });
  const core = (collection: string, doc: object) =>
    app.app.inject({
      method: 'POST',
      url: `/portal/rest/core/${collection}`,
      headers: { authorization: acme, 'x-request-project': project },
      payload: doc,
    });
  for (const [id, parent] of Object.entries(DEPARTMENTS))
    expect((await core('dept', { id, name: id, ...(parent ? { parent } : {}) })).statusCode).toBe(200);
  for (const [id, user] of Object.entries(USERS))
    expect((await core('user', { id, username: id, ...user })).statusCode).toBe(200);

  table = (await ok<{ id: string }>('POST', '/tables', undefined, { name: 'orders' })).id;
  await publish({});
  for (const creator of [...MEMBERS, 'owner']) {
    const record = await ok<{ id: string }>(
      'POST',
      `/tables/${table}/records`,
      creator === 'owner' ? undefined : creator,
      { note: creator },
    );
    creators.set(record.id, creator);
  }
});
afterAll(() => app.close());

async function publish(permissions: { view?: Rule[]; add?: Rule[]; manage?: Rule[] }) {
  await ok('PUT', `/tables/${table}/draft`, undefined, {
    fields: [{ name: 'note', title: 'Note', type: 'text' }],
    permissions,
  });
  await ok('POST', `/tables/${table}/publish`, undefined, {});
}

const CONFIGURATIONS: Array<{ name: string; view?: Rule[]; manage?: Rule[] }> = [
  { name: 'self only (manage everything, limited by view)', view: [{ records: 'self' }] },
  { name: 'same department', view: [{ records: 'department' }] },
  {
    name: 'department and sub-departments, manage own',
    view: [{ records: 'departmentTree' }],
    manage: [{ records: 'self' }],
  },
  { name: 'same role', view: [{ records: 'role' }] },
  { name: 'a user first, then self', view: [{ who: 'users', ids: ['u1'], records: 'all' }, { records: 'self' }] },
  {
    name: 'a role shut out first, then all; manage by department',
    view: [{ who: 'roles', ids: ['r2'], records: 'none' }, { records: 'all' }],
    manage: [{ who: 'departments', ids: ['d1'], records: 'all' }],
  },
  { name: 'one department only', view: [{ who: 'departments', ids: ['d1'], records: 'all' }] },
];

describe('record permissions', () => {
  it.each(CONFIGURATIONS)('$name: every user lists, reads and changes only what the rules allow', async (config) => {
    await publish({
      ...(config.view ? { view: config.view } : {}),
      ...(config.manage ? { manage: config.manage } : {}),
    });
    const view = config.view ?? [{ records: 'all' }];
    const manage = config.manage ?? [{ records: 'all' }];
    const mismatches: string[] = [];
    for (const user of MEMBERS) {
      const visible = [...creators]
        .filter(([, creator]) => reaches(first(view, user), user, creator))
        .map(([id]) => id);
      const listed = await call(
        'GET',
        `/tables/${table}/records?query=${encodeURIComponent('{"withCount":true}')}`,
        user,
      );
      const ids = listed.json<Array<{ id: string }>>().map((record) => record.id);
      if (ids.sort().join() !== [...visible].sort().join()) mismatches.push(`${user} lists ${ids} not ${visible}`);
      if (listed.headers.count !== String(visible.length)) mismatches.push(`${user} counts ${listed.headers.count}`);
      const counted = await ok<{ count: number }>('GET', `/tables/${table}/records/count`, user);
      if (counted.count !== visible.length) mismatches.push(`${user} /count ${counted.count}`);
      for (const [id, creator] of creators) {
        const sees = visible.includes(id);
        const manages = sees && reaches(first(manage, user), user, creator);
        const read = await call('GET', `/tables/${table}/records/${id}`, user);
        if (read.statusCode !== (sees ? 200 : 404)) mismatches.push(`${user} reads ${creator}'s: ${read.statusCode}`);
        const changed = await call('PATCH', `/tables/${table}/records/${id}`, user, { note: creator });
        const expected = manages ? 200 : sees ? 403 : 404;
        if (changed.statusCode !== expected) mismatches.push(`${user} changes ${creator}'s: ${changed.statusCode}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('add: only users whose first add configuration allows it may create; deletes follow manage', async () => {
    await publish({ add: [{ who: 'roles', ids: ['r1'], records: 'all' }], manage: [{ records: 'self' }] });
    for (const user of MEMBERS) {
      const created = await call('POST', `/tables/${table}/records`, user, { note: 'new' });
      expect(created.statusCode, user).toBe(USERS[user]?.roles.includes('r1') ? 200 : 403);
      if (created.statusCode === 200) {
        const id = created.json<{ id: string }>().id;
        const [someone] = [...creators].find(([, creator]) => creator !== user) ?? [];
        expect((await call('DELETE', `/tables/${table}/records/${someone}`, user)).statusCode).toBe(403);
        expect((await call('DELETE', `/tables/${table}/records/${id}`, user)).statusCode).toBe(200);
      }
    }
    expect((await call('GET', `/tables/${table}/records`, 'nobody')).statusCode).toBe(404);
  });
});
