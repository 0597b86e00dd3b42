import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { PGLITE_EXTENSIONS } from './pglite-options.js';
import * as schema from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Advisory lock id held while migrating PostgreSQL (any constant shared by all processes). */
const MIGRATION_LOCK = 0x6761_6e74;

/**
 * Opens the database named by the config and applies the checked-in migrations: PostgreSQL when a
 * URL is given, otherwise embedded PGlite in `dataDir` (or in memory when dataDir is null).
 */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir: string | null;
  /** PGlite's shared_buffers; its default (128MB) is most of an idle server's memory. */
  pgliteSharedBuffers?: string;
}): Promise<DatabaseHandle> {
  if (options.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection dropped by the server must not crash the process; the pool replaces it.
    pool.on('error', (error) => console.warn(`PostgreSQL idle connection error: ${error.message}`));
    const db = drizzle({ client: pool, schema });
    // Several server processes may start together: one migrates at a time.
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(db, { migrationsFolder });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      lock.release();
    }
    return { db: db as unknown as Database, engine: 'postgres', close: once(() => pool.end()) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const postgresqlconf = options.pgliteSharedBuffers ? [`shared_buffers=${options.pgliteSharedBuffers}`] : [];
  return usePglite(
    new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      postgresqlconf,
      extensions: PGLITE_EXTENSIONS,
    }),
  );
}

/** Wraps an open PGlite (tests pass clones of a migrated template) and brings it up to date. */
export async function usePglite(client: PGliteInterface): Promise<DatabaseHandle> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const db = drizzle({ client: client as PGlite, schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Database, engine: 'pglite', close: once(() => client.close()) };
}

/** Closing twice is harmless (the app's onClose and a test may both close). */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}

/** Rows of a raw SQL statement; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
