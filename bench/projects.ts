/**
 * Projects section of `npm run bench` (`npm run bench -- projects`): the project list at 150,000
 * projects / 10,000 tenants, page of 48 with `withCount`, as the administrator and as a tenant, 50
 * concurrent clients, on embedded PGlite and on PostgreSQL, against the same SQL run directly in
 * the same run.
 *
 * Per engine:
 *  1. the real server (`npm start`, NODE_ENV=production, default logging to a file; PostgreSQL via
 *     DATABASE_URL) on a new data directory; the administrator registers, uploads a platform licence
 *     (bench key) and signs in, all through the API;
 *  2. tenants and projects are seeded by bulk SQL (`INSERT … SELECT generate_series`) on a direct
 *     connection (PGlite: the engine's socket, as a background connection so its longer limit
 *     applies), with the secondary indexes of `users` and `projects` dropped first and rebuilt after
 *     (their exact definitions read back from the catalogue), then `VACUUM ANALYZE` (what PGlite's
 *     clean-up timer and PostgreSQL's autovacuum would do); one tenant gets a password through the API;
 *  3. the server is stopped and started again on the seeded directory (start time and RSS at 150k);
 *  4. the SQL the server runs per list request is captured: the server's own code (`buildApp`, in
 *     this process) answers the same request over a tapped node-postgres pool on the same database;
 *     the statements of a steady-state request (its caches warm, as under load) are kept;
 *  5. per role: the server under autocannon (50 connections, 2 s warm-up + 10 s) with a separate
 *     client asking `/healthz` every 50 ms meanwhile, then the captured statements run directly by a
 *     node-postgres pool of the server's size (4 on PGlite, 10 on PostgreSQL: apps/server/src/db/database.ts)
 *     from 50 concurrent loops for the same time; then the administrator's list again with
 *     Accept-Encoding as browsers send it; RSS after the load.
 *
 * PostgreSQL: GANTRY_BENCH_DATABASE_URL (loopback only) if set, else a throwaway cluster
 * (scripts/pg-throwaway.sh, a port in 56300–56399) stopped at the end; a scratch database either way.
 * GANTRY_BENCH_SCALE=0.05 gives a quick smoke run.
 */
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sha256Hex } from '@gantry/shared';
import pg from 'pg';
import { BACKGROUND_APPLICATION, SOCKET_PORT } from '../apps/server/src/db/pglite-host-contract.js';
import { type Captured, captureStatements, directTarget, type Engine, plan } from './capture.js';
import {
  BENCH_PASSWORD,
  backendCatalogue,
  benchScale,
  CONNECTIONS,
  CpuPerRequest,
  engineSocketDir,
  get,
  goal,
  httpLoad,
  installLicence,
  interleave,
  LOAD_SECONDS,
  licenceKey,
  linesPerRequest,
  loadAverage,
  login,
  type Measure,
  type Memory,
  memoryOf,
  memoryText,
  ms,
  must,
  post,
  printNotes,
  printTable,
  probe,
  processesOf,
  ROOT,
  ROUNDS,
  rateText,
  type Samples,
  type ServerRun,
  scratch,
  sleep,
  startBaseline,
  startServer,
  stopServer,
  summarise,
  type Target,
  WARM_UP_SECONDS,
} from './lib.js';

// ---- sizes (GANTRY_BENCH_SCALE multiplies them: 0.05 for a smoke run) ----
const SCALE = benchScale();
export const SEED_PROJECTS = Math.round(150_000 * SCALE);
export const SEED_TENANTS = Math.max(20, Math.round(10_000 * SCALE));
const PAGE = 48;
/** The server's request pool per engine (apps/server/src/db/database.ts); the direct pool has the same size. */
const SERVER_POOL = { pglite: 4, postgres: 10 } as const;
const GOALS = { throughput: 0.7, p99: 1.5, healthzMs: 50 };
const PROBE_EVERY_MS = 50;

