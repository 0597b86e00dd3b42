/**
 * Foundation section of `npm run bench` (`npm run bench -- foundation`): what cheap calls cost on the
 * real server, as ratios to a bare Fastify hello-world measured in the same run.
 *  - the hello-world (bench/hello-world.mjs: the server's own Fastify, no logger, its own process);
 *  - the server as operators run it: `npm start` (the built bundle, NODE_ENV=production, LOG_LEVEL
 *    unset so info, standard output to a file, its caches, compression registered, embedded PGlite
 *    in its own process), with an administrator and a platform licence installed through the API:
 *    `GET /healthz`, `GET /portal/rest/spm/setting` (anonymous), `GET …/login/current/user` (admin);
 *  - the floors beside `GET setting` (bench/setting-floor.ts: the same answer with only the server's
 *    request line, security headers and statement context, and with only the line and the headers),
 *    in turns of their own with the hello-world;
 *  - autocannon, CONNECTIONS connections, each target warmed up WARM_UP_SECONDS (not counted), then
 *    LOAD_SECONDS each in ROUNDS turns (hello, healthz, setting, current user, …) so that all see the
 *    same machine; log lines per request from 100 sequential requests of each call;
 *  - then sign-in p50 (sequential), a login flood at the default per-address limit with GET setting
 *    measured meanwhile, and the gzip size of the console's login route.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sha256Hex } from '@gantry/shared';
import {
  BENCH_PASSWORD,
  CONNECTIONS,
  CpuPerRequest,
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
  memoryOf,
  memoryText,
  merge,
  ms,
  must,
  post,
  printNotes,
  printTable,
  processesOf,
  ROOT,
  ROUNDS,
  rateText,
  scratch,
  sleep,
  startBaseline,
  startServer,
  stopServer,
  type Target,
  WARM_UP_SECONDS,
} from './lib.js';

/** The call the floors stand beside. */
const SETTING = 'GET setting (anonymous)';

/**
 * The floors' rows: the server's own Fastify with only what issue 33 keeps on every answer (the request
 * line and the security headers), with and without the statement context (bench/setting-floor.ts).
 */
const FLOORS = [
  {
    name: 'floor: the same answer, only the headers, the line and the context',
    context: true,
    includes: 'request line, 11 security headers and per-request statement context',
  },
  {
    name: 'floor: the same answer, only the headers and the line',
    context: false,
    includes: 'request line and 11 security headers',
  },
] as const;

/** The hello-world in its own process; its URL and Fastify version. */
async function startHello(): Promise<{ child: ChildProcess; url: string; fastify: string }> {
  const { child, line } = await startBaseline<{ port: number; fastify: string }>('hello-world.mjs');
  return { child, url: `http://127.0.0.1:${line.port}/`, fastify: line.fastify };
}

