/**
 * The LISTEN/NOTIFY bus on a real PostgreSQL (GANTRY_TEST_DATABASE_URL; this file is collected only
 * by the `server-postgres` project, which exists only when that variable is set).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { scratchPostgres } from '../test/scratch-postgres.js';
import { type Invalidation, PostgresInvalidationBus } from './invalidation-bus.js';

const scratch = scratchPostgres('gantry_bus');
const { name, url, admin } = scratch;
let database: DatabaseHandle;

beforeAll(async () => {
  await scratch.create();
  database = await openDatabase({ url, dataDir: '' });
});
afterAll(async () => {
  await database?.close();
  await scratch.drop();
});

/** A bus as a server process has one, on this database, with what it hears. */
async function serverBus(applicationName = 'gantry-invalidation') {
  const bus = new PostgresInvalidationBus({
    client: () => new pg.Client({ connectionString: url, application_name: applicationName }),
    db: database.db,
    log: { warn: () => {}, info: () => {} },
    minBackoffMs: 20,
    maxBackoffMs: 200,
    pingMs: 0,
  });
  await bus.start();
  const heard: Invalidation[] = [];
  bus.subscribe((change) => heard.push(change));
  return { bus, heard };
}

async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the PostgreSQL invalidation bus', () => {
  it('tells another process of a change when its transaction commits, and never of one rolled back', async () => {
    const here = await serverBus();
    const there = await serverBus();
    try {
      let heardBeforeCommit: Invalidation[] = [];
      await database.db.transaction(async (tx) => {
        await here.bus.publish({ kind: 'user', userId: 'acme' }, tx);
        expect(here.heard).toContainEqual({ kind: 'user', userId: 'acme' }); // this process: at once
        await new Promise((resolve) => setTimeout(resolve, 200));
        heardBeforeCommit = [...there.heard];
      });
      expect(heardBeforeCommit).toEqual([]);
      await until(() => there.heard.length > 0);
      expect(there.heard).toEqual([{ kind: 'user', userId: 'acme' }]);

      await database.db
        .transaction(async (tx) => {
          await here.bus.publish({ kind: 'licence' }, tx);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await here.bus.publish({ kind: 'settings' });
      await until(() => there.heard.length > 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(there.heard).toEqual([{ kind: 'user', userId: 'acme' }, { kind: 'settings' }]);
    } finally {
      await here.bus.close();
      await there.bus.close();
    }
  });

  it('when its connection is ended by the server, forgets everything, reconnects and hears again', async () => {
    const there = await serverBus('gantry-invalidation-test');
    try {
      const ended = await admin(async (client) => {
        const result = await client.query(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE datname = $1 AND application_name = 'gantry-invalidation-test'`,
          [name],
        );
        return result.rowCount;
      });
      expect(ended).toBe(1);
      await until(() => there.heard.some((change) => change.kind === 'all'));
      await until(() => there.bus.listening);
      there.heard.length = 0;
      const here = await serverBus();
      await here.bus.publish({ kind: 'session', tokenHash: 'f00d' });
      await until(() => there.heard.length > 0);
      expect(there.heard).toEqual([{ kind: 'session', tokenHash: 'f00d' }]);
      await here.bus.close();
    } finally {
      await there.bus.close();
    }
  });
});
