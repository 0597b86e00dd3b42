/**
 * Start section of `npm run bench` (`npm run bench -- start`): the production start as operators
 * run it, `npm start` (builds already up to date, then the bundled server in npm's child process,
 * the embedded engine in the server's child), NODE_ENV=production, default logging to a file:
 *  - start → first `GET /healthz` 200, BENCH_START_SAMPLES (5) samples on new data directories and
 *    as many on an existing one (the last new one, so it holds what a first start leaves);
 *  - RSS of the server process and of the engine process after each start, once settled;
 *  - stop: one SIGTERM to npm until npm has exited 0 (requests done, the database closed).
 * A warm-up start first builds what is stale and is not counted; a sample whose `npm start` rebuilt
 * (sources changed meanwhile) is taken again. RSS after the project-list load is in the projects table.
 * The baseline is the floor server (bench/start-floor.mjs: the same engine process, Fastify and
 * node-postgres, one statement, nothing else), also through `npm start`, on the same existing
 * directory, its samples alternated with the server's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  goal,
  type Memory,
  median,
  memoryOf,
  memoryText,
  must,
  printNotes,
  printTable,
  ROOT,
  rebuilt,
  type ServerRun,
  scratch,
  serverStartMs,
  sleep,
  startServer,
  stopServer,
} from './lib.js';

const SAMPLES = Number(process.env.BENCH_START_SAMPLES ?? 5);
/** How long a started server is left alone before its memory is read. */
const SETTLE_MS = 2_000;
const START_GOAL_MS = 1_500;
const RSS_GOAL_MIB = 400;

const spread = (values: number[]) =>
  `${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)} (min ${Math.min(...values).toFixed(0)}, n=${values.length})`;
const total = (m: Memory) => m.server + m.engine;
const peakText = (list: Memory[]) =>
  `${Math.max(...list.map((m) => m.peak.server)).toFixed(0)} / ${Math.max(...list.map((m) => m.peak.engine)).toFixed(0)}`;

