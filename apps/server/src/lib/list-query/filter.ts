import { LIST_FIELD_OPERATORS } from '@gantry/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badQuery, isPlainObject, quoted } from './bad-query.js';
import { LIKE_SYNTAX, LikePatternError, parseLikePattern, toPostgresRegex } from './like-pattern.js';
import type { FieldDef, FieldType, ResourceDef } from './types.js';
import { checkText, checkValue, type Value } from './values.js';

export const FILTER_LIMITS = { depth: 8, conditions: 100, arrayLength: 1000, patternLength: 200 } as const;

/** The operators the table interface shows (packages/shared/src/table-interface.ts). */
const FIELD_OPERATORS = new Set<string>(LIST_FIELD_OPERATORS);
const ORDERING = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
/** The negation of each ordering operator on a non-null value. */
const ORDERING_NOT = { gt: '<=', gte: '<', lt: '>=', lte: '>' } as const;
type Ordering = keyof typeof ORDERING;

interface Target {
  /** The field's name as the client wrote it. */
  field: string;
  expr: SQL | AnyPgColumn;
  type: FieldType;
}

/** The checked filter. `ne`, `nin` and `nor` are stored as `not` of `eq`, `in` and `or`. */
type Node =
  | { kind: 'and' | 'or'; children: Node[] }
  | { kind: 'not'; child: Node }
  | { kind: 'eq'; target: Target; value: Value | null }
  | { kind: Ordering; target: Target; value: Value }
  | { kind: 'in'; target: Target; values: Value[]; withNull: boolean }
  | { kind: 'like'; target: Target; pattern: string };

/** Field → value of a filter that is nothing but `field = value` conditions (non-null), ANDed. */
export type Equalities = Readonly<Record<string, Value>>;

export interface ParsedFilter {
  /** Undefined when the filter keeps every row. */
  where: SQL | undefined;
  /**
   * Set when the filter is only ANDed `eq` conditions (`{}` for no filter), so a caller can answer
   * its total from a maintained counter; undefined for any other filter.
   */
  equalities: Equalities | undefined;
}

/** The where clause of a filter object; undefined when it keeps every row. */
export function parseFilter(raw: unknown, resource: ResourceDef): SQL | undefined {
  return parseFilterParts(raw, resource).where;
}

export function parseFilterParts(raw: unknown, resource: ResourceDef): ParsedFilter {
  if (raw === undefined || raw === null) return { where: undefined, equalities: {} };
  const node = new FilterParser(resource).filter(raw, 1);
  const equalities: Record<string, Value> = {};
  const where = compile(node, false);
  return {
    where: where === true ? undefined : where === false ? sql`false` : where,
    equalities: collectEqualities(node, equalities) ? equalities : undefined,
  };
}

/** Adds the node's `field = value` conditions to `into`; false when it is anything else. */
function collectEqualities(node: Node, into: Record<string, Value>): boolean {
  if (node.kind === 'and') return node.children.every((child) => collectEqualities(child, into));
  if (node.kind !== 'eq' || node.value === null) return false;
  const { field } = node.target;
  // The same field equal to two values: no row matches, which no counter says.
  if (Object.hasOwn(into, field) && into[field] !== node.value) return false;
  into[field] = node.value;
  return true;
}

/** Operators are accepted with or without the leading `$` (Mongo style). */
function bare(key: string): string {
  return key.startsWith('$') ? key.slice(1) : key;
}

class FilterParser {
  private conditions = 0;

  constructor(private readonly resource: ResourceDef) {}

  /** A filter object: its keys (fields and logical operators) are ANDed. */
  filter(raw: unknown, depth: number): Node {
    if (!isPlainObject(raw)) throw badQuery('a filter must be a JSON object');
    this.checkDepth(depth);
    const children: Node[] = [];
    for (const [key, value] of Object.entries(raw)) {
      const op = bare(key);
      if (op === 'and' || op === 'or' || op === 'nor') children.push(this.logical(op, value, depth));
      else if (op === 'not') children.push({ kind: 'not', child: this.filter(value, depth + 1) });
      else if (key.startsWith('$')) throw badQuery(`unknown operator ${quoted(key)}`);
      else children.push(this.field(key, value, depth));
    }
    return { kind: 'and', children };
  }

  private logical(op: 'and' | 'or' | 'nor', value: unknown, depth: number): Node {
    if (!Array.isArray(value)) throw badQuery(`'${op}' needs an array of filters`);
    this.checkLength(value, `'${op}'`);
    const children = value.map((item) => this.filter(item, depth + 1));
    return op === 'nor' ? { kind: 'not', child: { kind: 'or', children } } : { kind: op, children };
  }

