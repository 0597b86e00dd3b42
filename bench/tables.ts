/**
 * Tables section of `npm run bench` (`npm run bench -- tables`, issue 16 §4):
 *  - a published table of 50 fields (text, number, choice, date, boolean, an auto-number and two
 *    formulas) with 100,000 records written directly in the database;
 *  - the records list (`GET tables/{id}/records`, a page of 100 with a filter and a sort on field
 *    values) at 50 concurrent clients (autocannon in its own process), against the same statement
 *    run directly through the server's own pool by 50 concurrent workers in this process, taking
 *    turns (goals: throughput ≥ 0.8 and p99 ≤ 1.2 of the direct statement's);
 *  - a record write (every input field; the auto-number and the formulas computed), sequentially.
 * The app is built in this process (`buildApp`, logging off; embedded PGlite in its own process on a
 * scratch directory; 127.0.0.1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TableDefinition } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { parseListQuery } from '../apps/server/src/lib/list-query/list-query.js';
import { MAX_TABLE_INDEXES } from '../apps/server/src/modules/tables/record-index.js';
import { sortKeys } from '../apps/server/src/modules/tables/record-paging.js';
import { TableRepository } from '../apps/server/src/modules/tables/table.repository.js';
import { recordResource } from '../apps/server/src/modules/tables/table.service.js';
import {
  BENCH_PASSWORD,
  CONNECTIONS,
  goal,
  httpLoad,
  installLicence,
  interleave,
  LOAD_SECONDS,
  licenceKey,
  monthGrant,
  ms,
  post,
  printNotes,
  printTable,
  rateText,
  type Slice,
  sample,
  summarise,
} from './lib.js';

const RECORDS = Number(process.env.BENCH_TABLE_RECORDS ?? 100_000);
const PROJECT = 'benchtables';
const CHOICES = ['open', 'shut', 'service', 'idle', 'fault'];

/** Columns a designer lets the list sort by (every field is a filter field). */
const SORTABLE = new Set(['t1', 'n1', 'n2', 'c1', 'd1', 'b1', 'no', 'total']);

/** 50 fields: t1–t20 text, n1–n15 number, c1–c5 choice, d1–d5 date, b1–b3 boolean, no, total. */
function fields() {
  const field = (name: string, type: string, options: Record<string, unknown> = {}) => ({
    name,
    title: name,
    type,
    options,
    showInFilter: true,
    sortable: SORTABLE.has(name),
  });
  return [
    ...Array.from({ length: 20 }, (_, i) => field(`t${i + 1}`, 'text')),
    ...Array.from({ length: 15 }, (_, i) => field(`n${i + 1}`, 'number', { decimals: 2 })),
    ...Array.from({ length: 5 }, (_, i) =>
      field(`c${i + 1}`, 'select', { options: CHOICES.map((value) => ({ value })) }),
    ),
    ...Array.from({ length: 5 }, (_, i) => field(`d${i + 1}`, 'date')),
    ...Array.from({ length: 3 }, (_, i) => field(`b${i + 1}`, 'boolean')),
    field('no', 'autoNumber', { prefix: 'R-', digits: 8 }),
    field('total', 'formula', { expression: 'n1 * n2 + n3', decimals: 2 }),
  ];
}

