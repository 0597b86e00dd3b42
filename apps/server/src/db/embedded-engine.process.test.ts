import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementOwner, statementOwner } from './admission.js';
import { type DatabaseHandle, openDatabase, queryRows, startDatabase } from './database.js';
import { mapDatabaseError } from './database-errors.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { SOCKET_PORT, tenantTag } from './pglite-host-contract.js';
import { PGLITE_EXTENSIONS } from './pglite-options.js';

/** The embedded engine as the server runs it: PGlite in its own process, reached over its socket. */
describe('embedded database process', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let logs: string[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-engine-'));
    logs = [];
    handle = await openDatabase({
      dataDir: path.join(dir, 'pglite'),
      limits: { requestMs: 1_500, backgroundMs: 20_000 },
      onLog: (message) => logs.push(message),
    });
    await handle.db.execute(
      sql`create table if not exists drill (id serial primary key, batch int not null, n int not null)`,
    );
  });

  afterAll(async () => {
    await handle?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the migrations and answers parameterised queries through node-postgres', async () => {
    const rows = await queryRows<{ n: number; t: string }>(
      handle.db,
      sql`select ${41}::int + 1 as n, ${'é😀'}::text as t`,
    );
    expect(rows).toEqual([{ n: 42, t: 'é😀' }]);
    const tables = await queryRows<{ name: string }>(
      handle.db,
      sql`select tablename as name from pg_tables where tablename = 'projects'`,
    );
    expect(tables).toHaveLength(1);
    expect(await handle.status(250)).toBe('ready');
  });

  it('keeps concurrent statements and transactions of several connections apart', async () => {
    // Prepared statements (unnamed) of different connections must never interleave, and a
    // transaction sees only its own writes until it commits.
    const work = Array.from({ length: 40 }, (_, batch) =>
      handle.db.transaction(async (tx) => {
        for (let n = 0; n < 5; n++) await tx.execute(sql`insert into drill (batch, n) values (${batch}, ${n})`);
        const [mine] = await queryRows<{ count: string }>(tx, sql`select count(*) from drill where batch = ${batch}`);
        if (batch % 4 === 0) tx.rollback();
        return Number(mine?.count);
      }),
    );
    const reads = Array.from({ length: 200 }, (_, i) =>
      queryRows<{ i: number }>(handle.db, sql`select ${i}::int as i`),
    );
    const outcomes = await Promise.allSettled(work);
    const answers = await Promise.all(reads);
    expect(answers.map((rows) => rows[0]?.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    outcomes.forEach((outcome, batch) => {
      if (batch % 4 === 0) expect(outcome.status).toBe('rejected');
      else expect(outcome).toEqual({ status: 'fulfilled', value: 5 });
    });
    const [total] = await queryRows<{ count: string }>(handle.db, sql`select count(*) from drill`);
    expect(Number(total?.count)).toBe(30 * 5);
  });

  it("runs a waiting tenant's statement before another tenant's second one (the engine's fair order)", async () => {
    const finished: string[] = [];
    const as = (tenant: string, name: string, statement: ReturnType<typeof sql>) =>
      statementOwner.run(new StatementOwner(() => tenant), () =>
        handle.db.execute(statement).then(() => {
          finished.push(name);
        }),
      );
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Connections open beforehand: a new one's start-up would itself wait for the engine.
    await Promise.all(['w1', 'w2', 'w3'].map((name) => as(name, name, sql`select pg_sleep(0.05)`)));
    finished.length = 0;
    // B's first statement holds the engine; B's second, then A's, arrive while it runs.
    const first = as('bravo', 'b1', sql`select count(*) from generate_series(1, 4000000) g where g % 7 = ${3}`);
    await pause(100);
    const second = as('bravo', 'b2', sql`select ${'b2'}::text`);
    await pause(50);
    const alpha = as('alpha', 'a1', sql`select ${'a1'}::text`);
    await Promise.all([first, second, alpha]);
    expect(finished).toEqual(['b1', 'a1', 'b2']);
  });

  it('stops a statement over its limit, says why, restarts from its files and keeps committed data', async () => {
    const started = Date.now();
    const runaway = handle.db.execute(sql`select count(*) from generate_series(1, 3000000000)`);
    // Meanwhile the server's own event loop is free: a timer fires on time.
    const lag = await new Promise<number>((resolve) => {
      const at = Date.now();
      setTimeout(() => resolve(Date.now() - at - 20), 20);
    });
    expect(lag).toBeLessThan(50);
    let settled = false;
    const outcome = runaway.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    void outcome.finally(() => {
      settled = true;
    });
    // Readiness says the engine is busy while the statement runs.
    let sawBusy = false;
    while (!settled && !sawBusy) sawBusy = (await handle.status(150)) === 'busy';
    expect(sawBusy).toBe(true);
    const error = await outcome;
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(mapDatabaseError(error, handle)).toMatchObject({
      code: 'queryTimeout',
      options: { params: { seconds: 1.5 } },
    });
    expect(handle.lastStop?.()).toMatchObject({ reason: 'statement-limit', limitMs: 1_500 });
    await waitFor(async () => (await handle.status(250)) === 'ready');
    const [total] = await queryRows<{ count: string }>(handle.db, sql`select count(*) from drill`);
    expect(Number(total?.count)).toBe(150);
    expect(logs.some((line) => /ran \d+ ms \(limit 1500 ms\); restarting/.test(line))).toBe(true);
  });

  it('gives long work its own, longer limit', async () => {
    // 1.5 s is over the request limit and within the background one.
    const rows = await queryRows<{ slept: string }>(handle.background, sql`select pg_sleep(1.6)::text as slept`);
    expect(rows).toHaveLength(1);
  });

  it('survives kill -9 of the engine in the middle of writes: every committed row is there, no half transaction', async () => {
    const pid = handle.embedded?.pid;
    expect(pid).toBeGreaterThan(0);
    const committed: number[] = [];
    const writer = (async () => {
      for (let batch = 1000; batch < 1200; batch++) {
        try {
          await handle.db.transaction(async (tx) => {
            for (let n = 0; n < 3; n++) await tx.execute(sql`insert into drill (batch, n) values (${batch}, ${n})`);
          });
          committed.push(batch);
        } catch {
          // Refused while the engine restarts.
        }
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 150));
    process.kill(pid ?? 0, 'SIGKILL');
    await writer;
    await waitFor(async () => (await handle.status(250)) === 'ready');
    const rows = await queryRows<{ batch: number; count: string }>(
      handle.db,
      sql`select batch, count(*) from drill where batch >= 1000 group by batch`,
    );
    // Whole transactions only, and at least every one the caller saw committed.
    for (const row of rows) expect(Number(row.count)).toBe(3);
    const present = new Set(rows.map((row) => row.batch));
    for (const batch of committed) expect(present.has(batch)).toBe(true);
    expect(logs.some((line) => /stopped \(code .*signal SIGKILL\); restarting/.test(line))).toBe(true);
  });

  it('refuses a second engine on the same data directory', async () => {
    const second = new EmbeddedEngine({
      dataDir: path.join(dir, 'pglite'),
      sharedBuffers: '16MB',
      limitsMs: { request: 1000, background: 1000 },
    });
    await expect(second.start()).rejects.toThrow(/is in use by process \d+/);
    await second.stop();
  });

  it('hands out the database before its engine is up (starting), and a start that fails closes it', async () => {
    const { handle: early, ready } = await startDatabase({
      dataDir: path.join(dir, 'pglite'),
      limits: { requestMs: 1_000, backgroundMs: 1_000 },
    });
    expect(await early.status(100)).toBe('starting');
    const socketDir = early.embedded?.socketDir ?? '';
    expect(existsSync(socketDir)).toBe(true);
    // This directory's engine is the suite's: the second one gives up, and its folder goes.
    await expect(ready).rejects.toThrow(/is in use by process \d+/);
    expect(existsSync(socketDir)).toBe(false);
    expect(await early.status(100)).toBe('stopped');
  });
});

/**
 * A light tenant's statements and a heavy tenant's, in the engine's order. B's statements take 0.5 s
 * and the longest wait for a light statement is 150 ms (the server's: 10), so the engine waits up to
 * 50 ms for one: the order does not depend on how busy the machine is.
 */
describe("the embedded engine's order between a light tenant and a heavy one", () => {
  let dir: string;
  let engine: EmbeddedEngine;
  const clients: pg.Client[] = [];
  const finished: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-engine-order-'));
    engine = new EmbeddedEngine({
      dataDir: path.join(dir, 'pglite'),
      sharedBuffers: '16MB',
      limitsMs: { request: 20_000, background: 20_000 },
      lightTenantWaitMs: 150,
    });
    await engine.start();
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await engine?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** A connection that runs statements as `tenant`, noting each one's name when it is answered. */
  const connect = async (tenant: string) => {
    const client = new pg.Client({ host: engine.socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' });
    clients.push(client);
    await client.connect();
    return async (name: string, statement: string) => {
      await client.query(`${tenantTag(tenant)}${statement}`);
      finished.push(name);
    };
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("runs a light statement arriving on the heels of a light one before a heavy tenant's waiting one", async () => {
    const [bravo, bravoToo, session, alpha] = await Promise.all([
      connect('bravo'),
      connect('bravo'),
      connect('anonymous'),
      connect('alpha'),
    ]);
    await bravo('b1', 'select pg_sleep(0.5)');
    finished.length = 0;
    // B's long statement holds the engine; B's next and a request's first statement (its session's,
    // not yet its tenant's) arrive meanwhile. The request's next, A's, is sent when the first is
    // answered, after the engine has had B's next to choose.
    const running = bravo('b2', 'select pg_sleep(0.5)');
    await pause(50);
    const waiting = bravoToo('b3', 'select 1');
    await pause(20);
    const light = session('s1', 'select 1').then(() => alpha('a1', 'select 2'));
    await Promise.all([running, waiting, light]);
    expect(finished).toEqual(['b2', 's1', 'a1', 'b3']);
  });

  it("keeps the heavy tenant's statement waiting no longer than light ones may hold it: a light tenant's stream does not starve it", async () => {
    const [bravo, bravoToo, alpha] = await Promise.all([connect('bravo'), connect('bravo'), connect('alpha')]);
    finished.length = 0;
    const running = bravo('b4', 'select pg_sleep(0.5)');
    await pause(50);
    let waitingDone = false;
    const waiting = bravoToo('b5', 'select 1').then(() => {
      waitingDone = true;
    });
    await pause(20);
    // A sends its next statement as soon as each is answered, until B's waiting one has run.
    const until = Date.now() + 10_000;
    let sent = 0;
    while (!waitingDone && Date.now() < until) {
      await alpha(`a${sent}`, 'select 1');
      sent++;
    }
    await Promise.all([running, waiting]);
    expect(waitingDone).toBe(true);
    const order = finished.indexOf('b5');
    // A went first (it was held for), and B's statement ran while A kept sending.
    expect(finished.slice(0, 2)).toEqual(['b4', 'a0']);
    expect(order).toBeGreaterThan(2);
    expect(order).toBeLessThan(finished.length - 1);
  });
});

describe('migrations at start', () => {
  it('applies what an existing database lacks (an upgrade), and nothing twice when it lacks nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gantry-upgrade-'));
    try {
      const dataDir = path.join(dir, 'pglite');
      // The database as the previous release left it: every migration but the newest.
      const previous = path.join(dir, 'migrations');
      cpSync(fileURLToPath(new URL('./migrations', import.meta.url)), previous, { recursive: true });
      const journalFile = path.join(previous, 'meta/_journal.json');
      const journal: { entries: { when: number }[] } = JSON.parse(readFileSync(journalFile, 'utf8'));
      const newest = journal.entries.pop();
      writeFileSync(journalFile, JSON.stringify(journal));
      const client = new PGlite({ dataDir, extensions: PGLITE_EXTENSIONS });
      await migrate(drizzle({ client }), { migrationsFolder: previous });
      await client.close();

      const applied = async () => {
        const handle = await openDatabase({ dataDir });
        try {
          return await queryRows<{ count: number; last: string }>(
            handle.db,
            sql`select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
          );
        } finally {
          await handle.close();
        }
      };
      const all = [{ count: journal.entries.length + 1, last: String(newest?.when) }];
      expect(await applied()).toEqual(all);
      expect(await applied()).toEqual(all);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out waiting');
}