  private field(name: string, value: unknown, depth: number): Node {
    const def: FieldDef | undefined = Object.hasOwn(this.resource.fields, name)
      ? this.resource.fields[name]
      : this.resource.resolve?.(name);
    if (!def) throw badQuery(`unknown field ${quoted(name)}`);
    if (def.filter === false) throw badQuery(`field ${quoted(name)} cannot be filtered`);
    const target = { field: name, expr: def.sql, type: def.type };
    return isPlainObject(value)
      ? this.operators(name, target, value, depth)
      : this.condition(name, target, 'eq', value);
  }

  /** `{like: 'a', ne: 'abc'}`: the operators on one field are ANDed. */
  private operators(name: string, target: Target, ops: Record<string, unknown>, depth: number): Node {
    const entries = Object.entries(ops);
    if (entries.length === 0) throw badQuery(`no operator given for field ${quoted(name)}`);
    const children = entries.map(([key, value]): Node => {
      const op = bare(key);
      if (!FIELD_OPERATORS.has(op)) throw badQuery(`unknown operator ${quoted(key)} on field ${quoted(name)}`);
      if (op !== 'not') return this.condition(name, target, op, value);
      if (!isPlainObject(value)) throw badQuery(`'not' on field ${quoted(name)} needs operators, e.g. {"like": "x"}`);
      this.checkDepth(depth + 1);
      return { kind: 'not', child: this.operators(name, target, value, depth + 1) };
    });
    return { kind: 'and', children };
  }

