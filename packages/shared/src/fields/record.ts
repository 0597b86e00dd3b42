import type { z } from 'zod';
import { isRecord } from '../guards.js';
import type { FieldMessageKey } from './messages.js';
import { FIELD_REGISTRY } from './registry.js';
import type { ColumnField, Field, FieldRule, SubTableField, TableDefinition } from './table.js';

/**
 * A record's values checked against its table's published definition (backups-data-designer.md §5),
 * the same on the server (every write) and in the console's form. What needs the database (no
 * duplicates, related records, auto-numbers, formulas, lookups) the server adds.
 */

export interface ValueProblem {
  /** The field's identifier, with the row and column inside a sub-table (`items.2.qty`). */
  path: string;
  message: FieldMessageKey;
  params?: Record<string, string | number>;
}

export type RecordValues = Record<string, unknown>;
export type WriteMode = 'create' | 'update';

export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

export function isComputed(field: Field): boolean {
  return FIELD_REGISTRY[field.type].computed === true;
}

/** A field's value schema for its options (not for sub-tables: their rows are checked by `checkValues`). */
export function valueSchema(field: ColumnField): z.ZodType {
  const type = FIELD_REGISTRY[field.type] as { value: (options: unknown) => z.ZodType };
  return type.value(field.options);
}

/** A sub-table with a minimum row count is required (§5). */
export function isRequired(field: Field): boolean {
  return field.required || (field.type === 'subTable' && (field.options.minRows ?? 0) > 0);
}

function defaultOf(field: Field): unknown {
  return 'default' in field.options ? field.options.default : undefined;
}

/** An issue's params as a message takes them (texts and numbers). */
function textParams(params: Record<string, unknown>): Record<string, string | number> {
  const kept: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params))
    if (typeof value === 'string' || typeof value === 'number') kept[key] = value;
  return kept;
}

const problemOf = (issue: z.core.$ZodIssue, at: string): ValueProblem => {
  const path = [at, ...issue.path.map(String)].join('.');
  const message = (issue.message.includes('.') ? issue.message : 'value.type') as FieldMessageKey;
  const params = 'params' in issue && isRecord(issue.params) ? textParams(issue.params) : undefined;
  return params ? { path, message, params } : { path, message };
};

function checkOne(field: ColumnField, value: unknown, at: string, problems: ValueProblem[]): unknown {
  const parsed = valueSchema(field).safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) problems.push(problemOf(issue, at));
  return value;
}

function checkRows(field: SubTableField, value: unknown, at: string, problems: ValueProblem[]): unknown {
  if (!Array.isArray(value)) {
    problems.push({ path: at, message: 'value.type' });
    return value;
  }
  const { minRows, maxRows, noDuplicateRows } = field.options;
  if (minRows !== undefined && value.length < minRows)
    problems.push({ path: at, message: 'value.subTableTooFew', params: { min: minRows } });
  if (maxRows !== undefined && value.length > maxRows)
    problems.push({ path: at, message: 'value.subTableTooMany', params: { max: maxRows } });
  const rows = value.map((row, index) => {
    const { values, problems: rowProblems } = checkValues(
      field.options.fields,
      row,
      'create',
      undefined,
      `${at}.${index}`,
    );
    problems.push(...rowProblems);
    return values;
  });
  if (noDuplicateRows) {
    const seen = new Set<string>();
    for (const row of rows) {
      const key = stableJson(row);
      if (seen.has(key)) {
        problems.push({ path: at, message: 'value.subTableDuplicate' });
        break;
      }
      seen.add(key);
    }
  }
  return rows;
}

/** JSON with object keys in order, so equal values give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Checks `input` against `fields`: unknown keys, each value's schema, sub-table rows, required values
 * (on create: every required field; on update: those given), read-only values changed on update.
 * Computed values (auto-number, formula, lookup, user) are dropped: the server sets them. On create
 * the fields' defaults fill what is missing. Answers the values to store (update: only those given).
 */
export function checkValues(
  fields: readonly Field[],
  input: unknown,
  mode: WriteMode,
  previous: RecordValues | undefined,
  prefix = '',
): { values: RecordValues; problems: ValueProblem[] } {
  const problems: ValueProblem[] = [];
  const values: RecordValues = {};
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  if (!isRecord(input)) return { values, problems: [{ path: prefix || '_', message: 'value.type' }] };
  const given = input;
  const byName = new Map(fields.map((field) => [field.name, field]));
  for (const key of Object.keys(given)) {
    if (!byName.has(key)) problems.push({ path: at(key), message: 'value.unknownField' });
  }
  for (const field of fields) {
    if (isComputed(field)) continue;
    const present = Object.hasOwn(given, field.name);
    let value = present ? given[field.name] : undefined;
    if (!present && mode === 'create') value = defaultOf(field);
    if (!present && mode === 'update') continue;
    if (isEmptyValue(value)) {
      if (isRequired(field)) problems.push({ path: at(field.name), message: 'value.required' });
      else if (present) values[field.name] = null;
      continue;
    }
    if (mode === 'update' && field.readOnly && stableJson(previous?.[field.name]) !== stableJson(value)) {
      problems.push({ path: at(field.name), message: 'value.readOnly' });
      continue;
    }
    values[field.name] =
      field.type === 'subTable'
        ? checkRows(field, value, at(field.name), problems)
        : checkOne(field, value, at(field.name), problems);
  }
  return { values, problems };
}

function compare(value: unknown, operator: FieldRule['operator'], expected: unknown): boolean {
  switch (operator) {
    case 'empty':
      return isEmptyValue(value);
    case 'notEmpty':
      return !isEmptyValue(value);
    case 'eq':
      return stableJson(value) === stableJson(expected);
    case 'ne':
      return stableJson(value) !== stableJson(expected);
    default: {
      if (isEmptyValue(value) || expected === undefined) return false;
      const [a, b] = typeof value === 'number' ? [value, Number(expected)] : [String(value), String(expected)];
      if (operator === 'gt') return a > b;
      if (operator === 'gte') return a >= b;
      if (operator === 'lt') return a < b;
      return a <= b;
    }
  }
}

/**
 * The field rules (§4a) a whole record breaks on this write: each rule whose trigger fits the write
 * and whose condition holds, with its hint text.
 */
export function brokenRules(
  definition: Pick<TableDefinition, 'rules'>,
  record: RecordValues,
  mode: WriteMode,
): Array<{ field: string; content: string; hint: string }> {
  const broken: Array<{ field: string; content: string; hint: string }> = [];
  for (const rule of definition.rules) {
    if (!rule.trigger || !rule.hint || !rule.field || !rule.content) continue;
    if (rule.trigger !== 'always' && rule.trigger !== (mode === 'create' ? 'create' : 'edit')) continue;
    if (compare(record[rule.field], rule.operator, rule.value))
      broken.push({ field: rule.field, content: rule.content, hint: rule.hint });
  }
  return broken;
}
