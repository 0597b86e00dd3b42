/**
 * Sites section of `npm run bench` (`npm run bench -- sites`, issue 15 §3):
 *  - static files of a project's front site (`/_p_{id}/…` on the real server, `npm start`) as a ratio
 *    to the same files served by a bare `@fastify/static` server (bench/static-server.mjs, its own
 *    process) in the same run, taking turns (`interleave`); goal ≥ 0.8;
 *  - 1,000 projects with ports: created through the API (each save binds its port live), the server's
 *    memory before and after, then a restart: `npm start` → healthy with the 1,000 listeners bound at
 *    start, and its memory.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { localDate } from '@gantry/shared';
import {
  BENCH_PASSWORD,
  cpuMs,
  get,
  goal,
  httpLoad,
  installLicence,
  licenceKey,
  login,
  memoryOf,
  memoryText,
  merge,
  post,
  printNotes,
  printTable,
  processesOf,
  rateText,
  type Slice,
  scratch,
  startBaseline,
  startServer,
  stopServer,
  WARM_UP_SECONDS,
} from './lib.js';

/** Projects with ports of the second part (0: the static files only). */
const PROJECTS_WITH_PORTS = Number(process.env.BENCH_SITE_PORTS ?? 1000);
/** Rounds of the static comparison and each slice's length (per target, per round). */
const STATIC_ROUNDS = Number(process.env.BENCH_SITE_ROUNDS ?? 7);
const STATIC_SLICE_SECONDS = Number(process.env.BENCH_SITE_SLICE_SECONDS ?? 2);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * Both targets warmed up, then STATIC_ROUNDS rounds of one slice each, which goes first swapped
 * every round: each round's ratio (site / bare) compares two stretches a few seconds apart. Also the
 * CPU time each server process used in its slices: answers per CPU second, a ratio that the share
 * of the two cores this shared machine happens to give each process does not move.
 */
async function pairedRounds(plain: string, site: string, pids: { bare?: number; site?: number }) {
  await httpLoad(plain, { seconds: WARM_UP_SECONDS });
  await httpLoad(site, { seconds: WARM_UP_SECONDS });
  const bare: Slice[] = [];
  const front: Slice[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  /** One slice on `url`, with the CPU ms the process `pid` used meanwhile. */
  const slice = async (url: string, pid: number | undefined) => {
    const before = cpuMs(pid);
    const measured = await httpLoad(url, { seconds: STATIC_SLICE_SECONDS });
    return { measured, cpu: Math.max(1, cpuMs(pid) - before) };
  };
  for (let round = 0; round < STATIC_ROUNDS; round++) {
    let b: Awaited<ReturnType<typeof slice>>;
    let f: Awaited<ReturnType<typeof slice>>;
    if (round % 2 === 0) {
      b = await slice(plain, pids.bare);
      f = await slice(site, pids.site);
    } else {
      f = await slice(site, pids.site);
      b = await slice(plain, pids.bare);
    }
    bare.push(b.measured);
    front.push(f.measured);
    const answers = (x: Slice) => x.latencies.length;
    ratios.push(answers(f.measured) / f.measured.seconds / (answers(b.measured) / b.measured.seconds));
    cpuRatios.push(answers(f.measured) / f.cpu / (answers(b.measured) / b.cpu));
  }
  return { bare: merge(bare), site: merge(front), ratios, cpuRatios };
}

/** The package: an index, a hashed script (~48 KiB), a style sheet (~8 KiB). */
function writePackage(dir: string): string[] {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Bench</title><script src="assets/app-5f3a9c1e.js"></script>',
  );
  writeFileSync(path.join(dir, 'assets', 'app-5f3a9c1e.js'), `/* bench */\n${'console.log("x");\n'.repeat(2800)}`);
  writeFileSync(path.join(dir, 'assets', 'style.css'), `${'body{color:#123456}\n'.repeat(400)}`);
  return ['index.html', 'assets/app-5f3a9c1e.js', 'assets/style.css'];
}

async function startStatic(root: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, line } = await startBaseline<{ port: number }>('static-server.mjs', [root]);
  return { child, url: `http://127.0.0.1:${line.port}/` };
}

/** `count` consecutive free loopback ports from 5001 up (each bound once to check, then released). */
async function freeRange(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (let base = 20_000; base + count < 32_000; base += count) {
    let ok = true;
    for (let port = base; port < base + count && ok; port++) ok = await free(port);
    if (ok) return base;
  }
  throw new Error('no free port range');
}

