/**
 * Projects section of `npm run bench` (`npm run bench -- projects`): the project list at scale, on
 * PGlite and on PostgreSQL in the same run, printed as one table (measure | PGlite | PostgreSQL).
 *
 * Per engine: the real app (`buildApp`, which applies the migrations) listens on 127.0.0.1; the
 * administrator registers and signs in; SEED_TENANTS tenants, SEED_PROJECTS projects and the platform
 * licence row are seeded by SQL (`INSERT … SELECT generate_series`), not through the API. One tenant
 * gets a known password through the API (PUT user/{id}/password) and signs in.
 *
 * The page-of-48 query is first measured as seeded ("before VACUUM": PGlite has no autovacuum
 * worker, so this is how a PGlite database stays), then `VACUUM ANALYZE` runs and every scenario is
 * measured: HTTP timings (sequential keep-alive requests) alternating with the same SQL run
 * directly. The SQL is captured at the driver during one HTTP request (the exact text and
 * parameters drizzle sent) and replayed with the same driver call, so "HTTP − SQL" is Fastify, auth,
 * zod, row mapping and JSON. Then 50 concurrent clients (autocannon, child process) on the
 * page-of-48 query with the server's event-loop lag, EXPLAIN (ANALYZE, BUFFERS) of every statement,
 * and "what-if" rows: suggested index and query changes timed by direct SQL on the same data.
 *
 * PostgreSQL: GANTRY_BENCH_DATABASE_URL (loopback only) if set, else a throwaway cluster
 * (scripts/pg-throwaway.sh) stopped at the end; either way a scratch database, dropped at the end.
 * GANTRY_BENCH_SCALE=0.05 gives a quick smoke run; GANTRY_BENCH_BUDGET_MS (per timing, default 5000)
 * and GANTRY_BENCH_LOAD_SECONDS (default 10) shorten it further.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sha256Hex } from '@gantry/shared';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Database } from '../apps/server/src/db/database.js';
import { get, LAG_RESOLUTION_MS, lagMs, load, post, ROOT, type Samples, sample, sampleAlternately } from './lib.js';

// ---- sizes (GANTRY_BENCH_SCALE multiplies them: 0.05 for a smoke run) ----
const SCALE = Number(process.env.GANTRY_BENCH_SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 10)) throw new Error('GANTRY_BENCH_SCALE must be in (0, 10]');
export const SEED_PROJECTS = Math.round(150_000 * SCALE);
export const SEED_TENANTS = Math.max(20, Math.round(10_000 * SCALE));
/** Deep pages: skip 100,000 and 149,000 at full scale. */
const DEEP_SKIPS = [Math.round(SEED_PROJECTS * (100_000 / 150_000)), SEED_PROJECTS - 1000];
const PAGE = 48;
const CONCURRENCY = 50;
const LOAD_SECONDS = Number(process.env.GANTRY_BENCH_LOAD_SECONDS ?? 10);
/** Sequential timings: at least MIN and at most MAX samples, stopping early after BUDGET ms. */
const SAMPLES = { min: 20, max: 200, budgetMs: Number(process.env.GANTRY_BENCH_BUDGET_MS ?? 5000) };

const PASSWORD = sha256Hex('Bench12345');
const TENANT_PASSWORD = sha256Hex('Tenant12345');
const idOf = (prefix: string, n: number, width: number) => `${prefix}${String(n).padStart(width, '0')}`;
const TENANT_WIDTH = Math.max(5, String(SEED_TENANTS).length);
const PROJECT_WIDTH = Math.max(6, String(SEED_PROJECTS).length);
/** The tenant that signs in: every 50th project is its own (2 %, 3,000 at full scale). */
const BIG_TENANT = idOf('t', 1, TENANT_WIDTH);
/** A typical tenant (about SEED_PROJECTS / SEED_TENANTS projects). */
const SMALL_TENANT = idOf('t', 42, TENANT_WIDTH);
/** Matches about 0.7 % of the names (farm numbers starting with 12), case-insensitively. */
const NAME_PATTERN = 'FARM 12';

