/**
 * The SQL the server runs, captured from its own code, and that SQL run directly: what the `data` and
 * `projects` sections compare the server with.
 */
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Database, DatabaseHandle } from '../apps/server/src/db/database.js';
import * as schema from '../apps/server/src/db/schema.js';
import { CONNECTIONS, licenceKey, scratch, type Target } from './lib.js';

export type Engine = 'pglite' | 'postgres';

/** One statement the server sent (drizzle calls `pool.query(config, params)`). */
export interface Captured {
  config: unknown;
  text: string;
  params: unknown[];
  /** Sent while an earlier statement of the same request was still running (Promise.all in the server). */
  parallel: boolean;
}

/** A request as `app.inject` takes it. */
export interface CaptureRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/**
 * The statements of one steady-state request per key: the server's code (`buildApp`) in this process
 * on a node-postgres pool of `poolSize` whose `query` is tapped; each request three times, the third
 * kept (session, licence, project caches and totals warm, as under load). Answers the statements and
 * the third answer.
 */
export async function captureStatements<K extends string>(
  engine: Engine,
  connection: pg.PoolConfig,
  options: { poolSize: number; dataDir: string },
  keys: readonly K[],
  requestOf: (key: K) => CaptureRequest,
): Promise<Record<K, { statements: Captured[]; answer: string }>> {
  const pool = new pg.Pool({ ...connection, max: options.poolSize, application_name: 'gantry-bench-capture' });
  let capturing: Captured[] | undefined;
  let pending = 0;
  const original = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    if (capturing) {
      const config = args[0] as { text?: string } | string;
      capturing.push({
        config: args[0],
        text: typeof config === 'string' ? config : String(config.text),
        params: (args[1] as unknown[] | undefined) ?? [],
        parallel: pending > 0,
      });
    }
    pending++;
    const done = original(...args);
    return done.finally(() => {
      pending--;
    });
  };
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  const handle: DatabaseHandle = {
    db,
    background: db,
    // As the server runs on this engine: it decides how a list's page is built, and which invalidation
    // bus runs (on PostgreSQL it listens on the bench's database).
    engine,
    limits: { requestMs: 10_000, backgroundMs: 900_000 },
    status: async () => 'ready',
    close: async () => undefined,
  };
  const config = loadConfig({
    NODE_ENV: 'production',
    GANTRY_DATA_DIR: scratch(options.dataDir),
    LOG_LEVEL: 'silent',
    DATABASE_URL: engine === 'postgres' ? String(connection.connectionString) : '',
    GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64,
  });
  const { app } = await buildApp({ config, database: handle, logger: false });
  const captured = {} as Record<K, { statements: Captured[]; answer: string }>;
  try {
    for (const key of keys) {
      let answer = '';
      for (let i = 0; i < 3; i++) {
        capturing = i === 2 ? [] : undefined;
        const response = await app.inject(requestOf(key));
        if (response.statusCode !== 200) throw new Error(`capture ${key}: ${response.statusCode} ${response.body}`);
        answer = response.body;
      }
      captured[key] = { statements: capturing ?? [], answer };
      capturing = undefined;
    }
  } finally {
    await app.close();
    await pool.end();
  }
  return captured;
}

/** The statements in the stages the server sent them: those sent in parallel in one stage. */
export function stagesOf(statements: readonly Captured[]): Captured[][] {
  const stages: Captured[][] = [];
  for (const s of statements) {
    const last = stages.at(-1);
    if (s.parallel && last) last.push(s);
    else stages.push([s]);
  }
  return stages;
}

/**
 * Captured statements run directly from CONNECTIONS concurrent loops on a node-postgres pool of
 * `poolSize` (kept open across turns): one request's stages in order, a stage's statements together.
 * `vary` gives each run its parameters (a random id to read, a new id to save).
 */
export function directTarget(
  connection: pg.PoolConfig,
  poolSize: number,
  stages: readonly Captured[][],
  vary: (params: unknown[]) => unknown[] = (params) => params,
) {
  const pool = new pg.Pool({ ...connection, max: poolSize, application_name: 'gantry-bench-direct' });
  const query = pool.query.bind(pool) as (config: unknown, params: unknown[]) => Promise<unknown>;
  const target: Target = async (seconds) => {
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    const loop = async () => {
      while (performance.now() < until) {
        const t = performance.now();
        try {
          for (const stage of stages) await Promise.all(stage.map((s) => query(s.config, vary(s.params))));
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, loop));
    return { seconds: (performance.now() - started) / 1000, latencies, non2xx: 0, errors };
  };
  return { target, close: () => pool.end() };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement as one line: its nodes and execution time (TIMING OFF),
 * in a transaction rolled back (a save is planned, not kept).
 */
export async function plan(connection: pg.ClientConfig, s: Captured): Promise<string> {
  const client = new pg.Client({ ...connection, application_name: 'gantry-bench-explain' });
  await client.connect();
  try {
    await client.query('BEGIN');
    const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ${s.text}`, s.params);
    await client.query('ROLLBACK');
    const lines = result.rows.map((row) => String(Object.values(row)[0]));
    const nodes = lines
      .filter((line) => /\(actual|\(never executed/.test(line))
      .map((line) =>
        line
          .replace(/^\s*(->\s*)?/, '')
          .replace(/\s*\((actual|never).*$/, '')
          .replace(/ on (\w+)( \w+)?$/, ' on $1'),
      );
    const time = lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
    return `${nodes.join(' > ')}; ${time}`;
  } finally {
    await client.end();
  }
}
