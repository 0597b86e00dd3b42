import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { withClient } from './scratch-postgres.js';

/**
 * Reuse of a test worker's databases (embedded PGlite instances, or databases on the test PostgreSQL). Starting a migrated PGlite costs 0.7–1.5 s of CPU,
 * often more than the test that asks for it; emptying one that a finished test app used back to its
 * migrated state costs a small part of that. The state is what a fresh instance holds: the rows the
 * migrations left, no index or extended statistics a test added (the table designer's record
 * indexes), sequences where they were, no planner statistics, no activity counters, a clean session.
 * An instance that was closed, or holds anything a reset does not know how to undo (a new table), is
 * not reused. Triggers and functions a test added are dropped.
 */

/** What the migrated database holds, read once from the worker's first (untouched) instance. */
export interface Baseline {
  tables: string[];
  /** Every relation but indexes (tables, sequences, views…), with its kind: a new one is not undone. */
  relations: string[];
  triggers: string[];
  functions: string[];
  rows: Array<{ table: string; json: string }>;
  indexes: string[];
  statistics: string[];
  sequences: Array<{ name: string; lastValue: string | null }>;
}

/** Every pool of this test file's module graph, for `drainPools`. */
const pools = new Set<{ drain(): Promise<void> }>();

/** Closes or drops every pool's idle databases (the end of a test file: none outlives the run). */
export async function drainPools(): Promise<void> {
  for (const pool of pools) await pool.drain();
}

/** The few calls a reset makes, over PGlite or a node-postgres client alike. */
export interface SqlRunner {
  exec(statement: string): Promise<unknown>;
  rows<T>(query: string, params?: unknown[]): Promise<T[]>;
  transaction(work: (tx: SqlRunner) => Promise<void>): Promise<void>;
}

function pgliteRunner(client: PGlite | Transaction): SqlRunner {
  return {
    exec: (statement) => client.exec(statement),
    rows: async <T>(query: string, params?: unknown[]) => (await client.query<T>(query, params)).rows,
    transaction: async (work) => {
      if (!('transaction' in client)) throw new Error('no nested transaction');
      await client.transaction((tx) => work(pgliteRunner(tx)));
    },
  };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function names(client: SqlRunner, query: string): Promise<string[]> {
  return (await client.rows<{ name: string }>(query)).map((row) => row.name).sort();
}

const TABLES = `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
const INDEXES = `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'`;
const RELATIONS = `SELECT relname || ':' || relkind::text AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind NOT IN ('i', 'I')`;
/** Triggers written to drop: `"name" ON "table"`. */
const TRIGGERS = `SELECT quote_ident(t.tgname) || ' ON ' || quote_ident(c.relname) AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace`;
const FUNCTIONS = `SELECT p.oid::regprocedure::text AS name FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace`;
const STATISTICS = `SELECT stxname AS name FROM pg_statistic_ext s JOIN pg_namespace n ON n.oid = s.stxnamespace WHERE n.nspname = 'public'`;

export async function readBaseline(client: SqlRunner): Promise<Baseline> {
  const tables = await names(client, TABLES);
  const rows: Baseline['rows'] = [];
  for (const table of tables) {
    const found = await client.rows<{ json: string | null }>(`SELECT json_agg(t)::text AS json FROM ${quote(table)} t`);
    const json = found[0]?.json;
    if (json) rows.push({ table, json });
  }
  const sequences = await client.rows<{ name: string; lastValue: string | null }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text AS "lastValue" FROM pg_sequences WHERE schemaname = 'public'`,
  );
  return {
    tables,
    relations: await names(client, RELATIONS),
    triggers: await names(client, TRIGGERS),
    functions: await names(client, FUNCTIONS),
    rows,
    indexes: await names(client, INDEXES),
    statistics: await names(client, STATISTICS),
    sequences,
  };
}

/**
 * Brings a used database back to the baseline; false when it cannot (it is then not reused).
 * `session`: also reset the connection's own state (PGlite's one session outlives the test app).
 */
export async function resetToBaseline(client: SqlRunner, baseline: Baseline, session: boolean): Promise<boolean> {
  if (session) {
    // A transaction a test left open would hold what follows; outside one this only warns.
    await client.exec('ROLLBACK');
    for (const statement of ['RESET ALL', 'DEALLOCATE ALL', 'UNLISTEN *', 'DISCARD TEMP', 'DISCARD SEQUENCES'])
      await client.exec(statement);
  }
  if ((await names(client, RELATIONS)).join('\n') !== baseline.relations.join('\n')) return false;
  // Triggers and functions a test added (one refusing audit inserts, say), then what they served.
  const keepTriggers = new Set(baseline.triggers);
  for (const trigger of await names(client, TRIGGERS))
    if (!keepTriggers.has(trigger)) await client.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
  const keepFunctions = new Set(baseline.functions);
  for (const fn of await names(client, FUNCTIONS))
    if (!keepFunctions.has(fn)) await client.exec(`DROP FUNCTION IF EXISTS ${fn} CASCADE`);
  const keep = new Set(baseline.indexes);
  for (const index of await names(client, INDEXES))
    if (!keep.has(index)) await client.exec(`DROP INDEX IF EXISTS ${quote(index)}`);
  const keepStatistics = new Set(baseline.statistics);
  for (const statistics of await names(client, STATISTICS))
    if (!keepStatistics.has(statistics)) await client.exec(`DROP STATISTICS IF EXISTS ${quote(statistics)}`);
  await client.transaction(async (tx) => {
    await tx.exec(`TRUNCATE ${baseline.tables.map(quote).join(', ')} RESTART IDENTITY CASCADE`);
    for (const { table, json } of baseline.rows)
      await tx.rows(`INSERT INTO ${quote(table)} SELECT * FROM json_populate_recordset(NULL::${quote(table)}, $1)`, [
        json,
      ]);
    for (const { name, lastValue } of baseline.sequences)
      if (lastValue !== null) await tx.rows('SELECT setval($1::regclass, $2::bigint, true)', [name, lastValue]);
    // What the planner learnt from the last test's rows, and the activity counters the vacuum reads (db/vacuum.ts).
    await tx.exec(
      `DELETE FROM pg_statistic WHERE starelid IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public')`,
    );
  });
  // Counters of the inserts above are still pending in this backend (they flush at most once a second):
  // forced out first, so the reset clears them rather than their arriving after it.
  await client.exec('SELECT pg_stat_force_next_flush()');
  await client.exec('SELECT pg_stat_reset()');
  return true;
}