const TENANT_PASSWORD = sha256Hex('Tenant12345');
const idOf = (prefix: string, n: number, width: number) => `${prefix}${String(n).padStart(width, '0')}`;
const TENANT_WIDTH = Math.max(5, String(SEED_TENANTS).length);
const PROJECT_WIDTH = Math.max(6, String(SEED_PROJECTS).length);
/** The tenant that signs in: every 50th project is its own (2 %, 3,000 at full scale). */
const TENANT = idOf('t', 1, TENANT_WIDTH);

type Role = 'admin' | 'tenant';
const ROLES: Role[] = ['admin', 'tenant'];
/** The console's default project list: newest first, a page of 48, enabled ones, with the total. */
const LIST_QUERY = { sort: { createTime: -1 }, skip: 0, limit: PAGE, withCount: true, filter: { status: true } };
const LIST_PATH = `/portal/rest/spm/project?query=${encodeURIComponent(JSON.stringify(LIST_QUERY))}`;

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
 * owned by TENANT, every 97th a platform project ('admin'), the rest spread over all tenants;
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
  CASE WHEN g % 50 = 1 THEN '${TENANT}' WHEN g % 97 = 3 THEN 'admin'
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

/** Secondary indexes of users and projects (not those behind constraints), as the migrations made them. */
const secondaryIndexesSql = `
SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
WHERE t.relname IN ('users', 'projects') AND t.relnamespace = 'public'::regnamespace
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
ORDER BY 1`;

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

interface Seeded {
  projects: number;
  tenants: number;
  size: string;
  indexes: number;
  loadMs: number;
  indexMs: number;
  vacuumMs: number;
}

/** Bulk SQL on one direct connection: indexes dropped, rows loaded, indexes rebuilt, VACUUM ANALYZE. */
async function seed(connection: pg.ClientConfig): Promise<Seeded> {
  const client = new pg.Client({ ...connection, application_name: BACKGROUND_APPLICATION });
  await client.connect();
  try {
    const indexes = (await client.query<{ name: string; definition: string }>(secondaryIndexesSql)).rows;
    const loadMs = await timed(async () => {
      for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
      await client.query(seedTenantsSql);
      await client.query(seedProjectsSql);
    });
    const indexMs = await timed(async () => {
      await client.query('BEGIN');
      await client.query("SET LOCAL maintenance_work_mem = '64MB'");
      for (const index of indexes) await client.query(index.definition);
      await client.query('COMMIT');
    });
    const vacuumMs = await timed(() => client.query('VACUUM ANALYZE users, projects'));
    const [sizes] = (
      await client.query(
        `SELECT (SELECT count(*) FROM projects)::int AS projects, (SELECT count(*) FROM users WHERE NOT is_admin)::int AS tenants,
          pg_size_pretty(pg_total_relation_size('projects')) AS size`,
      )
    ).rows as Array<{ projects: number; tenants: number; size: string }>;
    return { ...must(sizes, 'sizes'), indexes: indexes.length, loadMs, indexMs, vacuumMs };
  } finally {
    await client.end();
  }
}

// ---- PostgreSQL: a throwaway cluster, or the given server; a scratch database either way ----
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const PG_THROWAWAY = path.join(ROOT, 'scripts/pg-throwaway.sh');

