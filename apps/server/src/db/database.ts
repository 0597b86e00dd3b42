import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type { Pool, PoolConfig } from 'pg';
import { z } from 'zod';
import { Admission, type AdmissionPolicy } from './admission.js';
import { admittedPool } from './admitted-pool.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { BACKGROUND_APPLICATION, SOCKET_PORT } from './pglite-host-contract.js';
import type { RowsResultHKT } from './rows-result.js';
import type * as schema from './schema.js';

export type Database = PgDatabase<RowsResultHKT, typeof schema>;

/** Streams what a `COPY (…) TO STDOUT` statement writes, chunk by chunk. */
export type CopyOut = (statement: string) => AsyncIterable<Buffer>;

/** Sends `data` to a `COPY … FROM STDIN` statement; answers the rows it wrote. */
export type CopyIn = (statement: string, data: Buffer) => Promise<number>;

/** Longest statement, by kind of work: a request's, and long work's (vacuum, backups). */
export interface StatementLimits {
  requestMs: number;
  backgroundMs: number;
}

export const DEFAULT_STATEMENT_LIMITS: StatementLimits = { requestMs: 10_000, backgroundMs: 15 * 60_000 };

/** What /readyz says of the database. */
export type DatabaseStatus = 'ready' | 'busy' | 'starting' | 'restarting' | 'down' | 'stopped';