/** A worker's idle instances: `acquire` reuses one (or makes one), `release` resets it for the next. */
export class PglitePool {
  private readonly idle: PGlite[] = [];
  private baseline: Promise<Baseline> | undefined;

  constructor(
    private readonly create: () => Promise<PGlite>,
    private readonly maxIdle = 2,
  ) {
    pools.add(this);
  }

  async acquire(): Promise<PGlite> {
    const reused = this.idle.pop();
    if (reused) return reused;
    const client = await this.create();
    // The worker's first instance is untouched yet: what it holds is the baseline.
    this.baseline ??= readBaseline(pgliteRunner(client));
    await this.baseline;
    return client;
  }

  async release(client: PGlite): Promise<void> {
    if (client.closed) return;
    const baseline = this.baseline ? await this.baseline : undefined;
    const reset = baseline ? await resetToBaseline(pgliteRunner(client), baseline, true).catch(() => false) : false;
    if (reset && this.idle.length < this.maxIdle) this.idle.push(client);
    else await client.close();
  }

  /** Closes the idle instances (the end of a test file). */
  async drain(): Promise<void> {
    for (const client of this.idle.splice(0)) await client.close();
  }
}

/** A node-postgres client as a runner. */
function clientRunner(client: pg.Client): SqlRunner {
  const runner: SqlRunner = {
    exec: (statement) => client.query(statement),
    rows: async <T>(query: string, params?: unknown[]) => (await client.query(query, params)).rows as T[],
    transaction: async (work) => {
      await client.query('BEGIN');
      try {
        await work(runner);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
  };
  return runner;
}

/**
 * The same on the test PostgreSQL: a database a finished test app used (its pool closed) is reset
 * from a connection of its own and handed to the worker's next test app, instead of dropped and copied
 * again from the template. A reset that waits on a lock (a connection left behind) gives up after 5 s
 * and the database is dropped.
 */
export class PostgresPool {
  private readonly idle: string[] = [];
  private baseline: Promise<Baseline> | undefined;

  constructor(
    private readonly serverUrl: string,
    private readonly create: () => Promise<string>,
    private readonly maxIdle = 2,
  ) {
    pools.add(this);
  }

  urlOf(name: string): string {
    const url = new URL(this.serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  async acquire(): Promise<string> {
    const reused = this.idle.pop();
    if (reused) return reused;
    const name = await this.create();
    this.baseline ??= withClient(this.urlOf(name), (client) => readBaseline(clientRunner(client)));
    await this.baseline;
    return name;
  }

  async release(name: string): Promise<void> {
    const baseline = this.baseline ? await this.baseline : undefined;
    const reset =
      baseline !== undefined &&
      this.idle.length < this.maxIdle &&
      (await withClient(this.urlOf(name), async (client) => {
        await client.query(`SET lock_timeout = '5s'`);
        return resetToBaseline(clientRunner(client), baseline, false);
      }).catch(() => false));
    if (reset) this.idle.push(name);
    else await this.drop(name);
  }

  /** Drops the idle databases (the end of a test file). */
  async drain(): Promise<void> {
    for (const name of this.idle.splice(0)) await this.drop(name);
  }

  private async drop(name: string): Promise<void> {
    await withClient(this.serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