export async function foundation(): Promise<void> {
  const hello = await startHello();
  const floorChildren: ChildProcess[] = [];
  const server = await startServer({
    dataDir: scratch('foundation'),
    logFile: `${scratch('foundation-log')}/server.log`,
    env: { GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64 },
  });
  try {
    const base = `${server.origin}/portal/rest/spm`;
    const registered = await post(`${base}/admin/register`, { password: BENCH_PASSWORD });
    if (!registered.ok) throw new Error(`register ${registered.status}`);
    const token = await login(base, 'admin', BENCH_PASSWORD);
    await installLicence(server.origin, token);
    const auth = { authorization: `Bearer ${token}` };

    const calls = [
      { name: 'GET /healthz', url: `${server.origin}/healthz`, headers: {}, goalPct: 60 },
      { name: SETTING, url: `${base}/setting`, headers: {}, goalPct: 60 },
      { name: 'GET login/current/user (admin token)', url: `${base}/login/current/user`, headers: auth, goalPct: 30 },
    ];
    // What each answer is, and whether it would be compressed if the client asked.
    const shapes = new Map<string, string>();
    const bodies = new Map<string, string>();
    for (const call of calls) {
      const plain = await get(call.url, call.headers);
      bodies.set(call.url, plain.body);
      if (plain.status !== 200) throw new Error(`${call.name}: ${plain.status} ${plain.body.slice(0, 200)}`);
      const asked = await get(call.url, { ...call.headers, 'accept-encoding': 'br, gzip' });
      shapes.set(
        call.name,
        `${Buffer.byteLength(plain.body)} B; with Accept-Encoding: ${asked.headers['content-encoding'] ?? 'not compressed (under 1 KiB)'}`,
      );
    }

    // The floors beside GET setting: the same answer with only what the issue keeps on every answer.
    const settingBody = must(bodies.get(`${base}/setting`), 'GET setting');
    const floors = new Map<string, { child: ChildProcess; url: string }>();
    for (const [i, { name, context }] of FLOORS.entries()) {
      // With the young generation `npm start` gives the server (package.json's start script).
      const floor = await startBaseline<{ port: number }>(
        'setting-floor.ts',
        [JSON.stringify({ body: settingBody, logFile: `${scratch(`foundation-floor-log-${i}`)}/floor.log`, context })],
        ['--max-semi-space-size=32'],
      );
      floorChildren.push(floor.child);
      floors.set(name, { child: floor.child, url: `http://127.0.0.1:${floor.line.port}/` });
    }

    const lines = new Map<string, number>();
    for (const call of calls) lines.set(call.name, await linesPerRequest(server, call.url, call.headers));

    const loadAtStart = loadAverage();
    const targets: Record<string, Target> = {
      hello: (seconds) => httpLoad(hello.url, { seconds }),
    };
    for (const call of calls) targets[call.name] = (seconds) => httpLoad(call.url, { seconds, headers: call.headers });
    const { server: serverPid, engine: enginePid } = processesOf(server);
    const cpu = new Map<string, CpuPerRequest>();
    const measured = await interleave(targets, (key, run) => {
      const counter = cpu.get(key) ?? new CpuPerRequest();
      cpu.set(key, counter);
      return counter.around(
        key === 'hello' ? { server: [hello.child.pid] } : { server: [serverPid], engine: [enginePid] },
        run,
      );
    });
    // The floors in turns of their own with the hello-world, after the calls': among them, the disk writes
    // of their log lines fell on the next call's turn (`/healthz` measured 60 % of the hello-world, not 66 %).
    const floorCpu = new Map<string, CpuPerRequest>();
    const floorTargets: Record<string, Target> = { hello: (seconds) => httpLoad(hello.url, { seconds }) };
    for (const [name, floor] of floors) floorTargets[name] = (seconds) => httpLoad(floor.url, { seconds });
    const floorMeasured = await interleave(floorTargets, (key, run) => {
      const counter = floorCpu.get(key) ?? new CpuPerRequest();
      floorCpu.set(key, counter);
      const pid = key === 'hello' ? hello.child.pid : must(floors.get(key), key).child.pid;
      return counter.around({ server: [pid] }, run);
    });
    const cpuText = (key: string) =>
      floors.has(key)
        ? `${must(floorCpu.get(key), key).of('server').toFixed(3)} (its own process)`
        : key === 'hello'
          ? `${must(cpu.get(key), key).of('server').toFixed(3)} (its own process)`
          : `${must(cpu.get(key), key).of('server').toFixed(3)} + ${must(cpu.get(key), key).of('engine').toFixed(3)}`;
    const loadAtEnd = loadAverage();
    const idle = memoryOf(server);
    const helloRate = must(measured.hello, 'hello-world').rate;

    const row = (name: string, m: Measure, vs: string, goalCell: string, lineCount: string, includes: string) => [
      name,
      m.rate.toFixed(0),
      `${ms(m.latency.p50)} / ${ms(m.latency.p99)}`,
      vs,
      goalCell,
      cpuText(name === 'bare Fastify hello-world' ? 'hello' : name),
      lineCount,
      `${includes}${m.non2xx + m.errors > 0 ? `; non-2xx ${m.non2xx}, errors ${m.errors}` : ''}`,
    ];
    const rows = [
      row(
        'bare Fastify hello-world',
        must(measured.hello, 'hello-world'),
        '100 %',
        '',
        '—',
        `Fastify ${hello.fastify}, logger off, no plugins, own process`,
      ),
    ];
    for (const call of calls) {
      const m = must(measured[call.name], call.name);
      const ratio = m.rate / helloRate;
      const pct = `${(ratio * 100).toFixed(0)} %`;
      const perRequest = must(cpu.get(call.name), call.name);
      const cpuRatio =
        must(cpu.get('hello'), 'hello').of('server') / (perRequest.of('server') + perRequest.of('engine'));
      rows.push(
        row(
          call.name,
          m,
          `${pct} (by CPU: ${(cpuRatio * 100).toFixed(0)} %)`,
          goal(`${call.name} vs bare Fastify hello-world`, `≥ ${call.goalPct} %`, pct, ratio * 100 >= call.goalPct),
          (lines.get(call.name) ?? 0).toFixed(2),
          shapes.get(call.name) ?? '',
        ),
      );
    }

    // Each floor against the hello-world of its own turns.
    const floorRatio = (name: string) =>
      must(floorMeasured[name], name).rate / must(floorMeasured.hello, 'hello-world').rate;
    const settingOfFloor = must(measured[SETTING], SETTING).rate / helloRate / floorRatio(FLOORS[0].name);
    for (const { name, includes } of FLOORS) {
      const floorMeasure = must(floorMeasured[name], name);
      const floorRate = floorRatio(name);
      const floorByCpu =
        must(floorCpu.get('hello'), 'hello').of('server') / must(floorCpu.get(name), name).of('server');
      rows.push(
        row(
          name,
          floorMeasure,
          `${(floorRate * 100).toFixed(0)} % (by CPU: ${(floorByCpu * 100).toFixed(0)} %)`,
          '',
          "1 (the server's logging)",
          `GET setting's ${Buffer.byteLength(settingBody)} B; Fastify ${hello.fastify} with the server's ${includes}, nothing else (bench/setting-floor.ts)`,
        ),
      );
    }

    // Sign-in, sequential: argon2id on the server's hashing pool. The default limit allows 30 a minute.
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const response = await post(`${base}/login`, { username: 'admin', password: BENCH_PASSWORD });
      if (response.status !== 200) throw new Error(`login ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);

    // A login flood from one address (wrong passwords) at the default limit, GET setting measured meanwhile.
    const [attack, during] = await Promise.all([
      httpLoad(`${base}/login`, {
        connections: 20,
        seconds: LOAD_SECONDS,
        headers: { 'content-type': 'application/json' },
        body: { username: 'admin', password: sha256Hex('Wrong12345') },
      }),
      (async () => {
        await sleep(1000);
        return merge([await httpLoad(`${base}/setting`, { seconds: LOAD_SECONDS - 2 })]);
      })(),
    ]);

    console.log(
      `\n### Cheap calls on the real server vs a bare Fastify hello-world (${CONNECTIONS} connections; ${WARM_UP_SECONDS} s warm-up, then ${LOAD_SECONDS} s each in ${ROUNDS} turns)`,
    );
    printTable(
      [
        'call',
        'req/s',
        'p50 / p99 ms',
        'vs hello-world',
        'goal',
        'CPU ms / request: server + engine',
        'log lines / request',
        'answer; includes',
      ],
      rows,
    );
    printNotes([
      `server = \`npm start\` (apps/server/dist/main.js in npm's child, NODE_ENV=production, LOG_LEVEL unset → info, standard output to a file as \`npm start > server.log\` would; request logging on: one line per request, /healthz only when failing), with its caches warm (settings 1 s, sessions, the platform licence) and compression registered; the database is embedded PGlite in its own process`,
      `not compressed: autocannon sends no Accept-Encoding, so no answer in this table was compressed (the 'answer' column says what a browser asking for br/gzip would get)`,
      `the four targets took turns (${ROUNDS} rounds of ${(LOAD_SECONDS / ROUNDS).toFixed(1)} s, after a ${WARM_UP_SECONDS} s warm-up each), so that the drift of this shared machine falls on all of them; ratios are to the hello-world's ${helloRate.toFixed(0)} req/s; autocannon (a new process per turn) runs on the same 2 cores as the server and other work: figures are shapes, not capacities; load average ${loadAtStart} → ${loadAtEnd}`,
      'log lines / request: 100 sequential requests of each call, then the lines the server wrote meanwhile',
      `floors: in turns of their own with the hello-world, after the others (their ratios are to the hello-world of those turns), each in a process of its own: what a \`GET setting\` cannot do without, each by the server's own code (issue 33 keeps the log line and the security headers; the statement context is how a request's statements are counted against its tenant); the second leaves out the context, to show what the two kept costs alone leave of the goal; the server's other costs per answer (session and policy, NUL check, CORS, no-store, unread body, compression, restore guard, websocket, its router) are what lies between the first row and the server's (bench/NOTES.md#foundation)`,
      "CPU ms / request: user + system time of the server process and of the engine process (/proc) during the measured turns, over the answers in them (the hello-world: its own process); 'by CPU' = the hello-world's CPU per request over the call's (server + engine), which the load generator sharing the 2 cores distorts less than req/s (the goal is judged on req/s)",
      `GET setting ÷ the floor with the context (each as a share of the hello-world in its own turns): ${(settingOfFloor * 100).toFixed(0)} %`,
      `server RSS after these runs: ${memoryText(idle)} MiB`,
    ]);
    printTable(
      ['measure', 'value'],
      [
        [
          'sign-in p50 / p90 (ms, 20 sequential POST login, argon2id 19 MiB t=2, default settings)',
          `${ms(must(times[9], 'sample'))} / ${ms(must(times[17], 'sample'))}`,
        ],
        [
          'login flood, one address, default limit (30/min): answers/s (mostly 429) / non-2xx',
          `${((attack.latencies.length + attack.non2xx) / attack.seconds).toFixed(0)} / ${attack.non2xx}`,
        ],
        [`  meanwhile GET setting, ${CONNECTIONS} connections: req/s, p50 / p99 ms`, rateText(during)],
        loginRouteSize(),
      ],
    );
  } finally {
    await stopServer(server);
    hello.child.kill('SIGTERM');
    for (const child of floorChildren) child.kill('SIGTERM');
  }
}

