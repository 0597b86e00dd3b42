import { isRecord } from '@gantry/shared';
import { count, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgTable } from 'drizzle-orm/pg-core';
import type { RowsResultHKT } from '../db/rows-result.js';

/** A drizzle database on either engine (the app's, or a test's without the schema). */
type AnyDatabase<TSchema extends Record<string, unknown>> = PgDatabase<RowsResultHKT, TSchema>;

/** The total of a list: the `count` header, and whether it is the planner's estimate. */
export interface ListTotal {
  count: number;
  estimated: boolean;
}

/** Totals up to this are exact; above it they are estimated (and never said to be below it). */
export const COUNT_CAP = 10_000;

/**
 * Counts the rows of `table` that `where` keeps, reading at most `cap + 1` of them
 * (`SELECT count(*) FROM (SELECT 1 … LIMIT cap + 1)`): exact up to the cap, so a total costs at
 * most about as much as reading `cap` rows, whatever the table's size. Above the cap the answer is
 * the planner's row estimate for the whole filter (`EXPLAIN (FORMAT JSON)`, no rows read), raised
 * to `cap + 1` when the planner guesses lower than what was just seen.
 */
export async function cappedCount<TSchema extends Record<string, unknown>>(
  db: AnyDatabase<TSchema>,
  table: PgTable,
  where: SQL | undefined,
  cap: number = COUNT_CAP,
): Promise<ListTotal> {
  const capped = db
    .select({ one: sql`1`.as('one') })
    .from(table)
    .where(where)
    .limit(cap + 1)
    .as('capped');
  const [row] = await db.select({ n: count() }).from(capped);
  const seen = row?.n ?? 0;
  if (seen <= cap) return { count: seen, estimated: false };
  const planned = await plannedRows(db, db.select({ one: sql`1` }).from(table).where(where).getSQL());
  return { count: Math.max(cap + 1, planned), estimated: true };
}

/** The planner's estimate of the rows a query returns (its top plan node's "Plan Rows"). */
export async function plannedRows<TSchema extends Record<string, unknown>>(
  db: AnyDatabase<TSchema>,
  query: SQL,
): Promise<number> {
  const { rows } = await db.execute(sql`explain (format json) ${query}`);
  const [row] = rows;
  const raw = row ? Object.values(row)[0] : undefined;
  // node-postgres and PGlite parse the json column; a driver that does not leaves its text.
  const plan: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const top: unknown = Array.isArray(plan) ? plan[0] : undefined;
  const planned = isRecord(top) && isRecord(top.Plan) ? top.Plan['Plan Rows'] : undefined;
  return typeof planned === 'number' && Number.isFinite(planned) ? Math.round(planned) : 0;
}
