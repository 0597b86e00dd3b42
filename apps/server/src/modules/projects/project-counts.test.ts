/**
 * Project list totals: `project_counts` (migration 0006) kept exact by the triggers on `projects`
 * under any insert, delete, owner or status change (single rows, bulk statements, rollbacks,
 * concurrent transactions); the list and count calls answering from it, from capped counts, or
 * from estimates with `count-estimated: true`; and totals following this server's own writes at once.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../db/database.js';
import { COUNT_CAP } from '../../lib/list-count.js';
import { adminWithLicence, appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import { createTestApp, ENGINE, type TestApp } from '../../test/test-app.js';

/** How often the project repository ran a capped count. */
const calls = vi.hoisted(() => ({ capped: 0 }));
vi.mock('../../lib/list-count.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/list-count.js')>();
  const cappedCount: typeof original.cappedCount = (...args) => {
    calls.capped += 1;
    return original.cappedCount(...args);
  };
  return { ...original, cappedCount };
});

const OWNERS = ['o1', 'o2', 'o3'];

/** Rows where project_counts and a real count disagree (none when the counters are exact). */
async function mismatches(app: TestApp): Promise<unknown[]> {
  return queryRows(
    app.database.db,
    sql`select coalesce(c.user_id, p.user_id) as owner, coalesce(c.status, p.status) as status, c.n as kept, p.n as real
      from project_counts c
      full join (select user_id, status, count(*) as n from projects group by user_id, status) p
        on c.user_id = p.user_id and c.status = p.status
      where coalesce(c.n, 0) <> coalesce(p.n, 0)`,
  );
}

/** Runs raw SQL (the triggers see exactly what a statement changes). */
const run = (app: TestApp, statement: ReturnType<typeof sql>) => app.database.db.execute(statement);

/** One statement changing projects in a way the counters must follow. */
type Operation =
  | { kind: 'insert'; owner: string; status: boolean; count: number }
  | { kind: 'deleteSome'; modulo: number }
  | { kind: 'deleteOwner'; owner: string }
  | { kind: 'setStatus'; owner: string; status: boolean }
  | { kind: 'flipAll' }
  | { kind: 'moveSome'; to: string; modulo: number }
  | { kind: 'rename' }
  | { kind: 'truncate' };

const owner = fc.constantFrom(...OWNERS);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('insert'),
      owner,
      status: fc.boolean(),
      count: fc.integer({ min: 1, max: 40 }),
    }),
    weight: 4,
  },
  fc.record({ kind: fc.constant('deleteSome'), modulo: fc.integer({ min: 2, max: 5 }) }),
  fc.record({ kind: fc.constant('deleteOwner'), owner }),
  fc.record({ kind: fc.constant('setStatus'), owner, status: fc.boolean() }),
  fc.record({ kind: fc.constant('flipAll') }),
  fc.record({ kind: fc.constant('moveSome'), to: owner, modulo: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('rename') }),
  fc.record({ kind: fc.constant('truncate') }),
) as fc.Arbitrary<Operation>;

let serial = 0;
async function apply(app: TestApp, op: Operation): Promise<void> {
  switch (op.kind) {
    case 'insert': {
      const first = serial;
      serial += op.count;
      await run(
        app,
        sql`insert into projects (id, name, status, user_id)
          select 'x' || g, 'project ' || g, ${op.status}, ${op.owner} from generate_series(${first}::int, ${serial - 1}::int) g`,
      );
      return;
    }
    case 'deleteSome':
      await run(app, sql`delete from projects where length(id) % ${op.modulo}::int = 0 or right(id, 1) = '7'`);
      return;
    case 'deleteOwner':
      await run(app, sql`delete from projects where user_id = ${op.owner}`);
      return;
    case 'setStatus':
      await run(app, sql`update projects set status = ${op.status} where user_id = ${op.owner}`);
      return;
    case 'flipAll':
      await run(app, sql`update projects set status = not status`);
      return;
    case 'moveSome':
      await run(app, sql`update projects set user_id = ${op.to} where right(id, 1)::int % ${op.modulo + 1}::int = 0`);
      return;
    case 'rename':
      await run(app, sql`update projects set name = name || '!', remarks = 'r'`);
      return;
    case 'truncate':
      // CASCADE: the projects' documents and tasks reference them.
      await run(app, sql`truncate projects cascade`);
      return;
  }
}

