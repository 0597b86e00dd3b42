import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from './app.js';
import { loadConfig } from './config.js';
import { ADMIN_PASSWORD, TEST_MACHINE, wire } from './test/test-app.js';

const LIMIT_MS = 200;
const PROJECTS = 300_000;
/** Matches no name (they are hexadecimal); the costliest per name of the `like` patterns measured (class repetitions). */
const COSTLY_PATTERN = `project ${'[0-9a-f]*'.repeat(6)}z`;

/**
 * The server as it runs for users, embedded engine in its own process: no statement, however
 * long, holds up the event loop, and a runaway statement is stopped and its caller told why.
 */
describe('the server never freezes', () => {
  let dir: string;
  let built: App;
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-freeze-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      GANTRY_DATA_DIR: dir,
      GANTRY_STATEMENT_TIMEOUT_MS: String(LIMIT_MS),
      GANTRY_LOGIN_RATE_PER_MINUTE: '100000',
    });
    built = await buildApp({ config, logger: false, machineIdentity: async () => TEST_MACHINE });
    app = built.app;
    const register = await app.inject({
      method: 'POST',
      url: '/portal/rest/spm/admin/register',
      payload: { password: wire(ADMIN_PASSWORD) },
    });
    expect(register.statusCode).toBe(200);
    const login = await app.inject({
      method: 'POST',
      url: '/portal/rest/spm/login',
      payload: { username: 'admin', password: wire(ADMIN_PASSWORD) },
    });
    token = login.json<{ token: string }>().token;
    // Enough rows that a pattern no index can serve scans for longer than the limit. The trigram
    // index is built once after the load (row by row it would take minutes).
    await built.database.background.execute(sql`drop index projects_name_trgm_idx`);
    await built.database.background.execute(
      sql`insert into projects (id, name, user_id)
          select 'p' || g, 'project ' || md5(g::text) || md5((g * 7)::text), 'admin' from generate_series(1, ${PROJECTS}) g`,
    );
    await built.database.background.execute(
      sql`create index projects_name_trgm_idx on projects using gin (name gin_trgm_ops)`,
    );
    await built.database.background.execute(sql`analyze projects`);
    // Loading and indexing 300,000 rows: about 40 s alone, several minutes on a machine shared with other work.
  }, 600_000);

  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  }, 300_000);

  const list = (filter: unknown) =>
    app.inject({
      method: 'GET',
      url: `/portal/rest/spm/project?query=${encodeURIComponent(JSON.stringify({ filter, limit: 48 }))}`,
      headers: { authorization: `Bearer ${token}` },
    });

  it('answers /healthz within 50 ms while a 10-second statement runs, and /readyz says busy', async () => {
    // CPU work of about 10 s on a quiet machine: COSTLY_PATTERN over 6 million
    // strings (a plain 'z.*z' took 3.4 s, close to the lower bound asserted below).
    const started = Date.now();
    let settled = false;
    const long = built.database.background
      .execute(
        sql`select count(*) from generate_series(1, 20) g, projects p where p.name || g::text ~* ${COSTLY_PATTERN}`,
      )
      .finally(() => {
        settled = true;
      });
    let busy = false;
    while (!settled && !busy) {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      busy = ready.statusCode === 503 && ready.json<{ status: string }>().status === 'busy';
    }
    expect(busy).toBe(true);
    const samples: number[] = [];
    while (!settled && samples.length < 20) {
      const at = performance.now();
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      samples.push(performance.now() - at);
      expect(health.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(samples.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...samples)).toBeLessThan(50);
    await long;
    expect(Date.now() - started).toBeGreaterThan(2_500);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  }, 60_000);

  it('refuses the pattern that once froze the server, at once', async () => {
    const at = performance.now();
    const response = await list({ name: { like: '((a{1,50}){1,50}){1,50}b' } });
    expect(performance.now() - at).toBeLessThan(1_000);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'badQuery' });
  });

  it('stops a statement over the limit, tells the caller why, and serves again after the engine restarts', async () => {
    // Every row is scanned, no index can help: about 0.5 s for the 300,000 rows on a quiet machine, so
    // well over the limit (a plain `z.*z` took 0.17 s: it passed only on a busy machine).
    const response = await list({ name: { like: COSTLY_PATTERN } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'queryTimeout' });
    expect(response.json<{ message: string }>().message).toContain('0.2');
    // Meanwhile and afterwards the process answers; the database comes back from its files.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const until = Date.now() + 30_000;
    let status = '';
    while (Date.now() < until && status !== 'ready') {
      status = (await app.inject({ method: 'GET', url: '/readyz' })).json<{ status: string }>().status;
      if (status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe('ready');
    const page = await list({ name: { like: 'project 0' } });
    expect(page.statusCode, page.body).toBe(200);
    const counted = await built.database.background.execute(sql`select count(*)::int as count from projects`);
    expect((counted as unknown as { rows: unknown[] }).rows).toEqual([{ count: PROJECTS }]);
  }, 60_000);
});
