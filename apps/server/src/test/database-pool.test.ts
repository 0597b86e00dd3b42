import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { PglitePool } from './database-pool.js';
import { createTestApp, migratedPglite } from './test-app.js';

/** What a test could see of the database besides its own rows: every table's rows, the schema's extras, counters. */
async function fingerprint(client: PGlite) {
  const one = async <T>(query: string) => (await client.query<T>(query)).rows;
  const tables = (await one<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`))
    .map((row) => row.name)
    .sort();
  const rows: Record<string, string> = {};
  for (const table of tables)
    rows[table] =
      (await one<{ json: string | null }>(`SELECT json_agg(t ORDER BY t::text)::text AS json FROM "${table}" t`))[0]
        ?.json ?? '';
  return {
    rows,
    indexes: await one(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
    triggers: await one(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`),
    functions: await one(
      `SELECT oid::regprocedure::text AS f FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`,
    ),
    statistics: await one(`SELECT stxname FROM pg_statistic_ext ORDER BY 1`),
    sequences: await one(`SELECT sequencename, last_value FROM pg_sequences ORDER BY 1`),
    plannerStatistics: await one(
      `SELECT count(*)::int AS n FROM pg_statistic WHERE starelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)`,
    ),
    changed: await one(`SELECT relname, n_mod_since_analyze FROM pg_stat_user_tables WHERE n_mod_since_analyze > 0`),
    settings: await one(`SELECT current_setting('statement_timeout') AS timeout, current_setting('work_mem') AS mem`),
  };
}

describe('the test workers’ pool of embedded databases', () => {
  const pool = new PglitePool(migratedPglite, 1);
  const made: PGlite[] = [];
  afterAll(async () => {
    for (const client of made) if (!client.closed) await client.close();
  });

  it('hands back a used instance exactly as a freshly migrated one, and never one that was closed or changed beyond a reset', async () => {
    const first = await pool.acquire();
    made.push(first);
    const pristine = await fingerprint(first);

    // Everything a test may leave: rows (a serial advanced), an index and statistics of its own,
    // planner statistics, activity counters, session settings, an open transaction.
    await first.exec(`
      INSERT INTO audit_log (actor_id, actor_name, action, object_type)
        SELECT 'admin', 'admin', 'drill', 'project' FROM generate_series(1, 500);
      CREATE INDEX audit_drill_idx ON audit_log ((actor_name || action));
      CREATE STATISTICS audit_drill_stats ON ((actor_name || action)) FROM audit_log;
      CREATE FUNCTION drill_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN new; END $$;
      CREATE TRIGGER drill_refuse BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION drill_refuse();
      ANALYZE audit_log;
      SET statement_timeout = 1234;
      SET work_mem = '5MB';
      BEGIN;
      DELETE FROM audit_log WHERE id < 10;`);
    expect(await fingerprint(first)).not.toEqual(pristine);
    await pool.release(first);

    const reused = await pool.acquire();
    expect(reused).toBe(first);
    expect(await fingerprint(reused)).toEqual(pristine);
    // The serial starts again where a fresh database's does.
    const [row] = (
      await reused.query<{ id: string }>(
        `INSERT INTO audit_log (actor_id, actor_name, action, object_type) VALUES ('a', 'a', 'x', 'project') RETURNING id::text`,
      )
    ).rows;
    expect(row?.id).toBe('1');
    await pool.release(reused);

    // A table or view a reset would not know: the instance is closed, not reused.
    const again = await pool.acquire();
    await again.exec('CREATE VIEW stray AS SELECT 1 AS one');
    await pool.release(again);
    expect(again.closed).toBe(true);
    const next = await pool.acquire();
    made.push(next);
    expect(next).not.toBe(again);

    // An instance its test closed is dropped too.
    await next.close();
    await pool.release(next);
    const last = await pool.acquire();
    made.push(last);
    expect(last).not.toBe(next);
    expect(await fingerprint(last)).toEqual(pristine);
  });

  it('gives a test app nothing of the one before it', async () => {
    const first = await createTestApp();
    await first.registerAdmin();
    const token = await first.login();
    expect((await first.call('GET', '/portal/rest/spm/login/current/user', token)).statusCode).toBe(200);
    await first.close();
    const second = await createTestApp();
    try {
      // The administrator of the first app is not there: registering succeeds again, the old token is refused.
      expect((await second.call('GET', '/portal/rest/spm/login/current/user', token)).statusCode).toBe(401);
      await second.registerAdmin();
    } finally {
      await second.close();
    }
  });
});
