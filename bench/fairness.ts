/**
 * Tenant fairness on the embedded engine (issue 33): tenant A reads one document while tenant B runs
 * 6 parallel `like` lists over ~36 MB of documents, against one of B's lists run alone, in the same
 * run. Goal: A never waits behind more than one of B's statements — A's p50 ≤ B's list alone, A's
 * p99 ≤ 2× it.
 */
import http from 'node:http';
import { localDate, sha256Hex } from '@gantry/shared';
import pg from 'pg';
import { BACKGROUND_APPLICATION, SOCKET_PORT } from '../apps/server/src/db/pglite-host-contract.js';
import {
  BENCH_PASSWORD,
  benchPlatform,
  engineSocketDir,
  get,
  goal,
  licenceKey,
  loadAverage,
  login,
  ms,
  post,
  printNotes,
  printTable,
  sample,
  scratch,
  startServer,
  stopServer,
  summarise,
} from './lib.js';

const B_TENANT = 'fairb';
const B_PASSWORD = sha256Hex('Tenant12345');
const A_PROJECT = 'fa0001';
const B_PROJECT = 'fb0001';
/** ~36 MB of documents in B's project (about 600 bytes each). */
const B_DOCUMENTS = Number(process.env.BENCH_FAIRNESS_DOCUMENTS ?? 60_000);
const B_PARALLEL = 6;
const A_READS = Number(process.env.BENCH_FAIRNESS_READS ?? 60);
const CORE = '/portal/rest/core';
const LIST = `${CORE}/table_record?query=${encodeURIComponent(JSON.stringify({ filter: { note: { like: 'valve 4[0-9] ' } }, limit: 20 }))}`;

const documentsSql = (n: number) => `
INSERT INTO project_documents (project_id, collection, id, doc, create_time, update_time)
SELECT '${B_PROJECT}', 'table_record', 'tr' || lpad(g::text, 8, '0'),
  jsonb_build_object('tableId', 'tbl' || (g % 20), 'value', (g * 131) % 1000,
    'note', 'pump ' || (g % 97) || ' ' || repeat(md5(g::text), 16)),
  now() - make_interval(secs => g), now() - make_interval(secs => g)
FROM generate_series(1, ${n}) AS g`;