export async function startBench(): Promise<void> {
  const logFile = `${scratch('start-logs')}/server.log`;
  let retaken = 0;
  /** Starts until a start that did not rebuild first (at most 3 tries). */
  const start = async (dataDir: () => string): Promise<ServerRun> => {
    for (let attempt = 0; ; attempt++) {
      const run = await startServer({ dataDir: dataDir(), logFile: `${logFile}.${Date.now()}` });
      if (!rebuilt(run) || attempt === 2) return run;
      retaken++;
      await stopServer(run);
    }
  };

  // Warm-up: builds the console and the server if they are stale; not counted.
  await stopServer(await startServer({ dataDir: scratch('start'), logFile }));

  const fresh: number[] = [];
  const freshOwn: number[] = [];
  const againOwn: number[] = [];
  const freshMemory: Memory[] = [];
  const stops: number[] = [];
  let existing = '';
  for (let i = 0; i < SAMPLES; i++) {
    const run = await start(() => {
      existing = scratch('start');
      return existing;
    });
    fresh.push(run.startMs);
    await sleep(SETTLE_MS);
    freshMemory.push(memoryOf(run));
    stops.push(await stopServer(run));
    freshOwn.push(serverStartMs(run));
  }

  const floorPackage = scratch('start-floor');
  const floorScript = path.join(ROOT, 'bench/start-floor.mjs');
  writeFileSync(
    path.join(floorPackage, 'package.json'),
    JSON.stringify({
      private: true,
      scripts: { start: `exec node --enable-source-maps ${JSON.stringify(floorScript)}` },
    }),
  );
  const again: number[] = [];
  const againMemory: Memory[] = [];
  const floor: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const run = await start(() => existing);
    again.push(run.startMs);
    await sleep(SETTLE_MS);
    againMemory.push(memoryOf(run));
    stops.push(await stopServer(run));
    againOwn.push(serverStartMs(run));
    const floorRun = await startServer({ dataDir: existing, logFile: `${logFile}.floor.${i}`, cwd: floorPackage });
    floor.push(floorRun.startMs);
    await sleep(SETTLE_MS);
    await stopServer(floorRun);
  }

  const worst = (list: Memory[]) => list.reduce((a, b) => (total(b) > total(a) ? b : a));
  const medianMemory = (list: Memory[]) => {
    const sorted = [...list].sort((a, b) => total(a) - total(b));
    return must(sorted[Math.floor((sorted.length - 1) / 2)], 'sample');
  };
  const startGoal = goal(
    'start → healthy, existing data directory (median)',
    `≤ ${START_GOAL_MS} ms`,
    `${median(again).toFixed(0)} ms`,
    median(again) <= START_GOAL_MS,
  );
  const rssFresh = goal(
    'idle RSS after a start on a new data directory (largest)',
    `≤ ${RSS_GOAL_MIB} MiB`,
    `${total(worst(freshMemory)).toFixed(0)} MiB`,
    total(worst(freshMemory)) <= RSS_GOAL_MIB,
  );
  const rssAgain = goal(
    'idle RSS after a start on an existing data directory (largest)',
    `≤ ${RSS_GOAL_MIB} MiB`,
    `${total(worst(againMemory)).toFixed(0)} MiB`,
    total(worst(againMemory)) <= RSS_GOAL_MIB,
  );
  const ratio = median(again) / median(floor);
  console.log('\n### Start and memory (npm start, embedded PGlite)');
  printTable(
    ['measure', 'value', 'goal'],
    [
      ['npm start → /healthz 200, new data directory (ms, median / max)', spread(fresh), ''],
      ['npm start → /healthz 200, existing data directory (ms, median / max)', spread(again), startGoal],
      ['baseline: the floor server through npm start, same existing directory (ms, median / max)', spread(floor), ''],
      [
        'server ÷ floor, existing directory (medians)',
        ratio.toFixed(2),
        goal('start: server ÷ floor, existing directory', '≤ 1.2', ratio.toFixed(2), ratio <= 1.2),
      ],
      [
        "  of which the server's own start (its log's startMs: main() → listening), new / existing (ms, median)",
        `${median(freshOwn).toFixed(0)} / ${median(againOwn).toFixed(0)}`,
        '',
      ],
      ['RSS 2 s after a start on a new directory, median (MiB)', memoryText(medianMemory(freshMemory)), ''],
      ['RSS 2 s after a start on a new directory, largest (MiB)', memoryText(worst(freshMemory)), rssFresh],
      ['RSS 2 s after a start on an existing directory, median (MiB)', memoryText(medianMemory(againMemory)), ''],
      ['RSS 2 s after a start on an existing directory, largest (MiB)', memoryText(worst(againMemory)), rssAgain],
      ['peak RSS (VmHWM) since start, new directories, largest: server / engine (MiB)', peakText(freshMemory), ''],
      ['peak RSS (VmHWM) since start, existing directory, largest: server / engine (MiB)', peakText(againMemory), ''],
      [
        'npm itself, waiting beside the server (MiB, not in the sums above)',
        medianMemory(againMemory).npm.toFixed(0),
        '',
      ],
      ['stop: one SIGTERM to npm → npm exited 0 (ms, median / max)', spread(stops), ''],
    ],
  );
  printNotes([
    'start = `npm start` spawned (its up-to-date checks of dependencies, console and server build included) until the first `GET /healthz` 200 on a new connection, polled every 10 ms; a new directory includes creating and migrating the embedded database',
    `the existing directory is the last new one, so every existing-directory sample opens what a first start left (${SAMPLES} samples each); ${retaken} sample(s) taken again because sources changed and npm start rebuilt first`,
    'RSS = VmRSS of the server process (node scripts/start.mjs running dist/main.js) + the embedded engine process (dist/pglite-host.js), read 2 s after healthy with no requests; the goal is on the sum',
    'RSS after load: see the projects table (after the 50-client project-list load at 150,000 projects)',
    'floor server (bench/start-floor.mjs): the least a server on this engine does before /healthz answers: fork the same engine process (dist/pglite-host.js, same options), load Fastify and node-postgres meanwhile, connect once and run SELECT 1, listen; no routes, migrations, caches or logging; through `npm start` of its own package.json, so npm and Node start as for the server',
  ]);
}