export async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T> {
  let serverUrl = process.env.GANTRY_BENCH_DATABASE_URL;
  let clusterDir: string | undefined;
  if (serverUrl) {
    if (!LOOPBACK.has(new URL(serverUrl).hostname)) throw new Error('GANTRY_BENCH_DATABASE_URL must be on loopback');
  } else {
    clusterDir = path.join(tmpdir(), `gantry-bench-pg-${process.pid}`);
    for (let attempt = 0; !serverUrl; attempt++) {
      const port = 56_300 + Math.floor(Math.random() * 100);
      try {
        serverUrl = execFileSync('bash', [PG_THROWAWAY, 'start', clusterDir, String(port)], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }).trim();
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    console.log(`  throwaway PostgreSQL cluster at ${serverUrl}`);
  }
  const scratchDb = `gantry_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${scratchDb}`);
    const url = new URL(serverUrl);
    url.pathname = `/${scratchDb}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${scratchDb} WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    if (clusterDir) execFileSync('bash', [PG_THROWAWAY, 'stop', clusterDir]);
  }
}

// ---- one engine ----
interface RoleResult {
  server: Measure;
  direct: Measure;
  /** The floor server (bench/list-floor.mjs) on the same statements. */
  floor: Measure;
  healthz: Samples & { failed: number };
  statements: Captured[];
  plans: string[];
  body: { rows: number; count: string; estimated: string; bytes: number };
  linesPerRequest: number;
  /** CPU ms per request: [client process (the server, or this bench's direct loops), database]. */
  cpu: { server: [number, number]; direct: [number, number]; floor: [number, number] };
}

interface EngineResult {
  engine: Engine;
  version: string;
  seeded: Seeded;
  startMs: number;
  idle: Memory;
  loaded: Memory;
  roles: Record<Role, RoleResult>;
  compressed?: { result: Measure; encoding: string; bytes: number };
  serverConnections?: number;
  loadAverage: string;
}

async function benchEngine(engine: Engine, databaseUrl?: string): Promise<EngineResult> {
  console.log(`  ${engine}: starting the server, seeding…`);
  const startLoad = loadAverage();
  const dataDir = scratch(`projects-${engine}`);
  const logFile = `${scratch(`projects-${engine}-log`)}/server.log`;
  const options = {
    dataDir,
    logFile,
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64 },
  };
  const connectionOf = (run: ServerRun): pg.PoolConfig =>
    engine === 'pglite'
      ? { host: engineSocketDir(run), port: SOCKET_PORT, user: 'postgres', database: 'postgres' }
      : { connectionString: databaseUrl };

  let server = await startServer(options);
  let base = `${server.origin}/portal/rest/spm`;
  const registered = await post(`${base}/admin/register`, { password: BENCH_PASSWORD });
  if (!registered.ok) throw new Error(`register ${registered.status}`);
  const adminToken = await login(base, 'admin', BENCH_PASSWORD);
  await installLicence(server.origin, adminToken);
  const seeded = await seed(connectionOf(server));
  console.log(
    `  ${engine}: seeded ${seeded.projects} projects, ${seeded.tenants} tenants in ${((seeded.loadMs + seeded.indexMs + seeded.vacuumMs) / 1000).toFixed(1)} s`,
  );
  // A tenant with a known password, set through the API (argon2id on the server).
  const reset = await fetch(`${base}/user/${TENANT}/password`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ adminPassword: BENCH_PASSWORD, password: TENANT_PASSWORD, password1: TENANT_PASSWORD }),
  });
  if (!reset.ok) throw new Error(`tenant password ${reset.status}: ${await reset.text()}`);
  const tokens: Record<Role, string> = { admin: adminToken, tenant: await login(base, TENANT, TENANT_PASSWORD) };

  // Started again on the seeded data, as an operator's server with 150,000 projects starts.
  await stopServer(server);
  server = await startServer(options);
  base = `${server.origin}/portal/rest/spm`;
  let catalogue: pg.Client | undefined;
  try {
    const connection = connectionOf(server);
    await sleep(2000);
    const idle = memoryOf(server);
    const versionClient = new pg.Client({ ...connection, application_name: 'gantry-bench-explain' });
    await versionClient.connect();
    const version =
      String((await versionClient.query('SELECT version() AS v')).rows[0]?.v ?? '')
        .split(' on ')[0]
        ?.replace(/,.*$/, '') ?? '';
    await versionClient.end();

    const captured = await captureStatements(
      engine,
      connection,
      { poolSize: 1, dataDir: 'capture' },
      ROLES,
      (role) => ({ method: 'GET', url: LIST_PATH, headers: { authorization: `Bearer ${tokens[role]}` } }),
    );
    const processes = processesOf(server);
    const { client, backends: backendPids } = await backendCatalogue(connection);
    catalogue = client;
    const roles = {} as Record<Role, RoleResult>;
    let compressed: EngineResult['compressed'] | undefined;
    const url = `${server.origin}${LIST_PATH}`;
    for (const role of ROLES) {
      console.log(`  ${engine}: ${role} list under load…`);
      const headers = { authorization: `Bearer ${tokens[role]}` };
      const first = await get(url, headers);
      if (first.status !== 200) throw new Error(`${engine} ${role}: ${first.status} ${first.body.slice(0, 300)}`);
      const body = {
        rows: (JSON.parse(first.body) as unknown[]).length,
        count: String(first.headers.count ?? '—'),
        estimated: String(first.headers['count-estimated'] ?? 'no'),
        bytes: Buffer.byteLength(first.body),
      };
      const linesPerRequestOf = await linesPerRequest(server, url, headers, 50);
      const { statements } = captured[role];
      // One statement after another, as the list request sends them.
      const direct = directTarget(
        connection,
        SERVER_POOL[engine],
        statements.map((s) => [s]),
      );
      const floor = await startBaseline<{ port: number }>('list-floor.mjs', [
        JSON.stringify({
          connection,
          poolSize: SERVER_POOL[engine],
          statements: statements.map(({ text, params }) => ({ text, params })),
        }),
      ]);
      // The administrator's list is also measured as a browser asks for it (compression negotiated).
      const browser = { ...headers, 'accept-encoding': 'gzip, deflate, br, zstd' };
      const targets: Record<string, Target> = {
        server: (seconds) => httpLoad(url, { seconds, headers }),
        direct: direct.target,
        floor: (seconds) => httpLoad(`http://127.0.0.1:${floor.line.port}/`, { seconds }),
        ...(role === 'admin' ? { compressed: (seconds: number) => httpLoad(url, { seconds, headers: browser }) } : {}),
      };
      const healthz: number[] = [];
      let healthzFailed = 0;
      const cpu = {
        server: new CpuPerRequest(),
        direct: new CpuPerRequest(),
        floor: new CpuPerRequest(),
        compressed: new CpuPerRequest(),
      };
      const applications: Record<string, string> = { direct: 'gantry-bench-direct', floor: 'gantry-bench-floor' };
      const measured = await interleave(targets, async (key, run) => {
        const pids = {
          client: [key === 'direct' ? process.pid : key === 'floor' ? floor.child.pid : processes.server],
          database: engine === 'pglite' ? [processes.engine] : await backendPids(applications[key] ?? 'gantry'),
        };
        const counter = cpu[key as keyof typeof cpu];
        if (key !== 'server') return counter.around(pids, run);
        const client = probe(`${server.origin}/healthz`, PROBE_EVERY_MS);
        const slice = await counter.around(pids, run);
        const probed = await client.stop();
        healthz.push(...probed.times);
        healthzFailed += probed.failed;
        return slice;
      }).finally(() => {
        floor.child.kill('SIGTERM');
        return direct.close();
      });
      if (measured.compressed) {
        const sample = await get(url, browser);
        compressed = {
          result: measured.compressed,
          encoding: String(sample.headers['content-encoding'] ?? 'none'),
          bytes: Buffer.byteLength(sample.body, 'latin1'),
        };
      }
      const plans = [];
      for (const s of statements) plans.push(await plan(connection, s));
      roles[role] = {
        server: must(measured.server, 'server run'),
        direct: must(measured.direct, 'direct run'),
        floor: must(measured.floor, 'floor run'),
        healthz: { ...summarise(healthz), failed: healthzFailed },
        statements,
        plans,
        body,
        linesPerRequest: linesPerRequestOf,
        cpu: {
          server: [cpu.server.of('client'), cpu.server.of('database')],
          direct: [cpu.direct.of('client'), cpu.direct.of('database')],
          floor: [cpu.floor.of('client'), cpu.floor.of('database')],
        },
      };
    }

    let serverConnections: number | undefined;
    if (engine === 'postgres') {
      const client = new pg.Client(connection);
      await client.connect();
      serverConnections = Number(
        (
          await client.query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'gantry'",
          )
        ).rows[0]?.n,
      );
      await client.end();
    }
    await sleep(2000);
    const loaded = memoryOf(server);
    return {
      engine,
      version,
      seeded,
      startMs: server.startMs,
      idle,
      loaded,
      roles,
      ...(compressed ? { compressed } : {}),
      ...(serverConnections === undefined ? {} : { serverConnections }),
      loadAverage: `${startLoad} → ${loadAverage()}`,
    };
  } finally {
    await catalogue?.end().catch(() => undefined);
    await stopServer(server);
  }
}

