/**
 * Property tests on a real database: random rows and random well-formed queries give exactly what
 * the reference evaluator gives (same ids, same order), and random malformed queries give nothing
 * but badQuery (never a 5xx).
 *
 * Text: the test resource compares `s` in the "C" collation (byte order, ASCII-only case folding),
 * which the reference reproduces; strings mix ASCII case variants, non-ASCII letters, an astral
 * character and regex metacharacters. `like` patterns are random patterns of the safe subset
 * (like-pattern.ts), on which PostgreSQL and JavaScript regular expressions agree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../app-error.js';
import { mapQueryError, parseCountQuery, parseListQuery, selectFields } from './list-query.js';
import { compareRows, matchesFilter, type Row } from './reference.js';
import {
  fileTestDatabase,
  type Item,
  type ItemField,
  itemResource,
  items,
  itemTypes,
  referenceRow,
} from './test-fixture.js';
import type { FieldType, SortDirection } from './types.js';

const handle = fileTestDatabase();

const FIELDS = Object.keys(itemResource.fields) as ItemField[];
const SORTABLE = FIELDS.filter((field) => itemResource.fields[field].sort);

const TEXT_UNITS = [
  'a',
  'A',
  'b',
  'B',
  'z',
  'é',
  'É',
  'ß',
  '😀',
  '.',
  '^',
  '$',
  '\\',
  '"',
  ',',
  '{',
  '}',
  '(',
  '*',
  ' ',
  '\n',
];
/** Mostly case variants of two letters (so that values collide), sometimes anything of TEXT_UNITS. */
const text = (maxLength: number) =>
  fc.oneof(
    { arbitrary: fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B'), maxLength }), weight: 2 },
    fc.string({ unit: fc.constantFrom(...TEXT_UNITS), maxLength }),
  );

const INSTANTS = [
  0,
  Date.UTC(2024, 0, 1),
  Date.UTC(2024, 0, 1, 0, 0, 0, 1),
  Date.UTC(2024, 0, 1, 1),
  Date.UTC(2024, 5, 1, 12),
  Date.UTC(9999, 11, 31, 23, 59, 59, 999),
];
const JSON_VALUES: unknown[] = [{ a: 1 }, { a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, [1, 2], [2, 1], 'x', 3, true, {}];

/**
 * Values inside documents, of mixed JSON types. Strings only of lowercase letters and digits: jsonb
 * orders strings by the database's collation, on which every collation agrees for these.
 */
const documentValue = fc.oneof(
  fc.constantFrom('a', 'b', 'ab', '1', ''),
  fc.integer({ min: -2, max: 2 }),
  fc.constant(0.5),
  fc.boolean(),
);

const rowsArb = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: -40, max: 40 }),
      s: fc.option(text(4), { freq: 3 }),
      n: fc.option(fc.integer({ min: -3, max: 3 }), { freq: 3 }),
      b: fc.option(fc.boolean(), { freq: 3 }),
      d: fc.option(fc.constantFrom(...INSTANTS), { freq: 3 }),
      j: fc.option(fc.constantFrom(...JSON_VALUES), { freq: 3 }),
      v: fc.option(documentValue, { freq: 3 }),
    }),
    { selector: (row) => row.id, minLength: 2, maxLength: 25 },
  )
  .map((rows): Item[] => rows.map((row) => ({ ...row, d: row.d === null ? null : new Date(row.d) })));

/** A date filter value in each accepted form. */
const dateValue = fc
  .tuple(fc.constantFrom(...INSTANTS), fc.constantFrom('ms', 'iso', 'offset', 'no offset', 'date only'))
  .map(([ms, form]) => {
    const iso = new Date(ms).toISOString();
    if (form === 'ms') return ms;
    if (form === 'iso') return iso;
    if (form === 'offset') return new Date(ms - 2 * 3_600_000).toISOString().replace('Z', '-02:00');
    return form === 'no offset' ? iso.slice(0, -1) : iso.slice(0, 10);
  });

const VALUES: Record<ItemField, fc.Arbitrary<unknown>> = {
  id: fc.integer({ min: -40, max: 40 }),
  s: text(2),
  's.length': fc.integer({ min: 0, max: 5 }),
  n: fc.oneof(fc.integer({ min: -4, max: 4 }), fc.constantFrom(1.5, -0.5, 2 ** 53 + 2, 1e20, -1e20)),
  b: fc.boolean(),
  d: dateValue,
  j: fc.constantFrom(...JSON_VALUES),
  v: documentValue,
};

