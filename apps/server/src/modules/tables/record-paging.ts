import { createHash } from 'node:crypto';
import { isRecord } from '@gantry/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { projectDocuments } from '../../db/schema.js';
import { badQuery } from '../../lib/list-query/bad-query.js';
import { dataFieldSql } from './record-index.js';

/**
 * Keyset paging of a table's records (issue 16 §2 "large tables page by keys"). The list's order is
 * its sort keys then the record id (list-query.ts); a page's last row gives the values of those keys,
 * and the next page is every row strictly after them in that order, found through the index of the
 * leading key (record-index.ts) rather than by skipping rows. The values travel to the client as an
 * opaque cursor (`next-cursor` header) bound to the sort it was made for.
 *
 * NULL sorts last ascending and first descending (PostgreSQL's default), so "after" a key is:
 * ascending `k > v or k is null` (v null: nothing), descending `k < v` (v null: `k is not null`).
 */
export interface SortKey {
  name: string;
  direction: 1 | -1;
  kind: 'document' | 'time' | 'id';
  expr: SQL | AnyPgColumn;
}

const ID_COLUMN = { kind: 'id', expr: projectDocuments.id } as const;
const COLUMNS: Record<string, { kind: 'time' | 'id'; expr: AnyPgColumn }> = {
  id: ID_COLUMN,
  createTime: { kind: 'time', expr: projectDocuments.createTime },
  updateTime: { kind: 'time', expr: projectDocuments.updateTime },
};

/**
 * The keys of a list's order, from the query's `sort` as parseListQuery accepted it (none: the
 * default, createTime descending), with the id appended in the direction of the last key.
 */
export function sortKeys(sort: unknown): SortKey[] {
  // parseListQuery accepted only 1 and -1.
  const given =
    isRecord(sort) && Object.keys(sort).length > 0
      ? Object.entries(sort).map(([name, direction]) => [name, direction === -1 ? -1 : 1] as const)
      : [['createTime', -1] as const];
  const keys: SortKey[] = given.map(([name, direction]) => {
    const column = COLUMNS[name];
    return column
      ? { name, direction, ...column }
      : { name, direction, kind: 'document' as const, expr: dataFieldSql(name) };
  });
  if (!keys.some((key) => key.name === 'id'))
    keys.push({ name: 'id', direction: keys.at(-1)?.direction ?? 1, ...ID_COLUMN });
  return keys;
}

/** What a cursor holds: the sort it belongs to and the last row's key values (document values as jsonb text). */
interface CursorBody {
  s: string;
  k: Array<string | null>;
}

function signature(keys: SortKey[]): string {
  return createHash('sha256')
    .update(keys.map((key) => `${key.name}:${key.direction}`).join(','))
    .digest('base64url')
    .slice(0, 12);
}

export function encodeCursor(keys: SortKey[], values: Array<string | null>): string {
  const body: CursorBody = { s: signature(keys), k: values };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The key values of a cursor, or a 400 naming what is wrong with it. */
export function decodeCursor(keys: SortKey[], cursor: unknown): Array<string | null> {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 8_000 || !/^[\w-]+$/.test(cursor))
    throw badQuery('cursor must be the next-cursor header of a previous page');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badQuery('cursor must be the next-cursor header of a previous page');
  }
  const { s, k } = isRecord(body) ? body : {};
  if (
    !Array.isArray(k) ||
    k.length !== keys.length ||
    !k.every(
      (value, i) => value === null || (typeof value === 'string' && value.length <= 2_000 && validKey(keys[i], value)),
    )
  )
    throw badQuery('cursor must be the next-cursor header of a previous page');
  if (s !== signature(keys)) throw badQuery('the cursor was made for another sort: start again from the first page');
  return k;
}

function validKey(key: SortKey | undefined, value: string): boolean {
  if (!key) return false;
  if (key.kind === 'time') return !Number.isNaN(Date.parse(value));
  if (key.kind === 'document') {
    try {
      JSON.parse(value);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

function bound(key: SortKey, value: string): SQL {
  if (key.kind === 'document') return sql`${value}::jsonb`;
  if (key.kind === 'time') return sql`${value}::timestamptz`;
  return sql`${value}`;
}

/** Rows strictly after the cursor's position in the order of `keys`. */
export function afterCursor(keys: SortKey[], values: Array<string | null>): SQL {
  let condition: SQL | undefined;
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i];
    if (!key) continue;
    const value = values[i] ?? null;
    const { expr } = key;
    let after: SQL | undefined;
    let equal: SQL;
    if (value === null) {
      after = key.direction === 1 ? undefined : sql`${expr} is not null`;
      equal = sql`${expr} is null`;
    } else {
      const v = bound(key, value);
      after =
        key.direction === -1
          ? sql`${expr} < ${v}`
          : key.kind === 'document'
            ? sql`(${expr} > ${v} or ${expr} is null)`
            : sql`${expr} > ${v}`;
      equal = sql`${expr} = ${v}`;
    }
    const tail = condition === undefined ? undefined : sql`(${equal} and ${condition})`;
    condition = after && tail ? sql`(${after} or ${tail})` : (after ?? tail ?? sql`false`);
  }
  const first = keys[0];
  const firstValue = values[0] ?? null;
  // The leading key's range on its own too, so the index scan starts at the cursor.
  if (first && firstValue !== null && (first.direction === -1 || first.kind !== 'document'))
    return sql`(${first.expr} ${sql.raw(first.direction === -1 ? '<=' : '>=')} ${bound(first, firstValue)} and ${condition})`;
  if (first && firstValue === null && first.direction === 1) return sql`(${first.expr} is null and ${condition})`;
  return condition ?? sql`true`;
}

/** The last row's key values as the cursor stores them (documents' as jsonb text, read by the query). */
export function keyValues(
  keys: SortKey[],
  row: { id: string; createTime: Date; updateTime: Date },
  documentValues: Array<string | null>,
): Array<string | null> {
  return keys.map((key, i) => {
    if (key.kind === 'document') return documentValues[i] ?? null;
    if (key.name === 'id') return row.id;
    return (key.name === 'createTime' ? row.createTime : row.updateTime).toISOString();
  });
}

/** The SQL selecting the document keys' values as jsonb text (one json array; null for other keys). */
export function keyValuesSql(keys: SortKey[]): SQL {
  return sql`json_build_array(${sql.join(
    keys.map((key) => (key.kind === 'document' ? sql`(${key.expr})::text` : sql`null::text`)),
    sql`, `,
  )})`;
}
