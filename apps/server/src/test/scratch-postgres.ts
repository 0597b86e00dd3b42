import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/database.js';

/** Runs `work` with a client of its own on `url`, ended after. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the test PostgreSQL (GANTRY_TEST_DATABASE_URL), for the tests of the
 * layers below the app (pools, COPY, LISTEN/NOTIFY): `create()` in beforeAll, `drop()` in afterAll.
 */
export function scratchPostgres(prefix: string) {
  const serverUrl = process.env.GANTRY_TEST_DATABASE_URL as string;
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  const admin = <T>(work: (client: pg.Client) => Promise<T>) => withClient(serverUrl, work);
  return {
    name,
    url: target.toString(),
    /** A client on the server's own database (for what the scratch database's pools must not see). */
    admin,
    create: () => admin((client) => client.query(`CREATE DATABASE ${name}`)),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * A scratch database (`scratchPostgres`) opened as the server opens its own, for a test file: made
 * and opened in beforeAll, closed and dropped in afterAll. `database()` is the open handle.
 */
export function scratchDatabase(prefix: string) {
  const scratch = scratchPostgres(prefix);
  let opened: DatabaseHandle | undefined;
  beforeAll(async () => {
    await scratch.create();
    opened = await openDatabase({ url: scratch.url, dataDir: '' });
  });
  afterAll(async () => {
    await opened?.close();
    await scratch.drop();
  });
  const database = (): DatabaseHandle => {
    if (!opened) throw new Error('the scratch database is opened in beforeAll');
    return opened;
  };
  return { scratch, database };
}
