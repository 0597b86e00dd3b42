/**
 * On PostgreSQL the project list's page is built by the database (`renderedProjectView`); on the
 * embedded engine it is `projectViewOf`'s items serialised without zod's response check; single
 * projects go through `projectViewOf` and the check. Over generated rows (hand-made ones too: keys
 * no schema lists inside every JSON column, partial `advanced`, microsecond timestamps, grants
 * ending past year 9999), both pages equal what the presenter and the response check answered for
 * the same rows, with any projection, and carry no key `projectView` does not list.
 */
import { dateOfDay, type ProjectView, PUBLIC_DIR_PERMISSIONS, projectView } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { projects, users } from '../../db/schema.js';
import { unlistedKeys } from '../../lib/json-view.js';
import { parseListQuery } from '../../lib/list-query/list-query.js';
import { projected } from '../../lib/list-response.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { projectViewOf, renderedProjectView } from './project.presenter.js';
import { PROJECT_RESOURCE, ProjectRepository } from './project.repository.js';

let app: TestApp;
let repo: ProjectRepository;
const OWNERS = ['o1', 'o2'];
beforeAll(async () => {
  app = await createTestApp();
  repo = new ProjectRepository(app.database.db);
  await app.database.db
    .insert(users)
    .values(OWNERS.map((id, i) => ({ id, name: i === 0 ? 'Owner "one" \\ 一' : 'o2', isAdmin: false })));
});
afterAll(() => app.close());

/** Text PostgreSQL stores (no U+0000), any other code point. */
const text = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replaceAll('\u0000', ''));
/** JSON as the API would have stored it (what JSON.parse then JSON.stringify keep). */
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
const jsonRecord = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 }).map(roundTrip);
/** Keys no schema lists, added to stored documents (a hand edit, an older version). */
const unlisted = fc.dictionary(fc.constantFrom('secret', 'internal', 'x_y'), json, { maxKeys: 2 }).map(roundTrip);
const count = fc.integer({ min: 1, max: 9_999_999 });
/** Absent, null or a count: the grant's optional measures. */
const optionalCount = fc.option(fc.option(count, { nil: null }), { nil: undefined });
const day = fc.integer({ min: 0, max: 2_932_896 }).map((n) => dateOfDay(n - 719_162)); // 0001-01-01 … 9999-12-31

const grant = fc
  .record(
    {
      validityPeriod: count,
      startTime: day,
      userCount: count,
      flow: fc.record({ tableCount: count, flowCount: optionalCount }, { requiredKeys: ['tableCount'] }),
      dataGathering: fc.record({ point: optionalCount, calcPoint: optionalCount, deviceCount: optionalCount }),
      visual: fc.record({ dashboardCount: optionalCount }),
      eventCount: optionalCount,
      reportCount: optionalCount,
      features: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
      more: unlisted,
    },
    { requiredKeys: ['validityPeriod', 'startTime', 'userCount', 'flow', 'features'] },
  )
  .map(({ more, ...g }) => JSON.parse(JSON.stringify({ ...more, ...g })) as Record<string, unknown>);

const stat = fc
  .record({ type: fc.string({ maxLength: 8 }), count: fc.nat(), online: fc.nat(), more: unlisted })
  .map(({ more, ...s }) => ({ ...more, ...s }));
const advanced = fc
  .record(
    {
      mediaLibraryPublicDirEnable: fc.boolean(),
      mediaLibraryPublicDirFeature: fc.subarray([...PUBLIC_DIR_PERMISSIONS]),
      more: unlisted,
    },
    { requiredKeys: [] },
  )
  .map(({ more, ...a }) => ({ ...more, ...a }));
/** An instant with microseconds (node-postgres keeps milliseconds). */
const instant = fc.record({
  ms: fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(9999, 11, 31) }),
  micro: fc.integer({ min: 0, max: 999 }),
});

const row = fc.record({
  name: text,
  status: fc.boolean(),
  userId: fc.constantFrom(...OWNERS),
  industry: fc.option(text, { nil: null }),
  grant: fc.option(grant, { nil: null }),
  projectType: fc.constantFrom('blank', 'template'),
  templateId: fc.option(text, { nil: null }),
  hasSso: fc.boolean(),
  remarks: fc.option(text, { nil: null }),
  bgColor: fc.option(fc.constantFrom('#abc', '#00ff00'), { nil: null }),
  domain: fc.option(fc.constant('example.com'), { nil: null }),
  isUseDomain: fc.boolean(),
  isUseHttps: fc.boolean(),
  hasPort: fc.boolean(),
  advanced,
  planId: fc.option(text, { nil: null }),
  logo: fc.option(text, { nil: null }),
  extra: jsonRecord,
  certKey: fc.option(fc.constantFrom('', 'a.key'), { nil: null }),
  certPem: fc.option(fc.constantFrom('', 'a.pem'), { nil: null }),
  usage: fc.option(jsonRecord, { nil: null }),
  stats: fc.array(stat, { maxLength: 3 }),
  online: fc.boolean(),
  usageReportedAt: fc.option(instant, { nil: null }),
  createdAt: instant,
});

