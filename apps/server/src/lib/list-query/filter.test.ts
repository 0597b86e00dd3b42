import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter.js';
import { matchesFilter } from './reference.js';
import { fileTestDatabase, type Item, itemResource, items, itemTypes, reasonOf, referenceRow } from './test-fixture.js';

const ROWS: Item[] = [
  { id: 1, s: 'Apple', n: 1, b: true, d: new Date('2024-01-01T00:00:00Z'), j: { a: 1 } },
  { id: 2, s: 'banana', n: 2, b: false, d: new Date('2024-06-01T12:00:00Z'), j: [1, 2] },
  { id: 3, s: 'Cherry', n: null, b: null, d: null, j: null },
  { id: 4, s: null, n: 3, b: true, d: new Date('2025-01-01T00:00:00Z'), j: 'x' },
  { id: 5, s: 'apple pie', n: -1, b: false, d: new Date('2023-12-31T23:00:00Z'), j: { b: 2, a: 1 } },
];
const ALL = [1, 2, 3, 4, 5];

const handle = fileTestDatabase(ROWS);

/** Ids of the rows the filter keeps in the database, checked against the reference evaluator. */
async function ids(filter: unknown): Promise<number[]> {
  const rows = await handle.db
    .select({ id: items.id })
    .from(items)
    .where(parseFilter(filter, itemResource))
    .orderBy(items.id);
  const found = rows.map((row) => row.id);
  const expected = ROWS.map(referenceRow)
    .filter((row) => matchesFilter(row, filter, itemTypes))
    .map((row) => row.id);
  expect(found, 'database and reference evaluator').toEqual(expected);
  return found;
}

