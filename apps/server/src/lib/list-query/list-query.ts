/**
 * The list query of every list endpoint (spec README, contract 4):
 * `GET <resource>?query={"sort", "skip", "limit", "project", "filter", "withCount"}` and
 * `GET <resource>/count?query=<filter>`. A resource declares its fields (`ResourceDef`); only those
 * can be filtered, sorted or projected. Anything refused is `AppError('badQuery')` (400) with an
 * English reason naming the field or operator. Client values reach SQL only as bound parameters.
 *
 * Filter (`reference.ts` is an independent evaluator of the same rules, used by the tests):
 * - `{"f": v}` is `eq`; `{"f": {"op": v, ...}}` ANDs the operators; `{"f": {"not": {...}}}` negates
 *   them. `and`, `or`, `nor` (arrays of filters) and `not` (a filter) nest at any level, ANDed with
 *   the field keys beside them. Every operator may be written with a leading `$`. Empty `and`/`nor`
 *   keep every row, empty `or` none. Operator names are reserved: no field may be called `and` etc.
 * - Two-valued logic, Mongo-like for NULL: `eq null` is IS NULL, `ne null` IS NOT NULL, `ne v` is
 *   IS DISTINCT FROM (a NULL field matches); `in` may list null; `nin` is exactly `not in` (a NULL
 *   field matches unless null is listed); `in []` keeps no row, `nin []` all. `gt gte lt lte` and
 *   `like` never match NULL, and `not` of them always does.
 * - Values must have the field's type: string; number (finite); boolean (false < true); date (ISO
 *   8601 text, UTC when no offset is given, or epoch ms; millisecond precision; years 1-9999;
 *   compared as timestamptz); json (eq/ne only, jsonb equality; an object operand needs the
 *   explicit form `{"f": {"eq": {...}}}`). Text with U+0000 or a lone surrogate is refused.
 * - `like` is text or a pattern of a safe subset of regular expressions (`like-pattern.ts`: `.`,
 *   classes, `* + ?` on one character, `^ $`, `|` in at most one level of unrepeated groups), at most
 *   200 characters, matched case-insensitively anywhere in the value (`~*` with the pattern as
 *   re-written by the parser). Anything outside the subset is a 400 naming what is not allowed.
 *   Should PostgreSQL still reject a pattern (SQLSTATE 2201B), `mapQueryError` turns that into a
 *   400 too. Case folding and text order follow the field expression's collation (`collate "C"`:
 *   ASCII-only folding, code point order).
 * - Limits: nesting depth 8 (each and/or/nor/not level counts), 100 conditions, 1000 items per array.
 *
 * Sort: `{"f": 1 | -1}`, keys in order, only fields declared `sort: true`; none given: the resource's
 * default. NULL sorts last ascending and first descending (PostgreSQL's default, which one index
 * serves in both directions). The resource's `id` field is appended in the direction of the last
 * key, so pages are stable.
 * Paging: `skip` and `limit` are non-negative integers. `skip` is capped at 10,000,000. `limit`
 * absent: the resource's default; 0 (Mongo's "no limit") or above the maximum: the maximum.
 * Projection: `project` (or `fields`) is an array of names or `{"f": 1}`; the id is always included;
 * empty means every field.
 * `withCount`: true or false; the caller runs the count (same `where`) and sets the `count` header.
 * Count: the query is the filter itself; a list query with a `filter` key is accepted too.
 */
import { LIST_QUERY_KEYS } from '@gantry/shared';
import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badQuery, isPlainObject, quoted } from './bad-query.js';
import { type ParsedFilter, parseFilterParts } from './filter.js';
import type { FieldDef, ListQuery, ResourceDef, SortDirection } from './types.js';

export { type Equalities, FILTER_LIMITS, type ParsedFilter } from './filter.js';
export type { FieldDef, FieldType, ListQuery, ResourceDef, SortDirection } from './types.js';

export const MAX_SKIP = 10_000_000;

const QUERY_KEYS = new Set<string>([...LIST_QUERY_KEYS, 'fields']);

/** `raw`: the `query` parameter (JSON text), or undefined; an already parsed object is taken as is. */
export function parseListQuery<F extends string>(raw: unknown, resource: ResourceDef<F>): ListQuery<F> {
  const query = readQuery(raw);
  for (const key of Object.keys(query)) {
    if (!QUERY_KEYS.has(key)) throw badQuery(`unknown query key ${quoted(key)}`);
  }
  if (query.project != null && query.fields != null) throw badQuery("give 'project' or 'fields', not both");
  const { where, equalities } = parseFilterParts(query.filter, resource);
  return {
    where,
    equalities,
    orderBy: orderBy(query.sort, resource),
    limit: limitOf(query.limit, resource),
    offset: Math.min(nonNegativeInteger(query.skip, 'skip') ?? 0, MAX_SKIP),
    fields: projection(query.project ?? query.fields, resource),
    withCount: withCountOf(query.withCount),
  };
}

/** The where clause of `GET <resource>/count?query=`. */
export function parseCountQuery(raw: unknown, resource: ResourceDef): SQL | undefined {
  return parseCountFilter(raw, resource).where;
}