type Engine = 'pglite' | 'postgres';
type Role = 'admin' | 'tenant';
interface Scenario {
  key: string;
  label: string;
  role: Role;
  query: Record<string, unknown>;
}

const listQuery = (skip: number, filter?: Record<string, unknown>) => ({
  sort: { createTime: -1 },
  skip,
  limit: PAGE,
  withCount: true,
  ...(filter ? { filter } : {}),
});

const SCENARIOS: Scenario[] = [
  {
    key: 'page',
    label: 'page of 48 + count, filter status, admin',
    role: 'admin',
    query: listQuery(30, { status: true }),
  },
  {
    key: 'name',
    label: 'page of 48 + count, filter status, sort name, admin',
    role: 'admin',
    query: { ...listQuery(30, { status: true }), sort: { name: 1 } },
  },
  {
    key: 'user',
    label: `page of 48 + count, filter user = big tenant (${BIG_TENANT}), admin`,
    role: 'admin',
    query: listQuery(30, { user: BIG_TENANT }),
  },
  {
    key: 'small',
    label: `page of 48 + count, filter user = typical tenant (${SMALL_TENANT}), admin`,
    role: 'admin',
    query: listQuery(0, { user: SMALL_TENANT }),
  },
  {
    key: 'like',
    label: `page of 48 + count, filter status + name like "${NAME_PATTERN}", admin`,
    role: 'admin',
    query: listQuery(30, { status: true, name: { like: NAME_PATTERN } }),
  },
  ...DEEP_SKIPS.map((skip) => ({
    key: `deep${skip}`,
    label: `deep page skip ${skip.toLocaleString('en')} + count, no filter, admin`,
    role: 'admin' as const,
    query: listQuery(skip),
  })),
  {
    key: 'tenant',
    label: `page of 48 + count, filter status, as tenant ${BIG_TENANT}`,
    role: 'tenant',
    query: listQuery(30, { status: true }),
  },
];

// ---- results: rows keyed by measure, one column per engine ----
const rows = new Map<string, Partial<Record<Engine, string>>>();
const put = (engine: Engine, measure: string, value: string) => {
  rows.set(measure, { ...rows.get(measure), [engine]: value });
  console.log(`  [${engine}] ${measure}: ${value}`);
};
const plans: string[] = [];
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const p50p99 = (s: Samples) => `${ms(s.p50)} / ${ms(s.p99)}`;

