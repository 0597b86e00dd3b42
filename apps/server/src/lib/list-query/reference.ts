/**
 * Test oracle: the filter and sort rules of `list-query.ts`, written again in plain TypeScript
 * straight from the JSON, for well-formed queries only (it does not check anything). The property
 * tests compare it with what PostgreSQL returns for the compiled SQL.
 *
 * Text follows the "C" collation: order by UTF-8 bytes (= code points), `like` folds ASCII letters
 * only. A `like` pattern is any pattern of the safe subset (like-pattern.ts), given to JavaScript as
 * the client wrote it (the server sends PostgreSQL its own re-written form): on that subset the two
 * engines agree, and lowering the pattern's ASCII letters keeps its meaning because a class range
 * never mixes letters of both cases with other characters.
 */
import type { FieldType, SortDirection } from './types.js';

export type Row = Record<string, unknown>;
export type FieldTypes = Record<string, FieldType>;

function typeOf(types: FieldTypes, field: string): FieldType {
  const type = types[field];
  if (!type) throw new Error(`reference: no type for field ${field}`);
  return type;
}

const bare = (key: string) => (key.startsWith('$') ? key.slice(1) : key);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The oracle reads well-formed queries only: any other shape is a bug of the test. */
function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`reference: not a list: ${JSON.stringify(value)}`);
  return value;
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`reference: not a text: ${JSON.stringify(value)}`);
  return value;
}

function number(value: unknown): number {
  if (typeof value !== 'number') throw new Error(`reference: not a number: ${JSON.stringify(value)}`);
  return value;
}

export function matchesFilter(row: Row, filter: unknown, types: FieldTypes): boolean {
  if (filter === undefined || filter === null) return true;
  if (!isObject(filter)) throw new Error(`reference: not a filter: ${JSON.stringify(filter)}`);
  return Object.entries(filter).every(([key, value]) => {
    switch (bare(key)) {
      case 'and':
        return list(value).every((item) => matchesFilter(row, item, types));
      case 'or':
        return list(value).some((item) => matchesFilter(row, item, types));
      case 'nor':
        return !list(value).some((item) => matchesFilter(row, item, types));
      case 'not':
        return !matchesFilter(row, value, types);
      default:
        return matchesField(row[key], value, typeOf(types, key));
    }
  });
}

function matchesField(actual: unknown, condition: unknown, type: FieldType): boolean {
  if (!isObject(condition)) return matchesOperator(actual, 'eq', condition, type);
  return Object.entries(condition).every(([op, value]) => matchesOperator(actual, bare(op), value, type));
}

function matchesOperator(actual: unknown, op: string, value: unknown, type: FieldType): boolean {
  const present = actual !== null && actual !== undefined;
  switch (op) {
    case 'eq':
      return value === null ? !present : present && compareValues(actual, value, type) === 0;
    case 'ne':
      return !matchesOperator(actual, 'eq', value, type);
    case 'gt':
      return present && comparable(actual, value, type) && compareValues(actual, value, type) > 0;
    case 'gte':
      return present && comparable(actual, value, type) && compareValues(actual, value, type) >= 0;
    case 'lt':
      return present && comparable(actual, value, type) && compareValues(actual, value, type) < 0;
    case 'lte':
      return present && comparable(actual, value, type) && compareValues(actual, value, type) <= 0;
    case 'in':
      return list(value).some((item) => matchesOperator(actual, 'eq', item, type));
    case 'nin':
      return !matchesOperator(actual, 'in', value, type);
    case 'like':
      if (type === 'document' && typeof actual !== 'string') return false;
      return present && likeMatches(text(actual), text(value));
    case 'not':
      return !matchesField(actual, value, type);
    default:
      throw new Error(`reference: unknown operator ${op}`);
  }
}

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/** `s`: `.` matches newlines, as in PostgreSQL; `u`: `.` is one code point. */
function likeMatches(text: string, pattern: string): boolean {
  return new RegExp(asciiLower(pattern), 'su').test(asciiLower(text));
}

/** Compares two non-null values of a field's type (a filter value may be ISO text or epoch ms). */
export function compareValues(a: unknown, b: unknown, type: FieldType): number {
  switch (type) {
    case 'string':
      return Buffer.compare(Buffer.from(text(a)), Buffer.from(text(b)));
    case 'number':
      return Math.sign(number(a) - number(b));
    case 'boolean':
      return Number(a) - Number(b);
    case 'date':
      return Math.sign(toMs(a) - toMs(b));
    case 'json':
      return canonicalJson(a) === canonicalJson(b) ? 0 : 1;
    case 'document':
      return compareDocumentValues(a, b);
  }
}

/** A document value is ordered against a filter value of its own JSON type only. */
function comparable(actual: unknown, value: unknown, type: FieldType): boolean {
  return type !== 'document' || jsonType(actual) === jsonType(value);
}

function jsonType(value: unknown): string {
  return Array.isArray(value) ? 'array' : typeof value;
}

/** jsonb's order: string < number < boolean < array < object; within a type, the type's own order. */
const JSONB_RANK: Record<string, number> = { string: 0, number: 1, boolean: 2, array: 3, object: 4 };

function compareDocumentValues(a: unknown, b: unknown): number {
  const [ta, tb] = [jsonType(a), jsonType(b)];
  if (ta !== tb) return Math.sign((JSONB_RANK[ta] ?? 5) - (JSONB_RANK[tb] ?? 5));
  if (ta === 'string') return compareValues(a, b, 'string');
  if (ta === 'number') return compareValues(a, b, 'number');
  if (ta === 'boolean') return compareValues(a, b, 'boolean');
  return canonicalJson(a) === canonicalJson(b) ? 0 : 1;
}

function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  const iso = text(value);
  // Date-only text is UTC midnight in Date.parse already; a time without offset is UTC here.
  return Date.parse(/T\d{2}:\d{2}(:[\d.]+)?$/.test(iso) ? `${iso}Z` : iso);
}

/** jsonb equality: object keys in any order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Row order for sort keys in order; NULL last ascending, first descending. */
export function compareRows(a: Row, b: Row, sort: Array<[string, SortDirection]>, types: FieldTypes): number {
  for (const [field, direction] of sort) {
    const x = a[field];
    const y = b[field];
    const xNull = x === null || x === undefined;
    const yNull = y === null || y === undefined;
    let order: number;
    if (xNull || yNull) order = xNull === yNull ? 0 : xNull ? 1 : -1;
    else order = compareValues(x, y, typeOf(types, field));
    if (order !== 0) return order * direction;
  }
  return 0;
}