  private condition(name: string, target: Target, op: string, value: unknown): Node {
    if (++this.conditions > FILTER_LIMITS.conditions) {
      throw badQuery(`the filter has more than ${FILTER_LIMITS.conditions} conditions`);
    }
    const context = `'${op}' on field ${quoted(name)}`;
    const { type } = target;
    if (type === 'json' && op !== 'eq' && op !== 'ne') {
      throw badQuery(`operator '${op}' does not apply to json field ${quoted(name)}`);
    }
    switch (op) {
      case 'eq':
      case 'ne': {
        const node: Node = { kind: 'eq', target, value: value === null ? null : checkValue(value, type, context) };
        return op === 'ne' ? { kind: 'not', child: node } : node;
      }
      case 'in':
      case 'nin': {
        if (!Array.isArray(value)) throw badQuery(`${context} needs an array`);
        this.checkLength(value, context);
        const values = value.filter((item) => item !== null).map((item) => checkValue(item, type, context));
        const node: Node = { kind: 'in', target, values, withNull: values.length < value.length };
        return op === 'nin' ? { kind: 'not', child: node } : node;
      }
      case 'like': {
        if (type !== 'string' && type !== 'document')
          throw badQuery(`operator 'like' does not apply to ${type} field ${quoted(name)}`);
        if (typeof value !== 'string') throw badQuery(`${context} needs a regular expression string`);
        if (value.length > FILTER_LIMITS.patternLength) {
          throw badQuery(`${context}: pattern longer than ${FILTER_LIMITS.patternLength} characters`);
        }
        return { kind: 'like', target, pattern: likePattern(checkText(value, context), context) };
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return { kind: op, target, value: checkValue(value, type, context) };
      default:
        throw badQuery(`unknown operator ${quoted(op)} on field ${quoted(name)}`);
    }
  }

  private checkDepth(depth: number): void {
    if (depth > FILTER_LIMITS.depth) throw badQuery(`the filter is nested deeper than ${FILTER_LIMITS.depth} levels`);
  }

  private checkLength(items: unknown[], context: string): void {
    if (items.length > FILTER_LIMITS.arrayLength) {
      throw badQuery(`${context} has more than ${FILTER_LIMITS.arrayLength} items`);
    }
  }
}

/** The pattern re-written for PostgreSQL, or a 400 naming what the safe subset does not allow. */
function likePattern(pattern: string, context: string): string {
  try {
    return toPostgresRegex(parseLikePattern(pattern));
  } catch (error) {
    if (error instanceof LikePatternError) throw badQuery(`${context}: ${error.message}; ${LIKE_SYNTAX}`);
    throw error;
  }
}

/** SQL, or a constant once the constant parts have been folded away. */
type Compiled = SQL | boolean;

/**
 * Negations are pushed down to the conditions (De Morgan), and each negated condition says
 * explicitly what a NULL field does. So SQL's three-valued logic never shows: a condition on a NULL
 * field is false, its negation true, and the positive conditions keep their index-friendly form.
 */
function compile(node: Node, negate: boolean): Compiled {
  switch (node.kind) {
    case 'and':
      return (negate ? anyOf : allOf)(node.children.map((child) => compile(child, negate)));
    case 'or':
      return (negate ? allOf : anyOf)(node.children.map((child) => compile(child, negate)));
    case 'not':
      return compile(node.child, !negate);
    case 'eq':
      return compileEq(node.target, node.value, negate);
    case 'in':
      return compileIn(node.target, node.values, node.withNull, negate);
    case 'like': {
      const { expr } = node.target;
      const pattern = sql`${node.pattern}::text`;
      if (node.target.type === 'document') {
        const matches = sql`(jsonb_typeof(${expr}) = 'string' and (${expr} #>> '{}') ~* ${pattern})`;
        return negate ? sql`(${matches} is not true)` : matches;
      }
      return negate ? sql`(${expr} is null or ${expr} !~* ${pattern})` : sql`${expr} ~* ${pattern}`;
    }
    default: {
      const { expr, type } = node.target;
      const value = param(node.value, type);
      if (type === 'document') {
        // jsonb orders across types (strings below numbers below booleans): only the same type counts.
        const same = sameTypeBound(expr, node.value, node.kind) ?? sql`jsonb_typeof(${expr}) = jsonb_typeof(${value})`;
        const matches = sql`(${same} and ${expr} ${sql.raw(ORDERING[node.kind])} ${value})`;
        return negate ? sql`(${matches} is not true)` : matches;
      }
      if (!negate) return sql`${expr} ${sql.raw(ORDERING[node.kind])} ${value}`;
      return sql`(${expr} ${sql.raw(ORDERING_NOT[node.kind])} ${value} or ${expr} is null)`;
    }
  }
}

/**
 * The same-type condition of an ordering as a second bound on the value itself, where jsonb's order
 * across types gives one (null < strings < numbers < booleans): `n >= 5` with `n < false` keeps
 * numbers only, `s < "m"` with `s >= ""` strings only. Unlike `jsonb_typeof(…) = …` (which the
 * planner can only guess at), a range on the expression is estimated from its statistics and bounds
 * an index scan. Undefined where no literal marks the type's edge (numbers below, strings above).
 */
function sameTypeBound(expr: SQL | AnyPgColumn, json: Value, kind: Ordering): SQL | undefined {
  const upward = kind === 'gt' || kind === 'gte';
  // A document value is bound as its JSON text (values.ts).
  const value: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  if (typeof value === 'number') return upward ? sql`${expr} < 'false'::jsonb` : undefined;
  if (typeof value === 'boolean') return upward ? sql`${expr} <= 'true'::jsonb` : sql`${expr} >= 'false'::jsonb`;
  if (typeof value === 'string') return upward ? undefined : sql`${expr} >= '""'::jsonb`;
  return undefined;
}

function compileEq({ expr, type }: Target, value: Value | null, negate: boolean): SQL {
  if (value === null) return negate ? sql`${expr} is not null` : sql`${expr} is null`;
  return negate ? sql`${expr} is distinct from ${param(value, type)}` : sql`${expr} = ${param(value, type)}`;
}

function compileIn({ expr, type }: Target, values: Value[], withNull: boolean, negate: boolean): Compiled {
  const list = values.length > 0 ? arrayParam(values, type) : undefined;
  if (!negate) return anyOf([list ? sql`${expr} = any(${list})` : false, withNull && sql`${expr} is null`]);
  const notListed = list ? sql`${expr} <> all(${list})` : true;
  // Without null in the list, a NULL field is "not in" it.
  if (!withNull) return notListed === true ? true : sql`(${expr} is null or ${notListed})`;
  return allOf([sql`${expr} is not null`, notListed]);
}

function allOf(parts: Compiled[]): Compiled {
  if (parts.includes(false)) return false;
  return join(parts, ' and ', true);
}

function anyOf(parts: Compiled[]): Compiled {
  if (parts.includes(true)) return true;
  return join(parts, ' or ', false);
}

/** Joins the non-constant parts; `empty` is the value of an empty join. */
function join(parts: Compiled[], separator: string, empty: boolean): Compiled {
  const kept = parts.filter((part): part is SQL => typeof part !== 'boolean');
  const [only, ...more] = kept;
  if (only === undefined) return empty;
  if (more.length === 0) return only;
  return sql`(${sql.join(kept, sql.raw(separator))})`;
}

/** Every value is bound as text with an explicit cast, so both drivers read it the same way. */
function param(value: Value, type: FieldType): SQL {
  return sql`${String(value)}::${sql.raw(castOf(type, [value]))}`;
}

/** One array parameter (PostgreSQL array literal) rather than one parameter per item. */
function arrayParam(values: Value[], type: FieldType): SQL {
  const literal = `{${values.map((value) => `"${String(value).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
  return sql`${literal}::${sql.raw(castOf(type, values))}[]`;
}

/** Integers as bigint keep an integer column's index usable; other numbers need numeric. */
function castOf(type: FieldType, values: Value[]): string {
  switch (type) {
    case 'string':
      return 'text';
    case 'number':
      return values.every((value) => Number.isSafeInteger(value)) ? 'bigint' : 'numeric';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'timestamptz';
    case 'json':
    case 'document':
      return 'jsonb';
  }
}
