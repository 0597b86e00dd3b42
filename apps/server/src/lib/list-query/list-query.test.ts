import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AppError } from '../app-error.js';
import {
  isInvalidRegexError,
  type ListQuery,
  MAX_SKIP,
  mapQueryError,
  parseCountQuery,
  parseListQuery,
  selectFields,
} from './list-query.js';
import { fileTestDatabase, type Item, type ItemField, itemResource, items, reasonOf } from './test-fixture.js';

const ROWS: Item[] = [
  { id: 1, s: 'b', n: 2, b: true },
  { id: 2, s: 'a', n: 1, b: false },
  { id: 3, s: 'b', n: 1, b: null },
  { id: 4, s: null, n: 2, b: true },
  { id: 5, s: 'a', n: null, b: true },
];

const handle = fileTestDatabase(ROWS);

const parse = (query: unknown) =>
  parseListQuery(typeof query === 'string' ? query : JSON.stringify(query), itemResource);

async function run(query: ListQuery<ItemField>): Promise<number[]> {
  const rows = await handle.db
    .select({ id: items.id })
    .from(items)
    .where(query.where)
    .orderBy(...query.orderBy)
    .limit(query.limit)
    .offset(query.offset);
  return rows.map((row) => row.id);
}

function count(raw: unknown): Promise<number> {
  return handle.db.$count(items, parseCountQuery(raw, itemResource));
}

describe('list query', () => {
  it('has defaults: resource sort, id tie-breaker, default limit, every field', async () => {
    for (const raw of [undefined, '', 'null', '{}', {}]) {
      const query = parseListQuery(raw, itemResource);
      expect(query).toMatchObject({ where: undefined, limit: 10, offset: 0, fields: undefined, withCount: false });
      // Default sort n descending: NULL first, then ties broken by id in the same direction.
      expect(await run(query)).toEqual([5, 4, 1, 3, 2]);
    }
  });

  it('sorts by several keys in order, NULL last ascending, and appends the id', async () => {
    expect(await run(parse({ sort: { s: 1, n: -1 } }))).toEqual([5, 2, 1, 3, 4]);
    expect(await run(parse({ sort: { b: -1 } }))).toEqual([3, 5, 4, 1, 2]);
    expect(await run(parse({ sort: { b: 1 } }))).toEqual([2, 1, 4, 5, 3]);
    expect(await run(parse({ sort: { id: -1, s: 1 } }))).toEqual([5, 4, 3, 2, 1]);
    expect(parse({ sort: { id: -1 } }).orderBy).toHaveLength(1);
    expect(parse({ sort: { s: 1 } }).orderBy).toHaveLength(2);
  });

  it('pages with skip and limit', async () => {
    expect(await run(parse({ sort: { id: 1 }, skip: 1, limit: 2 }))).toEqual([2, 3]);
    expect(await run(parse({ sort: { id: 1 }, skip: 4 }))).toEqual([5]);
    expect(parse({ limit: 500 }).limit).toBe(50);
    expect(parse({ limit: 0 }).limit).toBe(50);
    expect(parse({ limit: 7, skip: 3 })).toMatchObject({ limit: 7, offset: 3 });
    expect(parse({ skip: 1e12 }).offset).toBe(MAX_SKIP);
  });

  it('projects the fields asked for, the id always, in declaration order', () => {
    expect(parse({ project: ['n', 's'] }).fields).toEqual(['id', 's', 'n']);
    expect(parse({ project: { 's.length': 1, b: true } }).fields).toEqual(['id', 's.length', 'b']);
    expect(parse({ fields: ['id', 'id'] }).fields).toEqual(['id']);
    expect(parse({ project: [] }).fields).toBeUndefined();
    expect(parse({ project: {} }).fields).toBeUndefined();
    expect(Object.keys(selectFields(itemResource, ['id', 'j']))).toEqual(['id', 'j']);
    expect(Object.keys(selectFields(itemResource, undefined))).toEqual(Object.keys(itemResource.fields));
  });

  it('reads withCount and the filter', async () => {
    const query = parse({ withCount: true, filter: { n: 1 }, sort: { id: 1 } });
    expect(query.withCount).toBe(true);
    expect(await run(query)).toEqual([2, 3]);
    expect(await run(parse({ filter: null, sort: { id: 1 } }))).toEqual([1, 2, 3, 4, 5]);
  });

  it.each<[unknown, string]>([
    ['{"sort": ', 'the query is not valid JSON'],
    ['[]', 'the query must be a JSON object'],
    ['"text"', 'the query must be a JSON object'],
    [['{}', '{}'], 'the query must be a JSON object'],
    [{ where: {} }, "unknown query key 'where'"],
    [{ project: ['s'], fields: ['n'] }, "give 'project' or 'fields', not both"],
    [{ sort: { foo: 1 } }, "unknown field 'foo' in sort"],
    [{ sort: { j: 1 } }, "field 'j' cannot be sorted"],
    [{ sort: { s: 2 } }, "sort direction of 's' must be 1 or -1"],
    [{ sort: { s: 'asc' } }, "sort direction of 's' must be 1 or -1"],
    [{ sort: ['s'] }, 'sort must be an object like {"field": 1}'],
    [{ skip: -1 }, 'skip must be a non-negative integer'],
    [{ skip: '10' }, 'skip must be a non-negative integer'],
    [{ limit: 1.5 }, 'limit must be a non-negative integer'],
    ['{"limit": 1e400}', 'limit must be a non-negative integer'],
    [{ project: ['nope'] }, "unknown field 'nope' in project"],
    [{ project: [1] }, 'project must list field names'],
    [{ project: { s: 0 } }, "project takes fields to include: set 's' to 1"],
    [{ project: 's' }, 'project must be an array of field names or an object like {"field": 1}'],
    [{ withCount: 'yes' }, 'withCount must be true or false'],
    [{ filter: { foo: 1 } }, "unknown field 'foo'"],
    [{ filter: [] }, 'a filter must be a JSON object'],
    ['{"filter": {"n": 1e400}}', "'eq' on field 'n' needs a number"],
  ])('refuses %j: %s', (raw, reason) => {
    expect(
      reasonOf(() =>
        parseListQuery(typeof raw === 'string' || Array.isArray(raw) ? raw : JSON.stringify(raw), itemResource),
      ),
    ).toBe(reason);
  });
});

