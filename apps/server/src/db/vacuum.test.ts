import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { queryRows } from './database.js';
import { vacuumChangedTables } from './vacuum.js';

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(() => app.close());

describe('vacuum', () => {
  it('vacuums and analyzes a table once enough of it changed, and leaves quiet tables alone', async () => {
    const { db } = app.database;
    await db.execute(sql`INSERT INTO audit_log (actor_id, actor_name, action, object_type)
      SELECT 'admin', 'admin', 'bench', 'project' FROM generate_series(1, 2000)`);
    expect(await vacuumChangedTables(db)).toEqual(['audit_log']);
    const [stats] = await queryRows<{ analyzed: string | null }>(
      db,
      sql`SELECT COALESCE(last_analyze, last_autoanalyze)::text AS analyzed FROM pg_stat_user_tables WHERE relname = 'audit_log'`,
    );
    expect(stats?.analyzed).not.toBeNull();
    expect(await vacuumChangedTables(db)).toEqual([]);
  });
});
