import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cappedCount, plannedRows } from './list-count.js';
import { fileTestDatabase, type Item, items } from './list-query/test-fixture.js';

const handle = fileTestDatabase();

/** `n` rows; every tenth has s = 'ten'. */
async function load(n: number): Promise<void> {
  const rows: Item[] = Array.from({ length: n }, (_, i) => ({ id: i, s: i % 10 === 0 ? 'ten' : 'other', n: i % 3 }));
  await handle.load(rows);
  await handle.db.execute(sql`analyze list_query_items`);
}

describe(`capped counts (${process.env.GANTRY_TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('is exact up to the cap, the cap itself included', async () => {
    await load(500);
    expect(await cappedCount(handle.db, items, undefined, 500)).toEqual({ count: 500, estimated: false });
    expect(await cappedCount(handle.db, items, sql`${items.s} = 'ten'`, 50)).toEqual({ count: 50, estimated: false });
    expect(await cappedCount(handle.db, items, sql`${items.n} = 1`, 10_000)).toEqual({
      count: 167,
      estimated: false,
    });
    expect(await cappedCount(handle.db, items, sql`false`, 10)).toEqual({ count: 0, estimated: false });
  });

  it("answers the planner's estimate above the cap, never below cap + 1", async () => {
    await load(2000);
    const all = await cappedCount(handle.db, items, undefined, 100);
    expect(all.estimated).toBe(true);
    // The statistics of 2000 analyzed rows: the estimate is the table's size.
    expect(all.count).toBe(2000);
    const tenth = await cappedCount(handle.db, items, sql`${items.s} = 'ten'`, 100);
    expect(tenth).toEqual({ count: 200, estimated: true });
    // The planner guesses 1 row for the correlated condition (200 match): raised to cap + 1.
    const correlated = sql`${items.s} = 'ten' and ${items.id} % 10 = 0`;
    expect(await plannedRows(handle.db, sql`select 1 from list_query_items where ${correlated}`)).toBeLessThan(150);
    expect(await cappedCount(handle.db, items, correlated, 150)).toEqual({ count: 151, estimated: true });
  });

  it("reads the planner's row estimate of a statement", async () => {
    await load(1000);
    expect(await plannedRows(handle.db, sql`select 1 from list_query_items`)).toBe(1000);
    expect(await plannedRows(handle.db, sql`select 1 from list_query_items where ${items.s} = 'ten'`)).toBe(100);
  });
});