/** A connection pool now (node-postgres' own counts), for the metrics. */
export interface PoolStats {
  pool: 'request' | 'background';
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DatabaseHandle {
  /** For requests: each statement is stopped after `limits.requestMs`. */
  db: Database;
  /** For long work (vacuum, backups): statements may run `limits.backgroundMs`. */
  background: Database;
  engine: 'pglite' | 'postgres';
  limits: StatementLimits;
  /** Whether the database answers now, within `timeoutMs`. */
  status(timeoutMs: number): Promise<DatabaseStatus>;
  /** The embedded engine's process, when the engine is PGlite run by the server. */
  embedded?: EmbeddedEngine;
  /**
   * PostgreSQL only: the output of a `COPY … TO STDOUT` statement, streamed on a background
   * connection (held until the stream ends, dropped if it is left early).
   */
  copyOut?: CopyOut;
  /** PostgreSQL only: `COPY … FROM STDIN` on a background connection. */
  copyIn?: CopyIn;
  /** Set when the embedded engine last stopped on its own (a runaway statement, a crash). */
  lastStop?(): { at: number; reason: 'statement-limit' | 'crashed'; limitMs?: number } | undefined;
  /** The request and background pools now (absent for an in-process PGlite: tests). */
  pools?(): PoolStats[];
  /** Fair sharing of the request pool among tenants (absent for an in-process PGlite: tests). */
  admission?: Admission;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Advisory lock id held while migrating PostgreSQL (any constant shared by all processes). */
const MIGRATION_LOCK = 0x6761_6e74;
/** A transaction left open this long by a request is ended by PostgreSQL. */
const IDLE_IN_TRANSACTION_MS = 60_000;
const POOL_END_TIMEOUT_MS = 5_000;
/**
 * The request pool's sharing among tenants (admission.ts). The embedded engine runs one statement
 * at a time: four are sent at once, two at most of one tenant, so the engine never waits for a
 * tenant's next statement's round trip, and another tenant always has a slot; its process runs the
 * waiting statements tenant by tenant (the one served longest ago first: `pglite-host.ts`), so a
 * statement never runs after more than one of another tenant's. PostgreSQL runs them side by side: a
 * tenant may hold 8 of the pool's 10 connections.
 */
const REQUEST_POOL: Record<'pglite' | 'postgres', AdmissionPolicy> = {
  pglite: { slots: 4, share: 2 },
  postgres: { slots: 10, share: 8 },
};

/** A database being opened: its handle at once, usable once `ready` has resolved. */
export interface OpeningDatabase {
  handle: DatabaseHandle;
  /**
   * The engine started (PGlite) and the checked-in migrations applied. Nothing may use the handle
   * before; on failure the handle is closed already.
   */
  ready: Promise<void>;
}

/**
 * Opens the database named by the config and applies the checked-in migrations: PostgreSQL when a
 * URL is given, otherwise embedded PGlite in `dataDir`, run in its own process and reached through
 * the same driver (node-postgres) over a private Unix socket.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { handle, ready } = await startDatabase(options);
  await ready;
  return handle;
}

export interface DatabaseOptions {
  url?: string | undefined;
  dataDir: string;
  /** PGlite's shared_buffers; its default (128MB) is most of an idle server's memory. */
  pgliteSharedBuffers?: string;
  limits?: StatementLimits;
  onLog?: (message: string) => void;
}

/**
 * `openDatabase` in two steps, so that a start can build the server while the embedded engine's
 * process comes up: the handle (its pools connect on first use) as soon as the drivers are loaded,
 * and `ready` when the database may be used.
 */
export async function startDatabase(options: DatabaseOptions): Promise<OpeningDatabase> {
  const limits = options.limits ?? DEFAULT_STATEMENT_LIMITS;
  const onLog = options.onLog ?? ((message: string) => console.warn(message));
  if (options.url) {
    const connection = { connectionString: options.url };
    return usePools('postgres', limits, connection, onLog, {
      // PostgreSQL stops each statement itself; the limit travels in the connection's startup.
      request: { statement_timeout: limits.requestMs },
      background: { statement_timeout: limits.backgroundMs },
    });
  }
  mkdirSync(options.dataDir, { recursive: true });
  const engine = new EmbeddedEngine(
    {
      dataDir: options.dataDir,
      sharedBuffers: options.pgliteSharedBuffers ?? '16MB',
      limitsMs: { request: limits.requestMs, background: limits.backgroundMs },
    },
    onLog,
  );
  const starting = engine.start();
  // Awaited by `ready`; a failure meanwhile is not an unhandled rejection.
  starting.catch(() => undefined);
  // PGlite cannot stop a statement: the host's watchdog does (it restarts the engine).
  const connection = { host: engine.socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
  return usePools('pglite', limits, connection, onLog, { request: {}, background: {} }, { engine, starting });
}

async function usePools(
  engine: 'pglite' | 'postgres',
  limits: StatementLimits,
  connection: PoolConfig,
  onLog: (message: string) => void,
  kinds: { request: PoolConfig; background: PoolConfig },
  host?: { engine: EmbeddedEngine; starting: Promise<void> },
): Promise<OpeningDatabase> {
  const embedded = host?.engine;
  // Loaded once the engine's process is forked (startDatabase), which so starts before the drivers
  // and the schema are read.
  const [{ default: pg }, { drizzle }, schema] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('./schema.js'),
  ]);
  const pools: Pool[] = [];
  const admission = new Admission(REQUEST_POOL[engine]);
  const pool = (config: PoolConfig, admitted?: Admission): Pool => {
    const options = { ...connection, idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS, ...config };
    const created = admitted
      ? admittedPool(pg.Pool, admitted, options, { tagTenants: engine === 'pglite' })
      : new pg.Pool(options);
    // A dropped connection (server restart, engine restart) must not crash the process; the pool
    // replaces it, and the query that used it fails with a clear error.
    created.on('error', (error) => onLog(`database connection error: ${error.message}`));
    // A connection lost while checked out (between two statements of a transaction) emits its
    // error on the client, where the pool listens no more: without this it would crash the process.
    created.on('connect', (client) => client.on('error', () => undefined));
    pools.push(created);
    return created;
  };
  const requests = pool({ max: admission.policy.slots, application_name: 'gantry', ...kinds.request }, admission);
  const long = pool({ max: 2, application_name: BACKGROUND_APPLICATION, ...kinds.background });
  const requestDb = drizzle({ client: requests, schema });
  const backgroundDb = drizzle({ client: long, schema });
  const db: Database = requestDb;
  const background: Database = backgroundDb;
  const close = once(async () => {
    // A connection never given back (a statement still waiting) must not hold the shutdown.
    const ended = Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    await withTimeout(ended, POOL_END_TIMEOUT_MS, undefined);
    await embedded?.stop();
  });
  const ready = (async () => {
    try {
      await host?.starting;
      if (embedded?.creates || !(await migrated(long))) {
        const { migrate } = await import('drizzle-orm/node-postgres/migrator');
        // Several server processes may start together: one migrates at a time.
        const lock = await long.connect();
        try {
          await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migrate(backgroundDb, { migrationsFolder });
        } finally {
          await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
          lock.release();
        }
      }
      if (embedded?.creates) {
        // The connections to the creating process end with it; the pools open new ones.
        await Promise.all(pools.map((p) => drainIdle(p)));
        await embedded.recycle();
      }
    } catch (error) {
      await close();
      throw error;
    }
  })();
  ready.catch(() => undefined); // the caller awaits it
  const status = async (timeoutMs: number): Promise<DatabaseStatus> => {
    // The engine process first (restarting? down?), then a statement: a long one holding the
    // embedded engine's one session, or every connection of PostgreSQL's pool, makes it 'busy'.
    if (embedded) {
      const process = await embedded.ping(timeoutMs);
      if (process !== 'ready') return process;
    }
    return withTimeout(
      requests.query('SELECT 1').then(
        () => 'ready' as const,
        () => 'down' as const,
      ),
      timeoutMs,
      'busy',
    );
  };
  // One COPY holds the one session of the embedded engine: there, reads stay in bounded statements.
  const copyOut: CopyOut | undefined =
    engine === 'postgres'
      ? async function* (statement) {
          const { to } = await import('pg-copy-streams');
          const client = await long.connect();
          let finished = false;
          try {
            yield* client.query(to(statement));
            finished = true;
          } finally {
            // Left early, the connection is still in the middle of the COPY: it is closed, not reused.
            client.release(!finished);
          }
        }
      : undefined;
  const copyIn: CopyIn | undefined =
    engine === 'postgres'
      ? async (statement, data) => {
          const { from } = await import('pg-copy-streams');
          const client = await long.connect();
          let finished = false;
          try {
            const copy = client.query(from(statement));
            await pipeline(Readable.from([data]), copy);
            finished = true;
            return copy.rowCount;
          } finally {
            // A refused COPY: the connection is closed, not reused.
            client.release(!finished);
          }
        }
      : undefined;
  const stats = (pool: 'request' | 'background', of: Pool): PoolStats => ({
    pool,
    total: of.totalCount,
    idle: of.idleCount,
    waiting: of.waitingCount,
    max: of.options.max,
  });
  const handle: DatabaseHandle = {
    db,
    background,
    engine,
    limits,
    status,
    pools: () => [stats('request', requests), stats('background', long)],
    admission,
    ...(copyOut ? { copyOut } : {}),
    ...(copyIn ? { copyIn } : {}),
    ...(embedded ? { embedded, lastStop: () => embedded.lastStop } : {}),
    close,
  };
  return { handle, ready };
}