// ---- the driver seen from below drizzle: capture and replay statements ----
type QueryFn = (...args: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>;
interface Captured {
  text: string;
  args: unknown[];
}

/** Wraps the database client's `query` (PGlite or the pg Pool: drizzle calls `$client.query`). */
function tapClient(db: Database) {
  const client = (db as unknown as { $client: { query: QueryFn } }).$client;
  const original = client.query.bind(client);
  let capturing: Captured[] | undefined;
  client.query = (...args: unknown[]) => {
    if (capturing) {
      const first = args[0];
      const text = typeof first === 'string' ? first : String((first as { text?: unknown }).text);
      capturing.push({ text, args });
    }
    return original(...args);
  };
  return {
    raw: original,
    async capture(run: () => Promise<unknown>): Promise<Captured[]> {
      capturing = [];
      try {
        await run();
        return capturing;
      } finally {
        capturing = undefined;
      }
    },
  };
}

// ---- seeding ----
const INDUSTRIES = "array['fishery','smartCity','coal','pharmaceutical','oilfield','heating','other']";
const grantSql = (g: string) =>
  `jsonb_build_object('validityPeriod', 365 + ${g} % 700, 'startTime', to_char(date '2025-01-01' + (${g} % 400), 'YYYY-MM-DD'),
    'userCount', 10 + ${g} % 20, 'flow', jsonb_build_object('tableCount', 50 + ${g} % 50),
    'visual', jsonb_build_object('dashboardCount', 30), 'features', '["gis","video"]'::jsonb)`;

const seedTenantsSql = `
INSERT INTO users (id, name, is_admin, status, type, industry, "grant", remarks, created_at, updated_at)
SELECT 't' || lpad(g::text, ${TENANT_WIDTH}, '0'), 'Tenant ' || g, false, g % 20 <> 0, g % 2,
  (${INDUSTRIES})[1 + g % 7], ${grantSql('g')},
  CASE WHEN g % 3 = 0 THEN 'seeded tenant ' || g END,
  now() - make_interval(secs => g * 9000), now()
FROM generate_series(1, ${SEED_TENANTS}) AS g`;

/**
 * Newest first is project 1 (created_at goes back ~3 years); 10 % disabled; every 50th (g % 50 = 1)
 * owned by BIG_TENANT, every 97th a platform project ('admin'), the rest spread over all tenants;
 * a third with a grant, a quarter with a usage report and device stats, every 25th with a port.
 */
const seedProjectsSql = `
INSERT INTO projects (id, name, status, user_id, industry, "grant", project_type, template_id, has_sso, remarks,
  bg_color, port, advanced, usage, stats, online, usage_reported_at, created_at, updated_at)
SELECT 'p' || lpad(g::text, ${PROJECT_WIDTH}, '0'),
  (array['North','South','East','West','Central','Harbor','River','Hill'])[1 + g % 8] || ' '
    || (array['pump','boiler','substation','well','mine','plant','farm','tower','line','depot','kiln'])[1 + (g / 8) % 11]
    || ' ' || g,
  g % 10 <> 0,
  CASE WHEN g % 50 = 1 THEN '${BIG_TENANT}' WHEN g % 97 = 3 THEN 'admin'
    ELSE 't' || lpad((1 + g % ${SEED_TENANTS})::text, ${TENANT_WIDTH}, '0') END,
  (${INDUSTRIES})[1 + g % 7],
  CASE WHEN g % 3 = 0 THEN ${grantSql('g')} END,
  CASE WHEN g % 5 = 0 THEN 'template' ELSE 'blank' END,
  CASE WHEN g % 5 = 0 THEN 'tpl' || (g % 40) END,
  g % 7 = 0,
  CASE WHEN g % 4 = 0 THEN 'seeded project ' || g || ', line ' || (g % 13) END,
  '#' || lpad(to_hex(g % 4096), 3, '0'),
  CASE WHEN g % 25 = 0 THEN 10000 + g / 25 END,
  jsonb_build_object('mediaLibraryPublicDirEnable', g % 6 = 0,
    'mediaLibraryPublicDirFeature', CASE WHEN g % 6 = 0 THEN '["mkDir","upload"]'::jsonb ELSE '[]'::jsonb END),
  CASE WHEN g % 4 = 0 THEN jsonb_build_object('userCount', g % 10, 'flow', jsonb_build_object('tableCount', g % 50,
    'flowCount', g % 9), 'dataGathering', jsonb_build_object('point', g % 1000, 'deviceCount', g % 40)) END,
  CASE WHEN g % 4 = 0 THEN jsonb_build_array(jsonb_build_object('type', 'device', 'count', g % 40, 'online', g % 17),
    jsonb_build_object('type', 'gateway', 'count', g % 5, 'online', g % 3)) ELSE '[]'::jsonb END,
  g % 8 = 0,
  CASE WHEN g % 4 = 0 THEN now() - make_interval(secs => g % 86400) END,
  now() - make_interval(secs => g * ${Math.round((3 * 365 * 86_400) / SEED_PROJECTS)} + (g * 7919) % 600),
  now()
FROM generate_series(1, ${SEED_PROJECTS}) AS g`;

const licenceSql = `
INSERT INTO licences (id, "grant") VALUES ('platform-spm', '${JSON.stringify({
  validityPeriod: 3650,
  startTime: '2025-01-01',
  userCount: 9_999_999,
  flow: { tableCount: 99_999_999, flowCount: 9_999_999 },
  visual: { dashboardCount: 9_999_999 },
  features: ['gis', 'video'],
})}'::jsonb)
ON CONFLICT (id) DO UPDATE SET "grant" = excluded."grant", installed_at = now()`;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

// ---- PostgreSQL: a throwaway cluster, or the given server; a scratch database either way ----
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T> {
  let serverUrl = process.env.GANTRY_BENCH_DATABASE_URL;
  let clusterDir: string | undefined;
  if (serverUrl) {
    if (!LOOPBACK.has(new URL(serverUrl).hostname)) throw new Error('GANTRY_BENCH_DATABASE_URL must be on loopback');
  } else {
    clusterDir = path.join(tmpdir(), `gantry-bench-pg-${process.pid}`);
    const port = 56_000 + Math.floor(Math.random() * 1000);
    serverUrl = execFileSync('bash', [path.join(ROOT, 'scripts/pg-throwaway.sh'), 'start', clusterDir, String(port)], {
      encoding: 'utf8',
    }).trim();
    console.log(`  throwaway PostgreSQL cluster at ${serverUrl}`);
  }
  const scratch = `gantry_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratch}`);
    const url = new URL(serverUrl);
    url.pathname = `/${scratch}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    if (clusterDir) execFileSync('bash', [path.join(ROOT, 'scripts/pg-throwaway.sh'), 'stop', clusterDir]);
  }
}

// ---- one engine ----
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';

async function benchEngine(engine: Engine, databaseUrl: string): Promise<void> {
  console.log(`\n== ${engine} ==`);
  const startLoad = loadAverage();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-projects-'));
  const debug = process.env.BENCH_DEBUG === '1';
  const config = loadConfig({
    GANTRY_DATA_DIR: dataDir,
    LOG_LEVEL: debug ? 'error' : 'silent',
    GANTRY_LOGIN_RATE_PER_MINUTE: '1000000',
    DATABASE_URL: databaseUrl,
  });
  const { app, database } = await buildApp({ config, logger: debug });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/portal/rest/spm`;
    const client = tapClient(database.db);
    const sqlRows = async (text: string, params: unknown[] = []) => (await client.raw(text, params)).rows;
    const version = String((await sqlRows('SELECT version() AS v'))[0]?.v ?? '');
    put(engine, 'engine', version.split(' on ')[0]!.replace(/,.*$/, ''));

    const registered = await post(`${base}/admin/register`, { password: PASSWORD });
    if (!registered.ok) throw new Error(`register ${registered.status}`);
    const adminToken = await login(base, 'admin', PASSWORD);

    const seed = {
      tenants: await timed(() => sqlRows(seedTenantsSql)),
      projects: await timed(() => sqlRows(seedProjectsSql)),
      licence: await timed(() => sqlRows(licenceSql)),
    };
    const [sizes] = await sqlRows(
      `SELECT (SELECT count(*) FROM projects) AS projects, (SELECT count(*) FROM users WHERE NOT is_admin) AS tenants,
        pg_size_pretty(pg_total_relation_size('projects')) AS size`,
    );
    put(
      engine,
      'seeded projects / tenants (table + indexes size)',
      `${sizes?.projects} / ${sizes?.tenants} (${sizes?.size})`,
    );
    put(engine, `seed ${SEED_TENANTS.toLocaleString('en')} tenants by SQL (s)`, (seed.tenants / 1000).toFixed(1));
    put(engine, `seed ${SEED_PROJECTS.toLocaleString('en')} projects by SQL (s)`, (seed.projects / 1000).toFixed(1));

    // A tenant with a known password, set through the API (argon2id on the server), then signed in.
    const reset = await fetch(`${base}/user/${BIG_TENANT}/password`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ adminPassword: PASSWORD, password: TENANT_PASSWORD, password1: TENANT_PASSWORD }),
    });
    if (!reset.ok) throw new Error(`tenant password ${reset.status}: ${await reset.text()}`);
    const tokens: Record<Role, string> = { admin: adminToken, tenant: await login(base, BIG_TENANT, TENANT_PASSWORD) };

    /** HTTP timings, the captured SQL replayed directly, and the plans of one list query. */
    const measure = async (scenario: Scenario, prefix: string, keepPlans: boolean, budgetMs = SAMPLES.budgetMs) => {
      const url = `${base}/project?query=${encodeURIComponent(JSON.stringify(scenario.query))}`;
      const headers = { authorization: `Bearer ${tokens[scenario.role]}` };
      const call = async () => {
        const response = await get(url, headers);
        if (response.status !== 200) {
          throw new Error(`${scenario.key}: ${response.status} ${response.body.slice(0, 300)}`);
        }
        return response;
      };
      const captured = (await client.capture(call)).filter((q) => /from "projects"/i.test(q.text));
      const label = `${prefix}${scenario.label}`;
      const first = await call();
      put(
        engine,
        `${label}: rows / count header`,
        `${(JSON.parse(first.body) as unknown[]).length} / ${first.headers.count}`,
      );
      const [http, direct] = await sampleAlternately(
        call,
        async () => {
          for (const q of captured) await client.raw(...q.args);
        },
        { ...SAMPLES, budgetMs: budgetMs * 2 },
      );
      put(engine, `${label}: HTTP p50 / p99 (ms)`, `${p50p99(http)} (n=${http.n})`);
      put(
        engine,
        `${label}: same SQL direct (${captured.length} statements) p50 / p99 (ms)`,
        `${p50p99(direct)} (n=${direct.n})`,
      );
      for (const q of captured) {
        const kind = /select count\(/i.test(q.text) ? 'count' : 'page';
        const plan = await explain(client.raw, q.text, q.args[1]);
        put(engine, `${label}: ${kind} plan`, summarisePlan(plan));
        if (keepPlans)
          plans.push(
            `-- ${engine}, ${label}, ${kind} statement, params ${JSON.stringify(q.args[1])}:\n${q.text}\n${plan.join('\n')}`,
          );
      }
      return captured;
    };

    // As PGlite runs in production: no autovacuum, so no statistics and no visibility map yet.
    await measure(SCENARIOS[0]!, 'before VACUUM: ', true, SAMPLES.budgetMs / 2);
    put(
      engine,
      'VACUUM ANALYZE users, projects (s)',
      ((await timed(() => sqlRows('VACUUM ANALYZE users, projects'))) / 1000).toFixed(1),
    );

    const captured = new Map<string, Captured[]>();
    for (const scenario of SCENARIOS) {
      const keep = ['page', 'name', 'like', 'tenant', `deep${DEEP_SKIPS[1]}`].includes(scenario.key);
      captured.set(scenario.key, await measure(scenario, '', keep));
    }

    // 50 concurrent clients on the page-of-48 query, with the event-loop lag of the server's process.
    const page = SCENARIOS[0]!;
    const pageUrl = `${base}/project?query=${encodeURIComponent(JSON.stringify(page.query))}`;
    const auth = { authorization: `Bearer ${adminToken}` };
    await load(pageUrl, { connections: CONCURRENCY, seconds: 2, headers: auth });
    const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    lag.enable();
    const loaded = await load(pageUrl, { connections: CONCURRENCY, seconds: LOAD_SECONDS, headers: auth });
    lag.disable();
    // Requests the clients gave up on may still be queued at the database: let them drain.
    await get(pageUrl, auth);
    put(engine, `${CONCURRENCY} clients, page of 48 + count (status): req/s`, loaded.requests.average.toFixed(0));
    const failures = loaded.non2xx + loaded.errors;
    put(
      engine,
      `${CONCURRENCY} clients, page of 48 + count (status): latency p50 / p99 / max (ms)`,
      `${loaded.latency.p50} / ${loaded.latency.p99} / ${loaded.latency.max}${failures > 0 ? ` (non-2xx ${loaded.non2xx}, errors ${loaded.errors})` : ''}`,
    );
    put(
      engine,
      `${CONCURRENCY} clients: event-loop lag p50 / p99 / max (ms)`,
      `${lagMs(lag, 50)} / ${lagMs(lag, 99)} / ${Math.max(0, lag.max / 1e6 - LAG_RESOLUTION_MS).toFixed(1)}`,
    );

    await whatIf(engine, client.raw, captured);
    put(engine, 'load average (1 min) at start / end of this engine', `${startLoad} / ${loadAverage()}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Suggested further fixes, timed by direct SQL on the same data (not what the server runs today):
 * the owner index with INCLUDE (status). (Deferred-join pages, the name index and the name filter's
 * pg_trgm index, measured here before, are now in the server.)
 */
async function whatIf(engine: Engine, raw: QueryFn, captured: Map<string, Captured[]>): Promise<void> {
  // A tenant's count (user_id = $1 and status) reads the heap for each of its projects: the owner
  // index does not hold status. The same index with INCLUDE (status) answers it from the index.
  const owner = [...(captured.get('tenant') ?? []), ...(captured.get('user') ?? [])];
  const runOwner = async () => {
    for (const q of owner) await raw(...q.args);
  };
  const ownerBefore = await sample(runOwner, SAMPLES);
  const rebuilt = await timed(async () => {
    await raw('CREATE INDEX projects_user_created_status_idx ON projects (user_id, created_at, id) INCLUDE (status)');
    await raw('DROP INDEX projects_user_created_idx');
    await raw('ANALYZE projects');
  });
  const ownerAfter = await sample(runOwner, SAMPLES);
  put(engine, 'what-if: projects_user_created_idx rebuilt with INCLUDE (status) (s)', (rebuilt / 1000).toFixed(1));
  put(
    engine,
    'what-if: tenant page + count and admin user-filter page + count (4 statements), before / after, p50 / p99 (ms)',
    `${p50p99(ownerBefore)} → ${p50p99(ownerAfter)}`,
  );
  for (const q of owner) {
    const kind = /select count\(/i.test(q.text) ? 'count' : 'page';
    const who = / where .*"projects"\."status" = /s.test(q.text) ? 'tenant, status' : 'admin, user';
    const plan = await explain(raw, q.text, q.args[1]);
    put(engine, `what-if: with INCLUDE (status), ${who} ${kind} plan`, summarisePlan(plan));
    if (engine === 'pglite' || kind === 'count') {
      plans.push(`-- ${engine}, what-if INCLUDE (status), ${who} ${kind} statement:\n${plan.join('\n')}`);
    }
  }
}

async function login(base: string, username: string, password: string): Promise<string> {
  const response = await post(`${base}/login`, { username, password });
  if (!response.ok) throw new Error(`login ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement with its parameters; the plan's lines. TIMING OFF: timing
 * every row costs far more in PGlite's WASM than in PostgreSQL and would distort the comparison.
 */
async function explain(raw: QueryFn, text: string, params: unknown): Promise<string[]> {
  const result = await raw(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ${text}`, params ?? []);
  return result.rows.map((row) => String(Object.values(row)[0]));
}

/** The plan's nodes in order ("Limit > Nested Loop > Index Scan Backward using …"), and its execution time. */
function summarisePlan(lines: string[]): string {
  const nodes = lines
    .filter((line) => /\(actual|\(never executed/.test(line))
    .map((line) =>
      line
        .replace(/^\s*(->\s*)?/, '')
        .replace(/\s*\((actual|never).*$/, '')
        .replace(/ on (\w+)( \w+)?$/, ' on $1'),
    );
  const time = lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
  const heapFetches = lines
    .map((line) => /Heap Fetches: (\d+)/.exec(line)?.[1])
    .filter((v): v is string => v !== undefined);
  return `${nodes.join(' > ')}${heapFetches.length ? ` (heap fetches ${heapFetches.join(', ')})` : ''}; ${time}`;
}

/** Runs the section on both engines; prints the plans and the comparison table. */
export async function projectsBench(): Promise<void> {
  console.log(`projects: ${SEED_PROJECTS.toLocaleString('en')} projects, ${SEED_TENANTS.toLocaleString('en')} tenants`);
  await benchEngine('pglite', '');
  await withPostgres((url) => benchEngine('postgres', url));
  console.log(
    "\n## Plans: EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF), per-node timing would inflate PGlite's times\n",
  );
  for (const plan of plans) console.log(`${plan}\n`);
  console.log(`\n| measure | PGlite | PostgreSQL |\n| --- | --- | --- |`);
  for (const [measure, value] of rows) console.log(`| ${measure} | ${value.pglite ?? ''} | ${value.postgres ?? ''} |`);
}
