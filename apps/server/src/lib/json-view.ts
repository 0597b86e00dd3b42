import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';

/** `Date#toISOString` of a timestamptz column (milliseconds truncated, as node-postgres reads them). */
export const isoTime = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A JSON value stored in a jsonb column, as an answer's schema lets it out, built by the database
 * (so a list answers without per-row work in the server): `jsonbView(schema, value)` keeps only the
 * keys `schema` lists, at every depth, as zod's parse strips the rest; fills `.default()`s where a
 * key is absent (an older row); leaves records, arrays of plain values and plain values as stored.
 * `value` is a jsonb expression, SQL NULL when the key holding it is absent.
 *
 * The keys come from the schema itself, never from the stored document, so nothing the schema does
 * not list can reach an answer (checked by `unlistedKeys` in tests and outside production). Nested
 * objects are jsonb, whose keys PostgreSQL orders by length then bytes, not in the schema's order:
 * the same value to any JSON reader.
 */
export function jsonbView(schema: z.ZodType, value: SQL): SQL {
  return view(schema, value, 0);
}

/** `level`: how many array subqueries enclose this value (their aliases must differ). */
function view(schema: z.core.$ZodType, value: SQL, level: number): SQL {
  if (!shapes(schema)) return value;
  if (schema instanceof z.ZodDefault) {
    const fallback = JSON.stringify(schema.def.defaultValue);
    return sql`(case when ${value} is null then ${fallback}::jsonb else ${view(schema.unwrap(), value, level)} end)`;
  }
  if (schema instanceof z.ZodOptional) return view(schema.unwrap(), value, level);
  if (schema instanceof z.ZodNullable) {
    return sql`(case when jsonb_typeof(${value}) = 'null' then 'null'::jsonb else ${view(schema.unwrap(), value, level)} end)`;
  }
  if (schema instanceof z.ZodArray) {
    // A correlated subquery: each element shaped, the array's order kept.
    const element = sql.raw(`e${level}`);
    const shaped = view(schema.element, sql`${element}.v`, level + 1);
    return sql`(select coalesce(jsonb_agg(${shaped} order by ${element}.n), '[]'::jsonb) from jsonb_array_elements(${value}) with ordinality as ${element}(v, n))`;
  }
  if (schema instanceof z.ZodObject) {
    const parts = Object.entries(schema.shape).map(([key, field]) => {
      const inner = sql`(${value} -> ${sql.raw(literal(key))})`;
      const pair = sql`jsonb_build_object(${sql.raw(literal(key))}, ${view(field, inner, level)})`;
      // An optional key absent from the document stays absent (zod leaves it out); null stays null.
      return mayBeAbsent(field) ? sql`(case when ${inner} is null then '{}'::jsonb else ${pair} end)` : pair;
    });
    return parts.length === 0 ? sql`'{}'::jsonb` : sql.join(parts, sql` || `);
  }
  return value;
}

/**
 * `jsonbView` in JavaScript, for documents the server already holds (the embedded engine's list,
 * whose rows come back parsed): a function made once per schema that keeps only the keys `schema`
 * lists, at every depth, fills `.default()`s where a key is absent, leaves an optional key absent and
 * null null, and leaves records, arrays of plain values and plain values as they are. What zod's
 * response check would answer for a document of the right types, without checking the types.
 */
export function jsonShape<T>(schema: z.ZodType<T>): (value: T) => T;
export function jsonShape(schema: z.core.$ZodType): (value: unknown) => unknown;
export function jsonShape(schema: z.core.$ZodType): (value: unknown) => unknown {
  if (!shapes(schema)) return (value) => value;
  if (schema instanceof z.ZodDefault) {
    const inner = jsonShape(schema.unwrap());
    const fallback = JSON.stringify(schema.def.defaultValue);
    return (value) => (value === undefined ? JSON.parse(fallback) : inner(value));
  }
  if (schema instanceof z.ZodOptional) return jsonShape(schema.unwrap());
  if (schema instanceof z.ZodNullable) {
    const inner = jsonShape(schema.unwrap());
    return (value) => (value === null ? null : inner(value));
  }
  if (schema instanceof z.ZodArray) {
    const element = jsonShape(schema.element);
    return (value) => (Array.isArray(value) ? value.map(element) : value);
  }
  if (schema instanceof z.ZodObject) {
    const fields = Object.entries(schema.shape).map(
      ([key, field]) => [key, jsonShape(field), mayBeAbsent(field)] as const,
    );
    return (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const document = value as Record<string, unknown>;
      const shaped: Record<string, unknown> = {};
      for (const [key, shape, optional] of fields) {
        const item = Object.hasOwn(document, key) ? document[key] : undefined;
        if (item === undefined && optional) continue;
        shaped[key] = shape(item);
      }
      return shaped;
    };
  }
  return (value) => value;
}

/** Whether shaping a value of `schema` does anything: objects, defaults, or arrays of them. */
function shapes(schema: z.core.$ZodType): boolean {
  if (schema instanceof z.ZodObject || schema instanceof z.ZodDefault) return true;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return shapes(schema.unwrap());
  if (schema instanceof z.ZodArray) return shapes(schema.element);
  return false;
}

function mayBeAbsent(schema: z.core.$ZodType): boolean {
  return schema instanceof z.ZodOptional || (schema instanceof z.ZodNullable && mayBeAbsent(schema.unwrap()));
}

/** `json_build_object` of named values, in the order given (plain json keeps it). */
export function jsonObject(pairs: ReadonlyArray<readonly [string, SQL]>): SQL {
  return sql`json_build_object(${sql.join(
    pairs.map(([key, value]) => sql`${sql.raw(literal(key))}, ${value}`),
    sql`, `,
  )})`;
}

/** A key of our own schemas as an SQL text literal (keys are identifiers: no quote can occur, checked anyway). */
function literal(key: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`json-view: unexpected key ${JSON.stringify(key)}`);
  return `'${key}'`;
}

/**
 * Paths of keys in `value` that `schema` does not list (objects at any depth, array elements
 * included; records and unknown values take any key). Empty when the answer is one zod's parse
 * would have left as it is.
 */
export function unlistedKeys(schema: z.core.$ZodType, value: unknown, path = '$'): string[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return value === undefined || value === null ? [] : unlistedKeys(schema.unwrap(), value, path);
  }
  if (schema instanceof z.ZodArray) {
    return Array.isArray(value) ? value.flatMap((item, i) => unlistedKeys(schema.element, item, `${path}[${i}]`)) : [];
  }
  if (schema instanceof z.ZodObject && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const shape = schema.shape;
    return Object.entries(value).flatMap(([key, item]) => {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      return field ? unlistedKeys(field, item, `${path}.${key}`) : [`${path}.${key}`];
    });
  }
  return [];
}