export async function fairnessBench(): Promise<void> {
  const options = {
    dataDir: scratch('fairness'),
    logFile: `${scratch('fairness-log')}/server.log`,
    env: { GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64 },
  };
  const server = await startServer(options);
  try {
    const adminToken = await benchPlatform(server.origin, BENCH_PASSWORD, A_PROJECT, 'Fairness A');
    const spm = `${server.origin}/portal/rest/spm`;
    const admin = { authorization: `Bearer ${adminToken}` };
    const grant = {
      validityPeriod: 3650,
      startTime: localDate(new Date()),
      userCount: 10,
      flow: { tableCount: 100, flowCount: 10 },
      visual: { dashboardCount: 10 },
      features: [],
    };
    const tenant = await post(
      `${spm}/user`,
      {
        id: B_TENANT,
        name: 'Fairness B',
        type: 0,
        industry: 'heating',
        grant,
        password: B_PASSWORD,
        password1: B_PASSWORD,
      },
      admin,
    );
    if (!tenant.ok) throw new Error(`tenant ${tenant.status}: ${await tenant.text()}`);
    const project = await post(
      `${spm}/project`,
      { id: B_PROJECT, name: 'Fairness B', industry: 'heating', projectType: 'blank', grant, user: B_TENANT },
      admin,
    );
    if (!project.ok) throw new Error(`project ${project.status}: ${await project.text()}`);
    const client = new pg.Client({
      host: engineSocketDir(server),
      port: SOCKET_PORT,
      user: 'postgres',
      database: 'postgres',
      application_name: BACKGROUND_APPLICATION,
    });
    await client.connect();
    await client.query(documentsSql(B_DOCUMENTS));
    await client.query('VACUUM ANALYZE project_documents');
    const size = (
      await client.query<{ size: string }>(
        `SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size FROM pg_inherits WHERE inhparent = 'project_documents'::regclass`,
      )
    ).rows[0]?.size;
    await client.end();

    const aHeaders = { ...admin, 'x-request-project': A_PROJECT };
    const saved = await post(`${server.origin}${CORE}/dashboard`, { _id: 'main', name: 'Main' }, aHeaders);
    if (!saved.ok) throw new Error(`A's document ${saved.status}`);
    const bToken = await login(spm, B_TENANT, B_PASSWORD);
    const bHeaders = { authorization: `Bearer ${bToken}`, 'x-request-project': B_PROJECT };
    // Each tenant its own connections: A one, B one per parallel list.
    const aAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const bAgent = new http.Agent({ keepAlive: true, maxSockets: B_PARALLEL });
    const readA = async () => {
      const read = await get(`${server.origin}${CORE}/dashboard/main`, aHeaders, aAgent);
      if (read.status !== 200) throw new Error(`A's read ${read.status}`);
    };
    const listB = async () => {
      const listed = await get(`${server.origin}${LIST}`, bHeaders, bAgent);
      if (listed.status !== 200) throw new Error(`B's list ${listed.status}: ${listed.body.slice(0, 200)}`);
    };

    console.log(`  seeded ${B_DOCUMENTS.toLocaleString('en')} documents (${size}); measuring…`);
    const loadBefore = loadAverage();
    const aAlone = await sample(readA, { min: 50, max: 200, budgetMs: 3_000 });
    const bAlone = await sample(listB, { min: 10, max: 30, budgetMs: 10_000 });
    console.log(`  A alone p50 ${ms(aAlone.p50)} ms, B's list alone p50 ${ms(bAlone.p50)} ms; now both…`);
    let loading = true;
    let bLists = 0;
    // B's failures end its clients and are said once A is done (never an unhandled rejection).
    const workers = Array.from({ length: B_PARALLEL }, async () => {
      while (loading) {
        await listB();
        bLists++;
      }
    }).map((worker) => worker.catch((error: unknown) => error));
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < A_READS; i++) {
      const t = performance.now();
      await readA();
      times.push(performance.now() - t);
    }
    const loadedMs = performance.now() - started;
    loading = false;
    const failed = (await Promise.all(workers)).find((result) => result !== undefined);
    if (failed) throw failed;
    const aLoaded = summarise(times);

    printTable(
      ['measure', 'A p50 ms', 'A p99 ms', 'A max ms', "B's list alone p50 ms", 'goal'],
      [
        ['A alone', ms(aAlone.p50), ms(aAlone.p99), ms(aAlone.max), ms(bAlone.p50), '—'],
        [
          `A while B runs ${B_PARALLEL} parallel lists`,
          ms(aLoaded.p50),
          ms(aLoaded.p99),
          ms(aLoaded.max),
          ms(bAlone.p50),
          `${goal('tenant fairness: A p50 ÷ B list alone', '≤ 1', (aLoaded.p50 / bAlone.p50).toFixed(2), aLoaded.p50 <= bAlone.p50)}; ${goal('tenant fairness: A p99 ÷ B list alone', '≤ 2', (aLoaded.p99 / bAlone.p50).toFixed(2), aLoaded.p99 <= 2 * bAlone.p50)}`,
        ],
      ],
    );
    printNotes([
      `server = \`npm start\` on PGlite (its own process), default logging; B's project holds ${B_DOCUMENTS.toLocaleString('en')} documents (project_documents ${size}); B's list: a \`like\` that matches none of them (a full scan), page of 20`,
      `A: ${aLoaded.n} sequential single-document GETs (its own project, another tenant) while B ran ${bLists} lists from ${B_PARALLEL} parallel clients over ${(loadedMs / 1000).toFixed(1)} s; B's list alone: ${bAlone.n} sequential lists`,
      `load average before ${loadBefore}, after ${loadAverage()}`,
    ]);
  } finally {
    await stopServer(server);
  }
}