const escapeRegex = (literal: string) => literal.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
/**
 * Patterns of the `like` subset (like-pattern.ts): escaped literals, `.`, classes with the allowed
 * ranges, `* + ?` on one of those, `^` `$`, and `|` at the top level and in one level of groups.
 */
const escapeInClass = (char: string) => char.replace(/[\\\][^-]/g, '\\$&');
const classArb = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.oneof(
        fc.constantFrom(...TEXT_UNITS, '-', ']', '[').map(escapeInClass),
        fc.constantFrom('a-b', 'A-B', 'a-z', 'A-Z', '0-9', 'b-b', 'é-ü', 'ß-😀'),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`);
const literalChar = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'A', 'b', 'B'), weight: 2 },
  fc.constantFrom(...TEXT_UNITS),
);
const atomArb = fc.oneof({ arbitrary: literalChar.map(escapeRegex), weight: 4 }, fc.constant('.'), {
  arbitrary: classArb,
  weight: 2,
});
const repeated = fc
  .tuple(atomArb, fc.option(fc.constantFrom('*', '+', '?'), { freq: 3 }))
  .map(([atom, quantifier]) => `${atom}${quantifier ?? ''}`);
const anchor = fc.constantFrom('^', '$');
const groupArb = fc
  .array(fc.array(fc.oneof({ arbitrary: repeated, weight: 4 }, anchor), { maxLength: 2 }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((alternatives) => `(${alternatives.map((items) => items.join('')).join('|')})`);
const sequenceArb = fc
  .array(fc.oneof({ arbitrary: repeated, weight: 4 }, groupArb), { maxLength: 3 })
  .map((items) => items.join(''));
const pattern = fc
  .tuple(fc.boolean(), fc.array(sequenceArb, { minLength: 1, maxLength: 2 }), fc.boolean())
  .map(([start, alternatives, end]) => `${start ? '^' : ''}${alternatives.join('|')}${end ? '$' : ''}`);

const ORDER_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'];
const OPS: Record<FieldType, string[]> = {
  // like weighs more: it is the operator with the most ways to disagree.
  string: [...ORDER_OPS, 'like', 'like', 'like'],
  number: ORDER_OPS,
  boolean: ORDER_OPS,
  date: ORDER_OPS,
  json: ['eq', 'ne'],
  document: [...ORDER_OPS, 'like'],
};

const withDollar = (op: string) => fc.constantFrom(op, `$${op}`);

function operand(op: string, field: ItemField): fc.Arbitrary<unknown> {
  const value = VALUES[field];
  if (op === 'eq' || op === 'ne') return fc.option(value, { freq: 4 });
  if (op === 'in' || op === 'nin') return fc.array(fc.option(value, { freq: 5 }), { maxLength: 4 });
  return op === 'like' ? pattern : value;
}

/** `{op: value, ...}` on one field, with field-level `not` down to `depth` levels. */
function operators(field: ItemField, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const entry = fc.constantFrom(...OPS[itemTypes[field]]).chain((op) => fc.tuple(withDollar(op), operand(op, field)));
  const entries: fc.Arbitrary<[string, unknown]> =
    depth === 0
      ? entry
      : fc.oneof({ arbitrary: entry, weight: 4 }, fc.tuple(withDollar('not'), operators(field, depth - 1)));
  return fc.array(entries, { minLength: 1, maxLength: 2 }).map((list) => Object.fromEntries(list));
}

/** A plain value is eq; a json field's plain value must not be an object (that means operators). */
const condition = (field: ItemField) =>
  fc.oneof(
    itemTypes[field] === 'json'
      ? VALUES[field].filter((value) => typeof value !== 'object' || Array.isArray(value))
      : fc.option(VALUES[field], { freq: 4 }),
    operators(field, 2),
  );

/** Text, with the most ways to go wrong, is picked more often. */
const fieldEntry = fc
  .oneof(fc.constantFrom(...FIELDS), fc.constant<ItemField>('s'))
  .chain((field) => condition(field).map((value): [string, unknown] => [field, value]));

/** Mostly field conditions: nested logic quickly keeps all rows or none, which tests little. */
const { filter: filterArb } = fc.letrec<{ filter: Record<string, unknown>; entry: [string, unknown] }>((tie) => ({
  filter: fc.array(tie('entry'), { minLength: 1, maxLength: 2 }).map((entries) => Object.fromEntries(entries)),
  entry: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'filter' },
    { arbitrary: fieldEntry, weight: 4 },
    fc.tuple(fc.constantFrom('and', '$and', 'or', '$or', 'nor', '$nor'), fc.array(tie('filter'), { maxLength: 3 })),
    fc.tuple(withDollar('not'), tie('filter')),
  ),
}));

const sortArb = fc
  .tuple(
    fc.shuffledSubarray(SORTABLE),
    fc.array(fc.constantFrom<SortDirection>(1, -1), { minLength: SORTABLE.length, maxLength: SORTABLE.length }),
  )
  .map(([fields, directions]) =>
    Object.fromEntries(fields.map((field, i): [string, SortDirection] => [field, directions[i] ?? 1])),
  );

interface Query {
  filter?: Record<string, unknown>;
  sort?: Record<string, SortDirection>;
  skip?: number;
  limit?: number;
  project?: string[] | Record<string, 1>;
  withCount?: boolean;
}

const queryArb: fc.Arbitrary<Query> = fc.record(
  {
    filter: filterArb,
    sort: sortArb,
    skip: fc.nat(30),
    limit: fc.nat(60),
    project: fc.oneof(
      fc.subarray(FIELDS),
      fc.subarray(FIELDS).map((names) => Object.fromEntries(names.map((name): [string, 1] => [name, 1]))),
    ),
    withCount: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** The query's rows by the reference rules: filter, sort (+ id), skip, limit. */
function expectedIds(rows: Row[], query: Query): unknown[] {
  const given = Object.entries(query.sort ?? {});
  const keys = given.length > 0 ? given : (Object.entries(itemResource.defaultSort) as Array<[string, SortDirection]>);
  if (!keys.some(([field]) => field === 'id')) keys.push(['id', keys.at(-1)?.[1] ?? 1]);
  const { defaultLimit, maxLimit } = itemResource;
  const limit =
    query.limit === undefined ? defaultLimit : query.limit === 0 ? maxLimit : Math.min(query.limit, maxLimit);
  const skip = query.skip ?? 0;
  return rows
    .filter((row) => matchesFilter(row, query.filter, itemTypes))
    .sort((a, b) => compareRows(a, b, keys, itemTypes))
    .slice(skip, skip + limit)
    .map((row) => row.id);
}

function expectedFields(query: Query): string[] {
  const names = Array.isArray(query.project) ? query.project : Object.keys(query.project ?? {});
  return names.length === 0 ? FIELDS : FIELDS.filter((field) => field === 'id' || names.includes(field));
}

/** The generators can exceed two limits by chance: conditions, and repetitions in one pattern. */
function isOverALimit(error: unknown): boolean {
  const reason = error instanceof AppError ? String(error.options.params?.reason) : '';
  return reason.includes('more than 100 conditions') || reason.includes('more than 10 repetitions');
}

describe(`list query against the reference evaluator (${process.env.GANTRY_TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('returns the same rows in the same order, with the projected fields and the count', async () => {
    const { db } = handle;
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (rows, queries) => {
        await handle.load(rows);
        const reference = rows.map(referenceRow);
        for (const query of queries) {
          const raw = JSON.stringify(query);
          let parsed: ReturnType<typeof parseListQuery<ItemField>>;
          try {
            parsed = parseListQuery(raw, itemResource);
          } catch (error) {
            fc.pre(!isOverALimit(error));
            throw error;
          }
          const found = await db
            .select(selectFields(itemResource, parsed.fields))
            .from(items)
            .where(parsed.where)
            .orderBy(...parsed.orderBy)
            .limit(parsed.limit)
            .offset(parsed.offset);
          expect(found.map((row) => row.id)).toEqual(expectedIds(reference, query));
          if (found[0]) expect(Object.keys(found[0])).toEqual(expectedFields(query));
          const counted = await db.$count(items, parseCountQuery(JSON.stringify(query.filter ?? {}), itemResource));
          expect(counted).toBe(reference.filter((row) => matchesFilter(row, query.filter, itemTypes)).length);
        }
      }),
      { numRuns: 300 },
    );
  });
});