/** The filter of `GET <resource>/count?query=`, with its equalities (see `ListQuery.equalities`). */
export function parseCountFilter(raw: unknown, resource: ResourceDef): ParsedFilter {
  const query = readQuery(raw);
  const keys = Object.keys(query);
  const isListQuery =
    keys.includes('filter') && !Object.hasOwn(resource.fields, 'filter') && keys.every((key) => QUERY_KEYS.has(key));
  if (!isListQuery) return parseFilterParts(query, resource);
  const { where, equalities } = parseListQuery(query, resource);
  return { where, equalities };
}

/** What `db.select()` takes for the projected fields (all of them when `fields` is undefined). */
export function selectFields<F extends string>(
  resource: ResourceDef<F>,
  fields: readonly F[] | undefined,
): Record<string, SQL | AnyPgColumn> {
  const names = fields ?? declaredNames(resource);
  return Object.fromEntries(names.map((name) => [name, resource.fields[name].sql]));
}

const INVALID_REGULAR_EXPRESSION = '2201B';

/** Whether a query failed on an invalid `like` pattern (the driver's error, or drizzle's wrapping it). */
export function isInvalidRegexError(error: unknown): boolean {
  return databaseError(error, INVALID_REGULAR_EXPRESSION) !== undefined;
}

/** Run a list or count query inside `try { … } catch (e) { throw mapQueryError(e) }`. */
export function mapQueryError(error: unknown): unknown {
  const cause = databaseError(error, INVALID_REGULAR_EXPRESSION);
  if (!cause) return error;
  return badQuery(
    cause.message.startsWith('invalid regular expression') ? cause.message : 'invalid regular expression',
  );
}

/** The error carrying `code` (node-postgres and PGlite both set it), looking through `cause`. */
function databaseError(error: unknown, code: string): { message: string } | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && current.code === code) {
      return { message: 'message' in current && typeof current.message === 'string' ? current.message : '' };
    }
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

function readQuery(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') return {};
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badQuery('the query is not valid JSON');
    }
  }
  if (value === null) return {};
  if (!isPlainObject(value)) throw badQuery('the query must be a JSON object');
  return value;
}

function isDeclared<F extends string>(resource: ResourceDef<F>, name: string): name is F {
  return Object.hasOwn(resource.fields, name);
}

/** The declared fields, in their declaration order. */
function declaredNames<F extends string>(resource: ResourceDef<F>): F[] {
  return Object.keys(resource.fields).filter((name) => isDeclared(resource, name));
}

function declared<F extends string>(resource: ResourceDef<F>, name: string, context: string): FieldDef {
  const def = isDeclared(resource, name) ? resource.fields[name] : resource.resolve?.(name);
  if (!def) throw badQuery(`unknown field ${quoted(name)} in ${context}`);
  return def;
}

function orderBy<F extends string>(raw: unknown, resource: ResourceDef<F>): SQL[] {
  if (raw != null && !isPlainObject(raw)) throw badQuery('sort must be an object like {"field": 1}');
  const given = Object.entries(raw ?? {}).map(([name, direction]): [string, SortDirection] => {
    if (declared(resource, name, 'sort').sort !== true) throw badQuery(`field ${quoted(name)} cannot be sorted`);
    if (direction !== 1 && direction !== -1) throw badQuery(`sort direction of ${quoted(name)} must be 1 or -1`);
    return [name, direction];
  });
  const order =
    given.length > 0
      ? given
      : Object.entries(resource.defaultSort).flatMap(
          ([name, direction]): Array<[string, SortDirection]> =>
            direction === 1 || direction === -1 ? [[name, direction]] : [],
        );
  if (!order.some(([name]) => name === resource.id)) order.push([resource.id, order.at(-1)?.[1] ?? 1]);
  return order.map(([name, direction]) => {
    const expr = declared(resource, name, 'sort').sql;
    return direction === 1 ? asc(expr) : desc(expr);
  });
}

function nonNegativeInteger(raw: unknown, name: string): number | undefined {
  if (raw == null) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0) {
    throw badQuery(`${name} must be a non-negative integer`);
  }
  return raw;
}

function limitOf(raw: unknown, resource: ResourceDef): number {
  const limit = nonNegativeInteger(raw, 'limit') ?? resource.defaultLimit;
  return limit === 0 ? resource.maxLimit : Math.min(limit, resource.maxLimit);
}

function projection<F extends string>(raw: unknown, resource: ResourceDef<F>): F[] | undefined {
  if (raw == null) return undefined;
  let names: string[];
  if (Array.isArray(raw)) {
    names = raw.map((name) => {
      if (typeof name !== 'string') throw badQuery('project must list field names');
      return name;
    });
  } else if (isPlainObject(raw)) {
    names = Object.entries(raw).map(([name, include]) => {
      if (include !== 1 && include !== true)
        throw badQuery(`project takes fields to include: set ${quoted(name)} to 1`);
      return name;
    });
  } else {
    throw badQuery('project must be an array of field names or an object like {"field": 1}');
  }
  if (names.length === 0) return undefined;
  for (const name of names) declared(resource, name, 'project');
  const chosen = new Set<string>([...names, resource.id]);
  const inOrder = declaredNames(resource).filter((name) => chosen.has(name));
  if (!resource.resolve) return inOrder;
  const open = [...chosen].filter((name) => !Object.hasOwn(resource.fields, name)) as F[];
  return [...inOrder, ...open];
}

function withCountOf(raw: unknown): boolean {
  if (raw == null) return false;
  if (typeof raw !== 'boolean') throw badQuery('withCount must be true or false');
  return raw;
}