describe(`filter operators (${process.env.GANTRY_TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it.each<[string, unknown, number[]]>([
    ['plain value is eq', { s: 'Apple' }, [1]],
    ['eq is case-sensitive', { s: { eq: 'apple' } }, []],
    ['eq null is IS NULL', { n: null }, [3]],
    ['$eq null', { s: { $eq: null } }, [4]],
    ['ne keeps NULL fields', { s: { ne: 'Apple' } }, [2, 3, 4, 5]],
    ['ne null', { n: { ne: null } }, [1, 2, 4, 5]],
    ['gt never matches NULL', { n: { gt: 1 } }, [2, 4]],
    ['several operators are ANDed', { n: { gte: 1, $lt: 3 } }, [1, 2]],
    ['lte with a fraction', { n: { lte: 1.5 } }, [1, 5]],
    ['number beyond bigint', { n: { lt: 1e20, gt: -1e20 } }, [1, 2, 4, 5]],
    ['in', { n: { in: [1, 3] } }, [1, 4]],
    ['in with null', { n: { in: [null, 1] } }, [1, 3]],
    ['in []', { n: { in: [] } }, []],
    ['nin keeps NULL fields', { n: { nin: [1, 3] } }, [2, 3, 5]],
    ['nin with null', { n: { $nin: [1, null] } }, [2, 4, 5]],
    ['nin []', { n: { nin: [] } }, ALL],
    ['in on text with quotes and braces', { s: { in: ['banana', 'x"},{\\'] } }, [2]],
    ['like is a case-insensitive regex', { s: { like: '^apple' } }, [1, 5]],
    ['$like', { s: { $like: 'PIE$' } }, [5]],
    ['like with .', { s: { like: 'b.n' } }, [2]],
    ['field-level not keeps NULL fields', { s: { not: { like: 'an' } } }, [1, 3, 4, 5]],
    ['not of gt keeps NULL fields', { n: { not: { gt: 1 } } }, [1, 3, 5]],
    ['not of not', { n: { not: { $not: { gt: 1 } } } }, [2, 4]],
    ['or', { or: [{ n: 1 }, { s: 'banana' }] }, [1, 2]],
    ['$nor', { $nor: [{ n: 1 }, { s: null }] }, [2, 3, 5]],
    ['not', { not: { b: true } }, [2, 3, 5]],
    ['and', { and: [{ b: true }, { n: { gt: 1 } }] }, [4]],
    ['logical beside fields', { b: false, $or: [{ n: -1 }, { s: 'Cherry' }] }, [5]],
    ['not of or', { not: { or: [{ n: { in: [1, 2] } }, { s: { like: 'e' } }] } }, [4]],
    ['empty and', { and: [] }, ALL],
    ['empty or', { or: [] }, []],
    ['empty nor', { nor: [] }, ALL],
    ['empty filter', {}, ALL],
    ['boolean', { b: false }, [2, 5]],
    ['boolean order', { b: { gt: false } }, [1, 4]],
    ['date from ISO date', { d: { gte: '2024-01-01' } }, [1, 2, 4]],
    ['date from epoch ms', { d: { lt: Date.UTC(2024, 0, 1) } }, [5]],
    ['date with offset', { d: { gt: '2024-01-01T01:00:00+02:00' } }, [1, 2, 4]],
    ['date without offset is UTC', { d: '2024-01-01T00:00' }, [1]],
    ['date in', { d: { in: ['2024-01-01T00:00:00.000Z', Date.UTC(2025, 0, 1)] } }, [1, 4]],
    ['json object, keys in any order', { j: { eq: { a: 1, b: 2 } } }, [5]],
    ['json array', { j: [1, 2] }, [2]],
    ['json string', { j: 'x' }, [4]],
    ['json ne', { j: { ne: { a: 1 } } }, [2, 3, 4, 5]],
    ['dotted name bound to an expression', { 's.length': { gte: 6 } }, [2, 3, 5]],
  ])('%s', async (_name, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('binds every value as a parameter', async () => {
    const evil = "x' or 1=1; drop table list_query_items; --";
    const where = parseFilter({ s: evil, or: [{ s: { like: evil } }, { s: { in: [evil] } }] }, itemResource);
    const query = new PgDialect().sqlToQuery(where ?? sql`true`);
    expect(query.sql).not.toContain('drop');
    expect(query.params).toContain(evil);
    expect(await ids({ s: evil })).toEqual([]);
  });
});

describe('filter refusals', () => {
  const hidden = {
    ...itemResource,
    fields: { ...itemResource.fields, hidden: { sql: items.s, type: 'string' as const, filter: false } },
  };
  const nested = (depth: number): unknown => (depth === 1 ? { n: 1 } : { not: nested(depth - 1) });

  it.each<[unknown, string]>([
    [{ foo: 1 }, "unknown field 'foo'"],
    [{ constructor: 1 }, "unknown field 'constructor'"],
    [JSON.parse('{"__proto__": {"n": 1}}'), "unknown field '__proto__'"],
    [{ ['x'.repeat(100)]: 1 }, `unknown field '${'x'.repeat(40)}…'`],
    [{ s: { regex: 'x' } }, "unknown operator 'regex' on field 's'"],
    [{ $where: 'x' }, "unknown operator '$where'"],
    [{ eq: 1 }, "unknown field 'eq'"],
    [{ n: 'x' }, "'eq' on field 'n' needs a number"],
    [{ n: { gt: null } }, "'gt' on field 'n' needs a number"],
    [{ s: { gte: 1 } }, "'gte' on field 's' needs a string"],
    [{ b: 'true' }, "'eq' on field 'b' needs true or false"],
    [{ d: '2024-02-30' }, "'eq' on field 'd' needs a date"],
    [{ d: { lt: 'yesterday' } }, "'lt' on field 'd' needs a date"],
    [{ d: { gt: 1.5 } }, "'gt' on field 'd' needs a date"],
    [{ d: '10000-01-01' }, "'eq' on field 'd' needs a date"],
    [{ d: '2024-01-01T24:00:00Z' }, "'eq' on field 'd' needs a date"],
    [{ n: { like: 'x' } }, "operator 'like' does not apply to number field 'n'"],
    [{ s: { like: 5 } }, "'like' on field 's' needs a regular expression string"],
    [{ s: { like: 'a'.repeat(201) } }, "'like' on field 's': pattern longer than 200 characters"],
    [{ j: { gt: 1 } }, "operator 'gt' does not apply to json field 'j'"],
    [{ j: { in: [1] } }, "operator 'in' does not apply to json field 'j'"],
    [{ n: { in: 5 } }, "'in' on field 'n' needs an array"],
    [{ n: { nin: [1, 'x'] } }, "'nin' on field 'n' needs a number"],
    [{ n: { in: new Array(1001).fill(1) } }, "'in' on field 'n' has more than 1000 items"],
    [{ or: new Array(1001).fill({}) }, "'or' has more than 1000 items"],
    [{ and: {} }, "'and' needs an array of filters"],
    [{ or: [1] }, 'a filter must be a JSON object'],
    [{ not: [] }, 'a filter must be a JSON object'],
    [{ s: { not: 'x' } }, "'not' on field 's' needs operators"],
    [{ s: {} }, "no operator given for field 's'"],
    [nested(9), 'the filter is nested deeper than 8 levels'],
    [
      { s: { not: { not: { not: { not: { not: { not: { not: { not: { eq: 'x' } } } } } } } } } },
      'nested deeper than 8',
    ],
    [{ or: new Array(101).fill({ n: 1 }) }, 'the filter has more than 100 conditions'],
    [{ s: 'a\u0000' }, "'eq' on field 's': text must not contain U+0000"],
    [{ s: { like: '\ud800' } }, "'like' on field 's': text is not well-formed Unicode"],
    [{ j: { a: { 'b\u0000': 1 } } }, "unknown operator 'a' on field 'j'"],
    [{ j: { eq: { 'b\u0000': 1 } } }, "'eq' on field 'j': text must not contain U+0000"],
    [{ hidden: 'x' }, "field 'hidden' cannot be filtered"],
    [[], 'a filter must be a JSON object'],
    ['x', 'a filter must be a JSON object'],
  ])('%j → %s', (filter, reason) => {
    expect(reasonOf(() => parseFilter(filter, hidden))).toContain(reason);
  });

  it('allows the limits themselves', () => {
    expect(parseFilter(nested(8), itemResource)).toBeDefined();
    expect(parseFilter({ or: new Array(100).fill({ n: 1 }) }, itemResource)).toBeDefined();
    expect(parseFilter({ n: { in: new Array(1000).fill(1) } }, itemResource)).toBeDefined();
    expect(parseFilter({ s: { like: 'a'.repeat(200) } }, itemResource)).toBeDefined();
  });
});