const ALL_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'like', 'not', 'and', 'or', 'nor'];
const key = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELDS), weight: 3 },
  { arbitrary: fc.constantFrom(...ALL_OPERATORS).chain(withDollar), weight: 3 },
  fc.constantFrom('foo', '__proto__', 'constructor', 'toString', '', '$', '$$and', 'x.y', 'regex'),
  fc.string({ maxLength: 3 }),
);
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  text(3),
  fc.constantFrom(
    '(',
    '[[:alpha:]',
    '\\',
    '*',
    'a{2,1}',
    '(?i)a',
    '2024-01-01',
    '9999-12-31T23:59:59Z',
    '9999-12-31T23:59:59-01:00',
    '0001-01-01T00:00:00+01:00',
    '2024-02-30',
    '\u0000',
    '\ud800',
  ),
  // Numbers at the edges of bigint and of the date range (epoch ms of years 0 and 10000).
  fc.constantFrom(1e20, -0, 2 ** 31, 2 ** 63, 0.1, -1, Number.POSITIVE_INFINITY, Number.NaN),
  fc.constantFrom(-62_135_596_800_001, 253_402_300_800_000, 8.64e15),
);
const { value: messyValue, object: messyObject } = fc.letrec<{ value: unknown; object: Record<string, unknown> }>(
  (tie) => ({
    value: fc.oneof(
      { maxDepth: 4, depthIdentifier: 'messy' },
      oddValue,
      tie('object'),
      fc.array(tie('value'), { maxLength: 3 }),
    ),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
  }),
);
const messyQuery = fc
  .array(
    fc.tuple(fc.constantFrom('sort', 'skip', 'limit', 'project', 'fields', 'filter', 'withCount', 'junk'), messyValue),
    { maxLength: 4 },
  )
  .map((entries) => Object.fromEntries(entries));