/** Runs the section on both engines; prints the comparison and what each figure includes. */
export async function projectsBench(): Promise<void> {
  console.log(
    `projects: ${SEED_PROJECTS.toLocaleString('en')} projects, ${SEED_TENANTS.toLocaleString('en')} tenants, page of ${PAGE} with count`,
  );
  const results = [await benchEngine('pglite')];
  results.push(await withPostgres((url) => benchEngine('postgres', url)));

  const name = (e: Engine) => (e === 'pglite' ? 'embedded PGlite' : 'PostgreSQL');
  const rows: string[][] = [];
  for (const r of results) {
    for (const role of ROLES) {
      const { server, direct, floor, healthz } = r.roles[role];
      const throughput = server.rate / direct.rate;
      const p99 = server.latency.p99 / direct.latency.p99;
      const who = role === 'admin' ? 'administrator' : `tenant ${TENANT}`;
      const label = `${name(r.engine)}, ${who}`;
      rows.push([
        `${name(r.engine)}`,
        who,
        rateText(server),
        rateText(direct),
        `${rateText(floor)}; ${((floor.rate / direct.rate) * 100).toFixed(0)} %, ${(floor.latency.p99 / direct.latency.p99).toFixed(2)}×`,
        `${(throughput * 100).toFixed(0)} % ${goal(`${label}: list throughput vs direct SQL`, `≥ ${GOALS.throughput * 100} %`, `${(throughput * 100).toFixed(0)} %`, throughput >= GOALS.throughput)}`,
        `${p99.toFixed(2)}× ${goal(`${label}: list p99 vs direct SQL`, `≤ ${GOALS.p99}×`, `${p99.toFixed(2)}×`, p99 <= GOALS.p99)}`,
        `${ms(healthz.p99)} / ${ms(healthz.max)} (n=${healthz.n}${healthz.failed ? `, failed ${healthz.failed}` : ''}) ${goal(`${label}: /healthz p99 during the list load`, `≤ ${GOALS.healthzMs} ms`, `${ms(healthz.p99)} ms`, healthz.p99 <= GOALS.healthzMs)}`,
      ]);
    }
  }
  console.log(
    `\n### Project list under ${CONNECTIONS} clients: the server vs the same SQL run directly (${WARM_UP_SECONDS} s warm-up, then ${LOAD_SECONDS} s each in ${ROUNDS} turns)`,
  );
  printTable(
    [
      'engine',
      'who',
      'server: req/s, p50 / p99 ms',
      'direct SQL: req/s, p50 / p99 ms',
      'floor server: req/s, p50 / p99 ms; throughput and p99 vs direct',
      'throughput server / direct',
      'p99 server / direct',
      '/healthz p99 / max ms meanwhile',
    ],
    rows,
  );

  const facts: string[][] = [];
  const fact = (measure: string, value: (r: EngineResult) => string) =>
    facts.push([measure, ...results.map((r) => value(r))]);
  fact('engine', (r) => r.version);
  fact(
    'seeded projects / tenants (projects table + indexes)',
    (r) => `${r.seeded.projects} / ${r.seeded.tenants} (${r.seeded.size})`,
  );
  fact(
    'seed by bulk SQL: rows / rebuild indexes / VACUUM ANALYZE (s)',
    (r) =>
      `${(r.seeded.loadMs / 1000).toFixed(1)} / ${(r.seeded.indexMs / 1000).toFixed(1)} (${r.seeded.indexes} indexes) / ${(r.seeded.vacuumMs / 1000).toFixed(1)}`,
  );
  fact('npm start → /healthz 200 on the seeded data (ms)', (r) => r.startMs.toFixed(0));
  fact('RSS 2 s after that start, idle (MiB)', (r) => memoryText(r.idle));
  fact('RSS 2 s after the loads of this section (MiB)', (r) => memoryText(r.loaded));
  for (const role of ROLES) {
    fact(`${role}: answer (rows, count header, count-estimated, bytes)`, (r) => {
      const b = r.roles[role].body;
      return `${b.rows}, ${b.count}, ${b.estimated}, ${b.bytes}`;
    });
    fact(`${role}: statements per request (steady state) and plans`, (r) =>
      r.roles[role].plans.map((p, i) => `${i + 1}. ${p}`).join('<br>'),
    );
    fact(`${role}: server log lines per request`, (r) => r.roles[role].linesPerRequest.toFixed(2));
    fact(
      `${role}: CPU ms / request, server: server process + database; direct: bench client + database; floor: floor server + database`,
      (r) => {
        const { server, direct, floor } = r.roles[role].cpu;
        const pair = ([a, b]: [number, number]) => `${a.toFixed(2)} + ${b.toFixed(2)}`;
        return `server ${pair(server)}; direct ${pair(direct)}; floor ${pair(floor)}`;
      },
    );
  }
  fact(
    'administrator, with Accept-Encoding: gzip, deflate, br, zstd (as browsers): req/s, p50 / p99 ms (encoding, bytes)',
    (r) =>
      r.compressed ? `${rateText(r.compressed.result)} (${r.compressed.encoding}, ${r.compressed.bytes} B)` : '—',
  );
  fact("server's request connections open on PostgreSQL after the load (pool max)", (r) =>
    r.serverConnections === undefined ? '— (one engine session)' : `${r.serverConnections} (${SERVER_POOL.postgres})`,
  );
  fact('load average (1, 5, 15 min) at start → end of the engine', (r) => r.loadAverage);
  printTable(['measure', ...results.map((r) => name(r.engine))], facts);

  const statements = must(results[0], 'result').roles;
  printNotes([
    `list = GET ${LIST_PATH.replace(/\?.*/, '')}?query=${JSON.stringify(LIST_QUERY)} (the console's default view: newest first, enabled, page of ${PAGE}, with the total)`,
    "server = `npm start` (built bundle, NODE_ENV=production, LOG_LEVEL unset → info: one log line per request written to a file), its caches warm: sessions, the platform licence, list totals (3 s, single flight, stale-while-revalidate; the administrator's total is the maintained project_counts sum, a tenant's own total is read live from project_counts). PGlite: the engine in its own process, reached over its Unix socket by a pool of 4 (2 statements of one tenant at once); PostgreSQL: a pool of 10",
    'load: autocannon, 50 connections, in its own process (a new one per turn); no Accept-Encoding (answers not compressed) except the row that says so',
    `direct SQL = the statements the server's own code sends for one steady-state request (captured at its node-postgres pool, texts below), run in order by 50 concurrent loops on a node-postgres pool of the server's size (PGlite: ${SERVER_POOL.pglite}, over the same engine process's socket while the server idles; PostgreSQL: ${SERVER_POOL.postgres}); it includes node-postgres parsing the rows, not drizzle's mapping, JSON, HTTP, auth or logging`,
    `/healthz = a separate client, one GET every ${PROBE_EVERY_MS} ms on its own connection, during the server's measured turns (${LOAD_SECONDS} s)`,
    "PostgreSQL is a throwaway cluster (scripts/pg-throwaway.sh: fsync off, synchronous_commit off, default shared_buffers) on loopback; PGlite runs with the server's defaults (shared_buffers 32MB)",
    `server and direct SQL (and the administrator's compressed list) took turns: ${ROUNDS} rounds of ${(LOAD_SECONDS / ROUNDS).toFixed(1)} s after a ${WARM_UP_SECONDS} s warm-up each, so that the drift of this 2-core machine shared with other work falls on both; figures are shapes, not capacities`,
  ]);
  console.log('\nStatements captured (steady state):');
  for (const role of ROLES) {
    for (const s of statements[role].statements) {
      const text = s.text.replace(
        /^select (.{200,}?) from /,
        (_all, columns: string) => `select <${columns.split(', ').length} columns> from `,
      );
      console.log(`  [${role}] ${text}  -- params ${JSON.stringify(s.params)}`);
    }
  }
}