export async function sitesBench(): Promise<void> {
  const dataDir = scratch('sites');
  const env = { GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64 };
  let server = await startServer({ dataDir, logFile: `${scratch('sites-log')}/server.log`, env });
  const firstStartMs = server.startMs;
  const staticRoot = scratch('sites-static');
  writePackage(staticRoot);
  const bare = await startStatic(staticRoot);
  try {
    const base = `${server.origin}/portal/rest/spm`;
    if (!(await post(`${base}/admin/register`, { password: BENCH_PASSWORD })).ok) throw new Error('register');
    const token = await login(base, 'admin', BENCH_PASSWORD);
    await installLicence(server.origin, token);
    const auth = { authorization: `Bearer ${token}` };
    const grant = (userCount: number) => ({
      validityPeriod: 365,
      startTime: localDate(new Date()),
      userCount,
      flow: { tableCount: 1, flowCount: 1 },
      visual: { dashboardCount: 1 },
      features: [],
    });
    const created = await post(
      `${base}/project`,
      { id: 'bench1', name: 'Bench site', industry: 'coal', projectType: 'blank', grant: grant(5) },
      auth,
    );
    if (!created.ok) throw new Error(`project: ${created.status} ${await created.text()}`);
    const files = writePackage(path.join(dataDir, 'projects', 'bench1', 'html'));

    // Static files: the same three files, the real front site vs the bare static server.
    const rows: string[][] = [];
    for (const file of files) {
      const site = `${server.origin}/_p_bench1/${file}`;
      const plain = `${bare.url}${file}`;
      for (const url of [site, plain]) {
        const answer = await get(url);
        if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
      }
      const measured = await pairedRounds(plain, site, { bare: bare.child.pid, site: processesOf(server).server });
      const ratio = median(measured.ratios);
      const cpuRatio = median(measured.cpuRatios);
      rows.push([
        file,
        rateText(measured.bare),
        rateText(measured.site),
        measured.ratios.map((r) => r.toFixed(2)).join(' '),
        ratio.toFixed(2),
        measured.cpuRatios.map((r) => r.toFixed(2)).join(' '),
        goal(
          `front site ${file} req/s per CPU second vs @fastify/static (median of rounds)`,
          '≥ 0.8',
          cpuRatio.toFixed(2),
          cpuRatio >= 0.8,
        ),
      ]);
    }
    printTable(
      [
        'file',
        'bare @fastify/static: req/s, p50 / p99 ms',
        'front site /_p_bench1/: req/s, p50 / p99 ms',
        'req/s ratio per round',
        'median',
        'answers per CPU second, ratio per round',
        'goal: its median',
      ],
      rows,
    );
    printNotes([
      `Same files on disk (index.html, a 48 KiB hashed script, an 8 KiB style sheet), 50 connections, no Accept-Encoding (not compressed), keep-alive. Per file: ${WARM_UP_SECONDS} s warm-up of each, then ${STATIC_ROUNDS} rounds of ${STATIC_SLICE_SECONDS} s on each, the order swapped every round; the ratio of each round's two rates, and their median (one disturbed round moves it little).`,
      "The goal is judged on answers per CPU second of each server process (/proc utime + stime over its slices): on 2 cores shared with other work, req/s mostly measures the share of the cores each process is given in its slice; the CPU each answer costs is what the server's own work decides.",
      "The front site per request: the server's hooks (CORS, security headers, NUL check, guards), the project's state (cached 2 s), path checks, the file from memory (files ≤ 256 KiB kept 2 s, else lstat of each path component and an O_NOFOLLOW open), its prepared headers (type, caching, ETag/Last-Modified, CSP), one log line.",
      'The bare server: Fastify + @fastify/static alone, logger off, its own process.',
    ]);
    if (PROJECTS_WITH_PORTS === 0) return;

    // 1,000 projects with ports, bound live by their saves.
    const before = memoryOf(server);
    const first = await freeRange(PROJECTS_WITH_PORTS);
    const began = performance.now();
    for (let i = 0; i < PROJECTS_WITH_PORTS; i++) {
      const response = await post(
        `${base}/project`,
        { id: `port${i}`, name: `Port ${i}`, industry: 'coal', projectType: 'blank', grant: grant(1), port: first + i },
        auth,
      );
      if (!response.ok) throw new Error(`project port${i}: ${response.status} ${await response.text()}`);
    }
    const createMs = performance.now() - began;
    const bound = memoryOf(server);
    const probe = await get(`http://127.0.0.1:${first + PROJECTS_WITH_PORTS - 1}/`);
    if (probe.status !== 200) throw new Error(`the last project's port: ${probe.status}`);
    await stopServer(server);
    server = await startServer({ dataDir, logFile: `${scratch('sites-log2')}/server.log`, env, port: server.port });
    const restarted = memoryOf(server);
    const again = await get(`http://127.0.0.1:${first}/`);
    printTable(
      ['measure', 'figure'],
      [
        ['first start: npm start → healthy, no project ports (ms)', firstStartMs.toFixed(0)],
        ['server memory before (MiB RSS)', memoryText(before)],
        [
          `${PROJECTS_WITH_PORTS} projects created with ports, each save binding its port (s)`,
          (createMs / 1000).toFixed(1),
        ],
        [`server memory with ${PROJECTS_WITH_PORTS} ports bound (MiB RSS)`, memoryText(bound)],
        [
          `restart: npm start → healthy with ${PROJECTS_WITH_PORTS} listeners bound at start (ms)`,
          server.startMs.toFixed(0),
        ],
        ['server memory after that restart (MiB RSS)', memoryText(restarted)],
        ['the first project port after the restart', String(again.status)],
      ],
    );
    printNotes([
      `Ports ${first}–${first + PROJECTS_WITH_PORTS - 1} on 127.0.0.1; the listeners bind in the server's onReady, before it answers /healthz.`,
      'npm start includes npm itself and the build check (the server is already built by the first start).',
    ]);
  } finally {
    bare.child.kill('SIGTERM');
    await stopServer(server).catch(() => undefined);
  }
}
