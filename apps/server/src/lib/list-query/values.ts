import { badQuery, isPlainObject } from './bad-query.js';
import type { FieldType } from './types.js';

/**
 * A checked filter value as it is bound: a date as ISO-8601 UTC text, a json or document value as
 * JSON text.
 */
export type Value = string | number | boolean;

const EXPECTED: Record<FieldType, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date (ISO 8601 text or epoch milliseconds, years 1 to 9999)',
  json: 'a JSON value',
  document: 'a string, a number or true or false',
};

/** Deeper json values are refused (their checks recurse). */
const JSON_DEPTH = 32;

/** `context` names the operator and the field in the reason, e.g. `'gt' on field 'age'`. */
export function checkValue(value: unknown, type: FieldType, context: string): Value {
  switch (type) {
    case 'string':
      if (typeof value === 'string') return checkText(value, context);
      break;
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      break;
    case 'date': {
      const iso = isoDate(value);
      if (iso !== undefined) return iso;
      break;
    }
    case 'json':
      checkJson(value, context, 0);
      return JSON.stringify(value);
    case 'document':
      if (typeof value === 'string') return JSON.stringify(checkText(value, context));
      if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
        return JSON.stringify(value);
      }
      break;
  }
  throw badQuery(`${context} needs ${EXPECTED[type]}`);
}

const LONE_SURROGATE = /\p{Cs}/u;

/** PostgreSQL cannot take U+0000, and a lone surrogate would silently become U+FFFD on the way. */
export function checkText(text: string, context: string): string {
  if (text.includes('\u0000')) throw badQuery(`${context}: text must not contain U+0000`);
  if (LONE_SURROGATE.test(text)) throw badQuery(`${context}: text is not well-formed Unicode`);
  return text;
}

function checkJson(value: unknown, context: string, depth: number): void {
  if (depth > JSON_DEPTH) throw badQuery(`${context}: JSON value nested deeper than ${JSON_DEPTH} levels`);
  if (typeof value === 'string') checkText(value, context);
  else if (typeof value === 'number' && !Number.isFinite(value)) throw badQuery(`${context}: number out of range`);
  else if (Array.isArray(value)) for (const item of value) checkJson(item, context, depth + 1);
  else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      checkText(key, context);
      checkJson(item, context, depth + 1);
    }
  }
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** ISO-8601 UTC text (millisecond precision) of a date given as ISO text or epoch ms, if valid. */
export function isoDate(value: unknown): string | undefined {
  let ms: number | undefined;
  if (typeof value === 'number') ms = Number.isInteger(value) ? value : undefined;
  else if (typeof value === 'string') ms = parseIsoDate(value);
  if (ms === undefined) return undefined;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date.toISOString() : undefined;
}

/**
 * Own parser: `Date.parse` rolls 2024-02-30 over to March and reads a time without offset as local
 * time. Here a date alone is UTC midnight, a time without offset is UTC, digits past the
 * milliseconds are dropped.
 */
function parseIsoDate(text: string): number | undefined {
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const part = (i: number) => Number(match[i] ?? 0);
  const [year, month, day, hour, minute, second] = [part(1), part(2), part(3), part(4), part(5), part(6)];
  const offset = offsetMinutes(match[8] ?? 'Z');
  if (offset === undefined || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((match[7] ?? '').padEnd(3, '0').slice(0, 3)));
  return date.getTime() - offset * 60_000;
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

function offsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(3).replace(':', '') || 0);
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}