/** Builds the console with a manifest into a temp dir and sums the gzip size of what /login loads. */
function loginRouteSize(): [string, string] {
  const outDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-dist-'));
  const vite = [path.join(ROOT, 'apps/console/node_modules/.bin/vite'), path.join(ROOT, 'node_modules/.bin/vite')].find(
    (bin) => existsSync(bin),
  );
  if (!vite) throw new Error('vite is not installed');
  const result = spawnSync(vite, ['build', '--manifest', '--outDir', outDir, '--emptyOutDir'], {
    cwd: path.join(ROOT, 'apps/console'),
    stdio: 'ignore',
  });
  if (result.status !== 0) throw new Error('console build failed');
  type Chunk = { file: string; imports?: string[]; isEntry?: boolean; src?: string };
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const loginKey = Object.keys(manifest).find((key) => /pages\/login\/index\.tsx$/.test(key));
  if (loginKey) visit(loginKey);
  let gzip = 0;
  let raw = 0;
  for (const file of files) {
    const bytes = readFileSync(path.join(outDir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  rmSync(outDir, { recursive: true, force: true });
  return [
    `console login route JavaScript (${files.size} files), gzip -9 / raw (KiB)`,
    `${(gzip / 1024).toFixed(1)} / ${(raw / 1024).toFixed(1)}`,
  ];
}