describe(`project_counts (${ENGINE})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    await run(app, sql`insert into users (id, name) values ('o1', 'O1'), ('o2', 'O2'), ('o3', 'O3')`);
  });
  afterAll(() => app?.close());

  it('stays exact under random inserts, deletes, owner and status changes, in bulk or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        for (const op of operations) await apply(app, op);
        expect(await mismatches(app)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it('forgets what a rolled-back transaction did', async () => {
    await run(app, sql`delete from projects`);
    await run(app, sql`insert into projects (id, name, user_id) values ('keep', 'keep', 'o1')`);
    await expect(
      app.database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into projects (id, name, user_id) values ('gone', 'gone', 'o1')`);
        await tx.execute(sql`update projects set user_id = 'o2', status = false`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await mismatches(app)).toEqual([]);
    const [row] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select n::int as n from project_counts where user_id = 'o1' and status`,
    );
    expect(row?.n).toBe(1);
  });

  it('stays exact under concurrent transactions on the same owners', async () => {
    await run(app, sql`delete from projects`);
    const work = Array.from({ length: 24 }, (_, i) =>
      app.database.db.transaction(async (tx) => {
        const who = OWNERS[i % OWNERS.length] ?? 'o1';
        await tx.execute(sql`insert into projects (id, name, user_id, status)
          select 'c' || ${i}::int || '-' || g, 'c', ${who}, g % 2 = 0 from generate_series(1, 5) g`);
        await tx.execute(sql`update projects set status = not status where id like ${`c${i}-%`}`);
        if (i % 3 === 0) await tx.execute(sql`delete from projects where id = ${`c${i}-1`}`);
        if (i % 4 === 0) await tx.execute(sql`update projects set user_id = 'o3' where id = ${`c${i}-2`}`);
      }),
    );
    await Promise.all(work);
    expect(await mismatches(app)).toEqual([]);
    const [total] = await queryRows<{ n: number }>(app.database.db, sql`select sum(n)::int as n from project_counts`);
    expect(total?.n).toBe(24 * 5 - 8);
  });
});

describe(`project list totals (${ENGINE})`, () => {
  let app: TestApp;
  let admin: string;
  let tenant: string;
  const SEEDED = COUNT_CAP + 50;

  const get = (token: string, path: string, query: unknown) =>
    app.call('GET', `${SPM_URL}/project${path}?query=${encodeURIComponent(JSON.stringify(query))}`, token);
  const listTotal = async (token: string, filter?: unknown) => {
    const response = await get(token, '', { limit: 1, withCount: true, ...(filter ? { filter } : {}) });
    expect(response.statusCode).toBe(200);
    return { count: Number(response.headers.count), estimated: response.headers['count-estimated'] };
  };
  /** The true number of the filter's rows, counted in full. */
  const realCount = async (where: ReturnType<typeof sql>) =>
    (await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from projects where ${where}`))[0]
      ?.n;

  beforeAll(async () => {
    [app, admin, tenant] = await appWithTenants(['acme']);
    // Platform projects 'seed 0…', every fifth disabled, and 30 of the tenant's.
    await run(
      app,
      sql`insert into projects (id, name, status, user_id)
        select 's' || g, 'seed ' || g, g % 5 <> 0, 'admin' from generate_series(0, ${SEEDED - 1}::int) g`,
    );
    await run(
      app,
      sql`insert into projects (id, name, status, user_id)
        select 'a' || g, 'acme seed ' || g, g % 3 <> 0, 'acme' from generate_series(0, 29) g`,
    );
    await run(app, sql`analyze projects`);
  });
  afterAll(() => app?.close());

  it('answers the unfiltered, owner and status totals exactly, from the maintained counters', async () => {
    const all = SEEDED + 30;
    expect(await listTotal(admin)).toEqual({ count: all, estimated: undefined });
    expect(await listTotal(admin, { status: true })).toEqual({
      count: await realCount(sql`status`),
      estimated: undefined,
    });
    expect(await listTotal(admin, { user: 'acme' })).toEqual({ count: 30, estimated: undefined });
    expect(await listTotal(admin, { user: 'acme', status: false })).toEqual({ count: 10, estimated: undefined });
    expect(await listTotal(admin, { $and: [{ user: { eq: 'admin' } }, { status: true }] })).toEqual({
      count: SEEDED - Math.ceil(SEEDED / 5),
      estimated: undefined,
    });
    expect(await listTotal(tenant)).toEqual({ count: 30, estimated: undefined });
    expect(await listTotal(tenant, { status: true })).toEqual({ count: 20, estimated: undefined });
    // A tenant naming another owner sees nothing (counted, not looked up).
    expect(await listTotal(tenant, { user: 'admin' })).toEqual({ count: 0, estimated: undefined });
    // The dashboard's project counts come from the same counters.
    const dashboard = async (token: string) =>
      (await app.call('GET', `${SPM_URL}/dashboard`, token)).json<{ projects: unknown }>().projects;
    expect(await dashboard(admin)).toEqual({
      enabled: await realCount(sql`status`),
      disabled: await realCount(sql`not status`),
    });
    expect(await dashboard(tenant)).toEqual({ enabled: 20, disabled: 10 });

    // They are read from project_counts: a counter changed behind the server's back shows.
    await run(app, sql`update project_counts set n = n + 1000 where user_id = 'acme' and status`);
    expect((await listTotal(tenant)).count).toBe(1030);
    expect((await listTotal(admin, { user: 'acme' })).count).toBe(1030);
    expect(await dashboard(tenant)).toEqual({ enabled: 1020, disabled: 10 });
    app.advance(3_600_000); // the all-owners sum is kept a few seconds
    expect((await listTotal(admin)).count).toBe(all + 1000);
    // ...while any other filter is counted.
    expect((await listTotal(admin, { user: 'acme', name: { like: 'seed' } })).count).toBe(30);
    await run(app, sql`update project_counts set n = n - 1000 where user_id = 'acme' and status`);
    app.advance(3_600_000);
  });

  it('counts other filters exactly up to the cap, and estimates above it with count-estimated: true', async () => {
    const few = await listTotal(admin, { name: { like: '^seed 1[0-9]$' } });
    expect(few).toEqual({ count: 10, estimated: undefined });
    const capped = await listTotal(admin, { name: { like: '^seed' } });
    expect(capped.estimated).toBe('true');
    expect(capped.count).toBeGreaterThan(COUNT_CAP);
    // The estimate is the planner's: in the neighbourhood of the real total, never below the cap.
    expect(capped.count).toBeLessThan(SEEDED * 3);
    const counted = await get(admin, '/count', { name: { like: '^seed' } });
    expect(counted.headers['count-estimated']).toBe('true');
    expect(counted.json<{ count: number }>().count).toBeGreaterThan(COUNT_CAP);
    const exact = await get(admin, '/count', { name: { like: '^acme' } });
    expect(exact.headers['count-estimated']).toBeUndefined();
    expect(exact.json()).toEqual({ count: 30 });
  });

  it('says in the API document which totals are exact, which estimated, and what like takes', async () => {
    const doc = (await app.call('GET', '/portal/rest/openapi.json')).json();
    for (const path of ['/portal/rest/spm/project', '/portal/rest/spm/project/count']) {
      const text: string = doc.paths[path].get.description;
      expect(text).toContain('with no filter, or a filter of only `user` and/or `status` equalities, exact');
      expect(text).toContain('exact up to 10,000 projects');
      expect(text).toContain('`count-estimated: true`');
    }
    for (const path of ['/portal/rest/spm/user', '/portal/rest/spm/audit', '/portal/rest/core/license/machineInfo']) {
      for (const call of [path, `${path}/count`]) {
        expect(doc.paths[call].get.description).toMatch(/exact up to 10,000 \w+; above that the planner's estimate/);
      }
      expect(doc.paths[path].get.description).toContain('counted repetition `{n,m}`');
    }
    expect(doc.paths['/portal/rest/spm/project'].get.description).toContain('`like` takes text or a safe subset');
  });

  it("follows this server's own writes at once, on every kind of total", async () => {
    const before = {
      all: await listTotal(admin),
      enabled: await listTotal(admin, { status: true }),
      plants: await listTotal(admin, { name: { like: '^Plant' } }),
      mine: await listTotal(tenant),
    };
    expect(before.plants.count).toBe(0);
    const created = await createProject(app, admin, { name: 'Plant one' });
    expect(await listTotal(admin)).toEqual({ count: before.all.count + 1, estimated: undefined });
    expect((await listTotal(admin, { status: true })).count).toBe(before.enabled.count + 1);
    expect((await listTotal(admin, { name: { like: '^Plant' } })).count).toBe(1);
    const moved = await app.call('PATCH', `${SPM_URL}/project/${created.id}/status`, admin, { status: false });
    expect(moved.statusCode).toBe(200);
    expect((await listTotal(admin, { status: true })).count).toBe(before.enabled.count);
    expect((await listTotal(admin, { status: false, name: { like: 'Plant' } })).count).toBe(1);
    const deleted = await app.call('DELETE', `${SPM_URL}/project/${created.id}`, admin);
    expect(deleted.statusCode).toBe(200);
    expect((await listTotal(admin)).count).toBe(before.all.count);
    expect((await listTotal(admin, { name: { like: '^Plant' } })).count).toBe(0);
    expect(await listTotal(tenant)).toEqual(before.mine);
    expect(await mismatches(app)).toEqual([]);
  });
});

describe(`project list totals under load (${ENGINE})`, () => {
  let app: TestApp;
  let admin: string;
  beforeEach(async () => {
    app = await createTestApp();
    admin = await adminWithLicence(app);
  });
  afterEach(() => app.close());

  it('counts a filter once for many concurrent requests, and again only after a write', async () => {
    await run(
      app,
      sql`insert into projects (id, name, user_id) select 'p' || g, 'plant ' || g, 'admin' from generate_series(1, 300) g`,
    );
    const query = encodeURIComponent(
      JSON.stringify({ withCount: true, limit: 1, filter: { name: { like: 'plant 1' } } }),
    );
    const burst = () =>
      Promise.all(Array.from({ length: 30 }, () => app.call('GET', `${SPM_URL}/project?query=${query}`, admin)));
    calls.capped = 0;
    const answers = await burst();
    expect(new Set(answers.map((a) => a.headers.count))).toEqual(new Set(['111']));
    expect(calls.capped).toBe(1);
    await createProject(app, admin, { name: 'plant 1000' });
    const after = await burst();
    expect(new Set(after.map((a) => a.headers.count))).toEqual(new Set(['112']));
    expect(calls.capped).toBe(2);
  });
});