describe('count query', () => {
  it('takes the filter itself, or a list query with a filter', async () => {
    expect(await count(undefined)).toBe(5);
    expect(await count('{"n": 1}')).toBe(2);
    expect(await count('{"filter": {"n": 1}}')).toBe(2);
    expect(await count('{"filter": {"n": 1}, "limit": 1, "sort": {"id": 1}}')).toBe(2);
    expect(await count('{"$or": [{"n": 1}, {"s": null}]}')).toBe(3);
  });

  it('refuses what a list filter refuses', () => {
    expect(reasonOf(() => parseCountQuery('{"foo": 1}', itemResource))).toBe("unknown field 'foo'");
    expect(reasonOf(() => parseCountQuery('{"filter": {"n": 1}, "foo": 1}', itemResource))).toBe(
      "unknown field 'filter'",
    );
    expect(reasonOf(() => parseCountQuery('{"filter": {"n": "x"}}', itemResource))).toBe(
      "'eq' on field 'n' needs a number",
    );
  });
});

describe('query errors', () => {
  it('refuses an invalid pattern itself, and still maps the database refusing one to badQuery', async () => {
    expect(reasonOf(() => parse({ filter: { s: { like: 'a(' } } }))).toContain("unclosed group: '(' without ')'");
    expect(reasonOf(() => parse({ filter: { id: 0, s: { like: '*' } } }))).toContain("a repetition '*' must follow");
    // Defence in depth: a pattern PostgreSQL cannot compile (none reaches it through `like`).
    const error = await handle.db.execute(sql`select 'a' ~* ${'a('}::text`).catch((caught: unknown) => caught);
    expect(isInvalidRegexError(error)).toBe(true);
    const mapped = mapQueryError(error);
    expect(mapped).toBeInstanceOf(AppError);
    expect((mapped as AppError).code).toBe('badQuery');
    expect((mapped as AppError).options.params?.reason).toMatch(/^invalid regular expression: /);
  });

  it('leaves other errors alone', () => {
    const other = Object.assign(new Error('boom'), { code: '23505' });
    expect(mapQueryError(other)).toBe(other);
    expect(isInvalidRegexError(other)).toBe(false);
    expect(isInvalidRegexError({ cause: { code: '2201B' } })).toBe(true);
    expect(mapQueryError('x')).toBe('x');
  });
});