const timestamp = ({ ms, micro }: { ms: number; micro: number }) =>
  sql`${new Date(ms).toISOString()}::timestamptz + make_interval(secs => ${micro} / 1000000.0)`;

const FIELDS = Object.keys(PROJECT_RESOURCE.fields);
/** What the list answered before: each row through the presenter, projected, then zod's response check (`encode`). */
function presented(rows: ProjectView[], fields: string[] | undefined): unknown {
  const items = fields
    ? rows.map((item) => Object.fromEntries(Object.entries(item).filter(([k]) => k === 'id' || fields.includes(k))))
    : rows;
  return JSON.parse(JSON.stringify(z.encode(z.array(projectView.partial()), items)));
}

let serial = 0;
describe('the project list built by the database', () => {
  it('equals the presenter after the response check, for any rows, projection and day', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 6 }),
        fc.option(fc.subarray(FIELDS, { minLength: 1 }), { nil: undefined }),
        day,
        async (rows, fields, today) => {
          const db = app.database.db;
          await db.delete(projects);
          for (const { hasPort, createdAt, usageReportedAt, domain, ...r } of rows) {
            serial += 1;
            await db.insert(projects).values({
              ...r,
              id: `p${serial}`,
              port: hasPort ? serial % 60_000 : null,
              domain: domain && `${serial}.${domain}`,
              domainKey: domain && `${serial}.${domain}`,
              grant: r.grant as never,
              stats: r.stats as never,
              usage: r.usage as never,
              createdAt: timestamp(createdAt) as never,
              usageReportedAt: (usageReportedAt && timestamp(usageReportedAt)) as never,
            });
          }
          const query = parseListQuery({ limit: 0, ...(fields ? { project: fields } : {}) }, PROJECT_RESOURCE);
          const page = JSON.parse((await repo.listJson(query, undefined, renderedProjectView(today, fields))).json);

          const ids = (page as Array<{ id: string }>).map((item) => item.id);
          const found = await Promise.all(ids.map((id) => repo.find(id)));
          const views = found.map((one) => {
            if (!one) throw new Error('a listed project is gone');
            return projectViewOf(one, today);
          });
          expect(ids).toHaveLength(rows.length);
          // The embedded engine's rows, read without drizzle's mapping, are the rows drizzle maps.
          expect((await repo.list(query, undefined)).rows).toEqual(found);
          expect(page).toEqual(presented(views, fields));
          for (const item of page as unknown[]) expect(unlistedKeys(projectView, item)).toEqual([]);
          // The embedded engine's page: the presenter's items serialised as they are, no response check.
          expect(JSON.parse(JSON.stringify(projected(views, fields)))).toEqual(presented(views, fields));
          for (const item of views) expect(unlistedKeys(projectView, item)).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps the list order of the sort, and answers an empty page as []', async () => {
    const db = app.database.db;
    await db.delete(projects);
    const today = '2026-01-01';
    expect(
      (await repo.listJson(parseListQuery({}, PROJECT_RESOURCE), undefined, renderedProjectView(today))).json,
    ).toBe('[]');
    for (const [i, name] of ['b', 'c', 'a'].entries()) {
      await db
        .insert(projects)
        .values({ id: `s${i}`, name, userId: 'o1', createdAt: new Date(Date.UTC(2026, 0, i + 1)) });
    }
    const names = async (sort: unknown) =>
      (
        JSON.parse(
          (await repo.listJson(parseListQuery({ sort }, PROJECT_RESOURCE), undefined, renderedProjectView(today))).json,
        ) as Array<{ name: string }>
      ).map((item) => item.name);
    expect(await names({ name: 1 })).toEqual(['a', 'b', 'c']);
    expect(await names({ name: -1 })).toEqual(['c', 'b', 'a']);
    expect(await names(undefined)).toEqual(['a', 'c', 'b']);
  });
});

describe('unlistedKeys', () => {
  it('names every key the schema does not list, at any depth, and none of a record', () => {
    const view = {
      ...({} as Record<string, unknown>),
      id: 'p',
      secret: 1,
      user: { id: 'o', name: 'n', password: 'x' },
      grant: { startTime: '2026-01-01', flow: { tableCount: 1, hidden: true } },
      _stats_: [{ type: 'device', count: 1, online: 0, token: 't' }],
      extra: { anything: { goes: 1 } },
    };
    expect(unlistedKeys(projectView, view).sort()).toEqual([
      '$._stats_[0].token',
      '$.grant.flow.hidden',
      '$.secret',
      '$.user.password',
    ]);
  });
});
