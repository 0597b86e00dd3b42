import { sql } from 'drizzle-orm';
import { type Database, queryRows } from './database.js';

/** Tables whose plans matter (lists and counts) and that grow without bound. */
const TABLES = ['projects', 'users', 'audit_log'];
const MIN_CHANGES = 1000;

/**
 * PGlite has no autovacuum worker: without this its tables are never analyzed (plans fall back to
 * sequential scans) nor vacuumed (index-only scans must visit the heap). Run on the clean-up timer;
 * a table is processed once a tenth of it (at least 1000 rows) changed since the last time.
 */
export async function vacuumChangedTables(db: Database): Promise<string[]> {
  // Statistics reach pg_stat_* lazily; ask for this backend's pending counts first.
  await db.execute(sql`SELECT pg_stat_force_next_flush()`);
  const rows = await queryRows<{ relname: string; live: string; changed: string }>(
    db,
    sql`SELECT relname, n_live_tup AS live, GREATEST(n_mod_since_analyze, n_ins_since_vacuum) AS changed
        FROM pg_stat_user_tables WHERE relname IN (${sql.join(
          TABLES.map((t) => sql`${t}`),
          sql`, `,
        )})`,
  );
  const done: string[] = [];
  for (const row of rows) {
    if (Number(row.changed) < Math.max(MIN_CHANGES, Number(row.live) / 10)) continue;
    // Table names come from the constant list above, never from input.
    await db.execute(sql.raw(`VACUUM (ANALYZE) "${row.relname}"`));
    done.push(row.relname);
  }
  return done;
}