/**
 * Wraps an in-process PGlite (tests pass clones of a migrated template) and brings it up to date.
 * The server itself never runs PGlite in its own process (see `openDatabase`).
 */
export async function usePglite(client: PGlite): Promise<DatabaseHandle> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const schema = await import('./schema.js');
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return {
    db,
    background: db,
    engine: 'pglite',
    limits: DEFAULT_STATEMENT_LIMITS,
    status: (timeoutMs) =>
      withTimeout(
        client.query('SELECT 1').then(
          () => 'ready' as const,
          () => 'down' as const,
        ),
        timeoutMs,
        'busy',
      ),
    close: once(() => client.close()),
  };
}

const journalSchema = z.object({ entries: z.array(z.object({ when: z.number() })) });

/**
 * Whether every checked-in migration is applied, by drizzle's own rule (those newer than the last
 * applied one's `created_at` would be): one statement, where drizzle's `migrate` runs six (its schema
 * and table created if missing, the lock, an empty transaction) and reads every migration's SQL; on a
 * cold embedded engine that was ~0.1 s of each start. False when the table is missing (a new database).
 */
async function migrated(pool: Pool): Promise<boolean> {
  const journal = journalSchema.parse(
    JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')),
  );
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const { rows } = await pool.query<{ last: string | null }>(
      'SELECT max(created_at) AS last FROM "drizzle"."__drizzle_migrations"',
    );
    return Number(rows[0]?.last ?? 0) >= newest;
  } catch {
    return false;
  }
}

/** Closes the pool's idle connections (none is in use while the database opens). */
async function drainIdle(pool: Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
  for (const client of clients) client.release(true);
}

/** `promise`'s value, or `fallback` when it takes longer than `ms` or fails. */
function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    const settle = (value: T) => {
      clearTimeout(timer);
      resolve(value);
    };
    promise.then(settle, () => settle(fallback));
  });
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
  const result = await db.execute<Record<string, unknown> & T>(query);
  return result.rows;
}