/** A copy of `value` whose `index`-th node (depth-first, modulo their number) is `replacement`. */
function replaceNode(value: unknown, index: number, replacement: unknown): unknown {
  let remaining = index % countNodes(value);
  const visit = (node: unknown): unknown => {
    if (remaining-- === 0) return replacement;
    if (Array.isArray(node)) return node.map(visit);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([name, inner]) => [name, visit(inner)]));
    }
    return node;
  };
  return visit(value);
}

function countNodes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return 1 + Object.values(value).reduce<number>((sum, inner) => sum + countNodes(inner), 0);
}

/** Well-formed queries with one node replaced by something odd: every check gets its turn. */
const nearMiss = fc
  .tuple(queryArb, fc.nat(), fc.oneof(oddValue, messyValue))
  .map(([query, index, replacement]) => JSON.stringify(replaceNode(query, index, replacement)));

const rawQuery = fc.oneof(
  { arbitrary: nearMiss, weight: 4 },
  messyQuery.map((query) => JSON.stringify(query)),
  messyQuery,
  messyObject.map((filter) => JSON.stringify(filter)),
  messyObject.map((filter) => JSON.stringify({ filter })),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string(),
  fc.anything(),
);

/** Runs the list and the count for a raw query; anything thrown is mapped as a route would. */
async function attempt(raw: unknown): Promise<void> {
  const { db } = handle;
  const errors: unknown[] = [];
  try {
    const query = parseListQuery(raw, itemResource);
    await db
      .select(selectFields(itemResource, query.fields))
      .from(items)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
  } catch (error) {
    errors.push(mapQueryError(error));
  }
  try {
    await db.$count(items, parseCountQuery(raw, itemResource));
  } catch (error) {
    errors.push(mapQueryError(error));
  }
  for (const error of errors) {
    if (!(error instanceof AppError && error.code === 'badQuery')) throw error;
  }
}

const EDGE_VALUES: unknown[] = [
  ...['(', '[[:alpha:]', '\\', '*', 'a{2,1}', '(?i)a', '', 'x'.repeat(201), '\u0000', '\ud800', 'true', '1'],
  ...['2024-02-30', '2024-01-01T24:00', '9999-12-31T23:59:59-01:00', '0001-01-01T00:00:00+01:00', '+010000-01-01'],
  ...[1e20, -0, 2 ** 31, 2 ** 63, 0.1, -1, -62_135_596_800_001, 253_402_300_800_000, 8.64e15],
  ...[null, true, false, [], {}, [null], [1e20, 0.5], ['\u0000'], [[]], [{}], { eq: 1 }, { a: '\u0000' }],
];

describe('malformed queries', () => {
  it('refuse every odd value with badQuery, for every field and operator', async () => {
    await handle.load([{ id: 1, s: 'Abc', n: 1, b: true, d: new Date(0), j: { a: 1 } }]);
    for (const field of FIELDS) {
      for (const op of ALL_OPERATORS) {
        for (const value of EDGE_VALUES) await attempt(JSON.stringify({ filter: { [field]: { [op]: value } } }));
      }
    }
  });

  it('only ever fail with badQuery', async () => {
    await handle.load([
      { id: 1, s: 'Abc', n: 1, b: true, d: new Date(0), j: { a: 1 } },
      { id: 2, s: null, n: null, b: null, d: null, j: null },
    ]);
    await fc.assert(fc.asyncProperty(rawQuery, attempt), { numRuns: 400 });
  });
});