export async function tablesBench(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-tables-'));
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      GANTRY_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64,
      GANTRY_LOGIN_RATE_PER_MINUTE: '100000',
      // BENCH_DATABASE_URL: the same run on PostgreSQL (scripts/pg-throwaway.sh) instead of embedded PGlite.
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    }),
    persistDatabase: false,
  };
  const { app, database } = await buildApp({ config, logger: false });
  try {
    // The server's own time for each records page (Fastify: request read → answer written), beside what
    // the clients see: the difference is time outside the handler (the event loop, the sockets, the client).
    const serverTimes: number[] = [];
    app.addHook('onResponse', async (request, reply) => {
      if (request.url.includes('/records?')) serverTimes.push(reply.elapsedTime);
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const spm = `${base}/portal/rest/spm`;
    const password = BENCH_PASSWORD;
    await post(`${spm}/admin/register`, { password });
    const { token } = (await (await post(`${spm}/login`, { username: 'admin', password })).json()) as { token: string };
    await installLicence(base, token);
    const auth = { authorization: `Bearer ${token}` };
    const headers = { ...auth, 'x-request-project': PROJECT };
    const created = await post(
      `${spm}/project`,
      {
        id: PROJECT,
        name: 'Bench tables',
        industry: 'other',
        projectType: 'blank',
        grant: monthGrant(5, 1),
      },
      auth,
    );
    if (created.status !== 200) throw new Error(`project: ${created.status} ${await created.text()}`);
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${spm}${url}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const table = String((await call('POST', '/tables', { name: 'wells' })).id);
    await call('PUT', `/tables/${table}/draft`, { fields: fields() });
    await call('POST', `/tables/${table}/publish`, {});

    // 100,000 records written directly (the values the checks would take), then analysed.
    const seedStarted = performance.now();
    const pairs = (names: string[], value: (name: string, i: number) => string) =>
      names.map((name, i) => `'${name}', ${value(name, i)}`).join(', ');
    const texts = pairs(
      Array.from({ length: 20 }, (_, i) => `t${i + 1}`),
      (_, i) => `'well ' || ((g * ${i + 7}) % 997)`,
    );
    const numbers = pairs(
      Array.from({ length: 15 }, (_, i) => `n${i + 1}`),
      (_, i) => `round((((g * ${i + 13}) % 10007) / 10.0)::numeric, 2)`,
    );
    const rest = pairs(
      [...Array.from({ length: 5 }, (_, i) => `c${i + 1}`), ...Array.from({ length: 5 }, (_, i) => `d${i + 1}`)],
      (name, i) =>
        name.startsWith('c')
          ? `(array['open','shut','service','idle','fault'])[1 + (g + ${i}) % 5]`
          : `to_char(date '2020-01-01' + ((g * ${i + 3}) % 2000), 'YYYY-MM-DD')`,
    );
    for (let from = 1; from <= RECORDS; from += 20_000) {
      const to = Math.min(RECORDS, from + 19_999);
      await database.background.execute(
        sql.raw(`
        INSERT INTO project_documents (project_id, collection, id, doc, create_time, update_time)
        SELECT '${PROJECT}', 'table_record', 'r' || lpad(g::text, 8, '0'),
          jsonb_build_object('table', '${table}', 'createdBy', 'admin', 'data',
            jsonb_build_object(${texts}) || jsonb_build_object(${numbers}) || jsonb_build_object(${rest})
            || jsonb_build_object('b1', g % 2 = 0, 'b2', g % 3 = 0, 'b3', g % 5 = 0, 'no', 'R-' || lpad(g::text, 8, '0'))),
          now() - (g || ' seconds')::interval, now()
        FROM generate_series(${from}, ${to}) AS g`),
      );
    }
    await database.background.execute(
      sql.raw(
        `UPDATE project_documents SET doc = jsonb_set(doc, '{counters}', '{"no": ${RECORDS}}') WHERE project_id = '${PROJECT}' AND collection = 'table' AND id = '${table}'`,
      ),
    );
    await database.background.execute(sql.raw('ANALYZE project_documents'));
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const query = { filter: { n1: { gte: 500 }, c1: 'open' }, sort: { n2: -1 }, limit: 100 };
    const url = `${spm}/tables/${table}/records?query=${encodeURIComponent(JSON.stringify(query))}`;
    const page = (await (await fetch(url, { headers })).json()) as unknown[];

    // The same statement, direct: the repository's list with the parsed query, through the server's pool.
    const definition = (await call('GET', `/tables/${table}`)).published as TableDefinition;
    const repository = new TableRepository(database.db);
    const parsed = parseListQuery(JSON.stringify(query), recordResource(definition));
    const keys = sortKeys(query.sort);
    const direct = async (seconds: number): Promise<Slice> => {
      const latencies: number[] = [];
      let errors = 0;
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < until) {
            const began = performance.now();
            try {
              await repository.listRecords(PROJECT, table, parsed, undefined, { keys, after: undefined });
              latencies.push(performance.now() - began);
            } catch {
              errors++;
            }
          }
        }),
      );
      return { seconds, latencies, non2xx: 0, errors };
    };
    serverTimes.length = 0;
    const measured = await interleave({
      api: (seconds) => httpLoad(url, { seconds, headers }),
      direct,
    });

    const server = summarise(serverTimes);
    // A record write: every input field given; the auto-number and the formulas computed.
    let n = 0;
    const record = () => {
      n++;
      return Object.fromEntries(
        fields()
          .filter((f) => f.type !== 'autoNumber' && f.type !== 'formula')
          .map((f) => [
            f.name,
            f.type === 'text'
              ? `well ${n}`
              : f.type === 'number'
                ? (n % 1000) / 4
                : f.type === 'select'
                  ? CHOICES[n % 5]
                  : f.type === 'date'
                    ? '2024-05-01'
                    : n % 2 === 0,
          ]),
      );
    };
    const write = await sample(() => call('POST', `/tables/${table}/records`, record()), {
      min: 100,
      max: 300,
      budgetMs: 15_000,
    });

    const p99Ratio = measured.api.latency.p99 / measured.direct.latency.p99;
    const throughputRatio = measured.api.rate / measured.direct.rate;
    console.log(
      `\n### Records list (${RECORDS.toLocaleString('en')} records of 50 fields; ${CONNECTIONS} clients, ${LOAD_SECONDS} s per target in turns; seeded in ${seedSeconds.toFixed(0)} s)`,
    );
    printTable(
      ['target', 'answers/s, p50 / p99 ms', 'goal'],
      [
        [
          `GET tables/{id}/records (filter n1 ≥ 500 and c1 = open, sort n2 desc, limit 100: ${page.length} rows)`,
          rateText(measured.api),
          `${goal('records list: throughput API ÷ direct', '≥ 0.8', throughputRatio.toFixed(2), throughputRatio >= 0.8)}; ${goal('records list: p99 API ÷ direct', '≤ 1.2', p99Ratio.toFixed(2), p99Ratio <= 1.2)}`,
        ],
        [
          "the same answers, the server's own time (request read → answer written)",
          `${ms(server.p50)} / ${ms(server.p99)}`,
          '',
        ],
        [
          'the same statement direct (server pool, 50 workers)',
          rateText(measured.direct),
          `throughput ${throughputRatio.toFixed(2)}, p99 ${p99Ratio.toFixed(2)} (API ÷ direct)`,
        ],
      ],
    );
    console.log('\n### Record write (sequential)');
    printTable(
      ['call', 'p50 / p99 ms', 'n'],
      [
        [
          'POST tables/{id}/records (48 input fields checked; auto-number, formula, table row lock)',
          `${ms(write.p50)} / ${ms(write.p99)}`,
          String(write.n),
        ],
      ],
    );
    printNotes([
      `Publishing made ${MAX_TABLE_INDEXES} partial expression indexes (field value, id) on the table's records, with a statistics object on each expression: the 8 sortable fields, then the first filter fields (t2–t9); the list's sort field n2 and filter fields n1, c1 are among them (record-index.ts).`,
      'Direct: the repository call with the same parsed query through the same node-postgres pool, no HTTP, session, policy or JSON answer.',
      "The server's own time is Fastify's elapsed time of each answer the clients counted: from the request read to the answer written. What the clients see beyond it is spent outside the handler: requests waiting in the event loop or the sockets, and the client process itself (autocannon shares the 2 cores).",
      'The app runs in this process (the direct statement needs its pool; PGlite has one owner), with its logger off.',
    ]);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
