/**
 * Helpers shared by the bench sections: the real server through `npm start` (start, stop, its
 * processes and their memory), load generation, a low-rate probe, a bench licence key, percentiles,
 * result tables and the goals the run met or missed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LICENCE_FORMAT, localDate, PLATFORM_PRODUCT, sha256Hex } from '@gantry/shared';
import pg from 'pg';
import { SOCKET_PORT } from '../apps/server/src/db/pglite-host-contract.js';
import { rawPublicKey, signLicence } from '../apps/server/src/modules/licence/licence-signature.js';
import { machineCodeOf, readMachineIdentity } from '../apps/server/src/modules/licence/machine-identity.js';

/** `value`, or a clear failure naming what was missing (the bench's own invariants). */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`bench: no ${what}`);
  return value;
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Connections of every load (the hello-world, the server, the direct SQL loops). */
/** The administrator's password every section signs in with (as the console sends it: its SHA-256). */
export const BENCH_PASSWORD = sha256Hex('Bench12345');
export const MB = 1_000_000;

/** GANTRY_BENCH_SCALE: what multiplies a section's sizes (0.05 for a smoke run), in (0, 10]. */
export function benchScale(): number {
  const scale = Number(process.env.GANTRY_BENCH_SCALE ?? 1);
  if (!(scale > 0 && scale <= 10)) throw new Error('GANTRY_BENCH_SCALE must be in (0, 10]');
  return scale;
}

export const CONNECTIONS = 50;
export const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 2);
export const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

// ---- scratch space: one folder per run, removed at exit ----
let scratchRoot: string | undefined;
/** A new folder under this run's scratch folder (data directories, log files). */
export function scratch(name: string): string {
  if (!scratchRoot) {
    scratchRoot = mkdtempSync(path.join(tmpdir(), 'gantry-bench-'));
    process.once('exit', () => rmSync(must(scratchRoot, 'scratch folder'), { recursive: true, force: true }));
  }
  const dir = mkdtempSync(path.join(scratchRoot, `${name}-`));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A free loopback port (asked of the kernel, then released for the server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

// ---- the real server, as operators run it ----
export interface ServerRun {
  npm: ChildProcess;
  port: number;
  /** http://127.0.0.1:port */
  origin: string;
  /** `npm start` spawned → first `GET /healthz` 200 (ms). */
  startMs: number;
  /** The server's standard output and error (its log), as `npm start > file` would keep them. */
  logFile: string;
  exited: Promise<number | null>;
}

/**
 * `npm start` (builds when stale, then the bundled server in npm's child process; on PGlite the
 * engine in the server's child), NODE_ENV=production, the server's default logging (LOG_LEVEL
 * unset, so info) written to `logFile`. No other setting of the bench's own environment leaks in.
 */
export async function startServer(options: {
  dataDir: string;
  logFile: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** A fixed port (default: a free one). */
  port?: number;
  /** Where `npm start` runs (default: the repository); the start bench's floor server has its own package. */
  cwd?: string;
}): Promise<ServerRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(GANTRY_|LOG_LEVEL$|DATABASE_URL$|NODE_ENV$|PORT$|HOST$)/.test(key)) continue;
    env[key] = value;
  }
  const port = options.port ?? (await freePort());
  Object.assign(env, {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    GANTRY_DATA_DIR: options.dataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    // For looking into the server (e.g. --cpu-prof); never set by the bench itself.
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    ...options.env,
  });
  const log = openSync(options.logFile, 'a');
  const began = performance.now();
  const npm = spawn('npm', ['start', '--silent'], { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', log, log] });
  closeSync(log);
  running.add(npm);
  const exited = new Promise<number | null>((resolve) =>
    npm.once('exit', (code) => {
      running.delete(npm);
      resolve(code);
    }),
  );
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if ((await status(`${origin}/healthz`)) === 200) break;
    if (npm.exitCode !== null) {
      throw new Error(`npm start exited with ${npm.exitCode} during start:\n${tail(options.logFile)}`);
    }
    await sleep(10);
  }
  return { npm, port, origin, startMs: performance.now() - began, logFile: options.logFile, exited };
}

/** Servers this run started and has not stopped: stopped (SIGTERM to their npm) if the bench exits early. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const npm of running) npm.kill('SIGTERM');
});

/** One SIGTERM to npm, as a terminal's Ctrl-C or a service manager would send; resolves with the ms to npm's exit. */
export async function stopServer(run: ServerRun): Promise<number> {
  const began = performance.now();
  run.npm.kill('SIGTERM');
  const code = await run.exited;
  if (code !== 0) throw new Error(`npm start exited with ${code} after SIGTERM:\n${tail(run.logFile)}`);
  return performance.now() - began;
}

/** Whether this run's `npm start` rebuilt the server or the console first (its log says so). */
export const rebuilt = (run: ServerRun) => /▸ building/.test(readFileSync(run.logFile, 'utf8'));

/** The server's own start time from its log line (main() began → listening, ms; the log is complete once it has stopped). */
export function serverStartMs(run: ServerRun): number {
  return Number(/"startMs":(\d+)/.exec(readFileSync(run.logFile, 'utf8'))?.[1] ?? Number.NaN);
}

const tail = (file: string) => readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A baseline server of the bench (`bench/<script>`, its own Node process): started with the
 * arguments given, answers the child and the JSON line it prints once listening.
 */
export async function startBaseline<T>(
  script: string,
  args: string[] = [],
  nodeFlags: string[] = [],
): Promise<{ child: ChildProcess; line: T }> {
  // A TypeScript script runs through tsx, as the bench does (it imports the server's own modules).
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeFlags, ...loader, path.join(ROOT, 'bench', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    must(child.stdout, 'stdout').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(must(out.split('\n')[0], 'line'));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, line: JSON.parse(line) as T };
}

/** A GET's status on a new connection; 0 when nothing answers. */
function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
  });
}

/** Direct children of a process, from /proc (Linux): pid and command line. */
function childrenOf(pid: number): Array<{ pid: number; cmdline: string }> {
  const children: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      children.push({
        pid: Number(entry),
        cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '),
      });
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** The server process (npm's child, `node … scripts/start.mjs`) and the embedded engine (its child running pglite-host). */
export function processesOf(run: ServerRun): { server?: number; engine?: number } {
  const server =
    run.npm.pid === undefined ? undefined : childrenOf(run.npm.pid).find((c) => /start\.mjs/.test(c.cmdline));
  const engine = server && childrenOf(server.pid).find((c) => /pglite-host/.test(c.cmdline));
  return {
    ...(server ? { server: server.pid } : {}),
    ...(engine ? { engine: engine.pid } : {}),
  };
}

/** VmRSS (resident now) or VmHWM (the largest resident so far) of a process, MiB. */
export function rssMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export interface Memory {
  server: number;
  engine: number;
  npm: number;
  /** The largest resident set each process has had since it started (VmHWM). */
  peak: { server: number; engine: number };
}
/** Resident memory (MiB) of the server process, the embedded engine's process (0 on PostgreSQL) and npm. */
export function memoryOf(run: ServerRun): Memory {
  const { server, engine } = processesOf(run);
  return {
    server: rssMiB(server),
    engine: rssMiB(engine),
    npm: rssMiB(run.npm.pid),
    peak: { server: rssMiB(server, 'VmHWM'), engine: rssMiB(engine, 'VmHWM') },
  };
}
export const memoryText = (m: Memory) =>
  m.engine > 0
    ? `${(m.server + m.engine).toFixed(0)} (server ${m.server.toFixed(0)} + engine ${m.engine.toFixed(0)})`
    : `${m.server.toFixed(0)} (server; the database is PostgreSQL's own processes)`;

/** Clock ticks per second of /proc/<pid>/stat times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system, ms) a process has used so far; 0 when it is gone. */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  if (pid === process.pid) {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU used per answered request, by process group ('server', 'engine', …), summed over the turns of
 * one target: records the CPU of the given processes around each turn.
 */
export class CpuPerRequest {
  private readonly used = new Map<string, number>();
  private requests = 0;

  async around(pids: Record<string, ReadonlyArray<number | undefined>>, run: () => Promise<Slice>): Promise<Slice> {
    const sum = (list: ReadonlyArray<number | undefined>) => list.reduce((total: number, pid) => total + cpuMs(pid), 0);
    const before = Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, sum(list)]));
    const slice = await run();
    for (const [name, list] of Object.entries(pids)) {
      this.used.set(name, (this.used.get(name) ?? 0) + sum(list) - (before[name] ?? 0));
    }
    this.requests += slice.latencies.length + slice.non2xx;
    return slice;
  }

  /** ms of CPU per request of one group. */
  of(name: string): number {
    return (this.used.get(name) ?? 0) / Math.max(1, this.requests);
  }
}

/**
 * The embedded engine's private socket folder: the folder of the Unix socket its process listens on
 * (its options come over IPC, not on its command line), found by the socket inodes among its open files.
 */
export function engineSocketDir(run: ServerRun): string {
  const pid = processesOf(run).engine;
  if (pid === undefined) throw new Error('the embedded engine process was not found');
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`)
      .map((fd) => /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`))?.[1])
      .filter((inode) => inode !== undefined),
  );
  // /proc/net/unix: Num RefCount Protocol Flags Type St Inode Path
  const socket = readFileSync(`/proc/${pid}/net/unix`, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => inodes.has(fields[6] ?? '') && fields[7]?.endsWith(`/.s.PGSQL.${SOCKET_PORT}`))?.[7];
  if (!socket) throw new Error("the embedded engine's socket was not found");
  return path.dirname(socket);
}

function readlinkOrEmpty(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '';
  }
}

/** Log lines the server has written so far (one per request at the default level, probes only when failing). */
export const logLines = (run: ServerRun) => readFileSync(run.logFile, 'utf8').split('\n').length - 1;

/** Server log lines per request: `n` sequential requests, then the lines written meanwhile (the log is asynchronous). */
export async function linesPerRequest(server: ServerRun, url: string, headers: Record<string, string>, n = 100) {
  await sleep(300);
  const before = logLines(server);
  for (let i = 0; i < n; i++) await get(url, headers);
  await sleep(300);
  return (logLines(server) - before) / n;
}

// ---- load ----
/** Load shape of every measured target: the same connections and time for all. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

/** One stretch of load on one target: every successful answer's latency (ms). */
export interface Slice {
  seconds: number;
  latencies: number[];
  non2xx: number;
  errors: number;
}

/** Slices of one target merged: rate = answers / seconds, latency percentiles over every answer. */
export interface Measure {
  rate: number;
  latency: Samples;
  seconds: number;
  non2xx: number;
  errors: number;
}

export function merge(slices: readonly Slice[]): Measure {
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  const latencies = slices.flatMap((s) => s.latencies);
  return {
    rate: latencies.length / seconds,
    latency: summarise(latencies),
    seconds,
    non2xx: slices.reduce((sum, s) => sum + s.non2xx, 0),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
  };
}

/**
 * Load on an HTTP target: autocannon (bench/load-client.mjs) in its own process, loopback only,
 * CONNECTIONS connections unless told. It sends no Accept-Encoding unless a header says so: answers
 * are not compressed.
 */
export function httpLoad(
  url: string,
  options: {
    seconds: number;
    connections?: number;
    headers?: Record<string, string>;
    body?: unknown;
    /** Each request's path: `template` with `{n}` a random number in 1..count, zero-padded to `width`. */
    randomPath?: { template: string; count: number; width: number };
  },
): Promise<Slice> {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error('load only on loopback');
  const spec = {
    url,
    connections: options.connections ?? CONNECTIONS,
    seconds: options.seconds,
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { method: 'POST', body: JSON.stringify(options.body) }),
    ...(options.randomPath ? { randomPath: options.randomPath } : {}),
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/load-client.mjs'), JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Slice) : reject(new Error(`load ${code}`))));
  });
}

/** A target of `interleave`: runs for the seconds given and answers its slice. */
export type Target = (seconds: number) => Promise<Slice>;

/**
 * Measures targets taking turns, so that all see the same machine (a shared machine's load drifts,
 * and measuring one after the other would charge the drift to their ratio): each target once for
 * WARM_UP_SECONDS (not counted), then ROUNDS rounds of LOAD_SECONDS / ROUNDS each, the first target
 * of a round moving by one each round. `around` wraps each measured slice (a probe meanwhile).
 */
export async function interleave<K extends string>(
  targets: Record<K, Target>,
  around?: (key: K, run: () => Promise<Slice>) => Promise<Slice>,
): Promise<Record<K, Measure>> {
  const keys = Object.keys(targets) as K[];
  for (const key of keys) await targets[key](WARM_UP_SECONDS);
  const slices = Object.fromEntries(keys.map((key) => [key, [] as Slice[]])) as Record<K, Slice[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < keys.length; i++) {
      const key = must(keys[(round + i) % keys.length], 'key');
      const run = () => targets[key](LOAD_SECONDS / ROUNDS);
      slices[key].push(await (around ? around(key, run) : run()));
    }
  }
  return Object.fromEntries(keys.map((key) => [key, merge(slices[key])])) as Record<K, Measure>;
}

export const rateText = (m: Measure) =>
  `${m.rate.toFixed(0)}, ${ms(m.latency.p50)} / ${ms(m.latency.p99)}${m.non2xx + m.errors > 0 ? ` (non-2xx ${m.non2xx}, errors ${m.errors})` : ''}`;

/**
 * A separate low-rate client: one GET every `everyMs` on its own keep-alive connection (the next
 * waits for the previous answer), timed until stopped.
 */
export function probe(url: string, everyMs = 50): { stop(): Promise<{ times: number[]; failed: number }> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const began = performance.now();
      const response = await get(url, {}, agent).catch(() => ({ status: 0 }));
      times.push(performance.now() - began);
      if (response.status !== 200) failed++;
      await sleep(Math.max(0, everyMs - (performance.now() - began)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return { times, failed };
    },
  };
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * A JSON POST on a connection of its own (closed after the answer): a kept connection the server
 * closed while the bench was busy elsewhere (a long psql step) failed a POST, which cannot be retried
 * blindly (it may have started a job).
 */
export function postOnNewConnection(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 0 })));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const defaultAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * A plain keep-alive GET (lighter than fetch, so the client adds little to a sequential timing). A
 * kept socket the server closed while the bench was busy elsewhere (zip, unzip) is retried once on a
 * new one: that request never reached the server.
 */
export function get(
  url: string,
  headers: Record<string, string> = {},
  agent: http.Agent = defaultAgent,
  retried = false,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (!retried && request.reusedSocket && error.code === 'ECONNRESET') {
        get(url, headers, agent, true).then(resolve, reject);
        return;
      }
      reject(error);
    });
  });
}

/** Signs in; the session token. */
export async function login(base: string, username: string, password: string): Promise<string> {
  const response = await post(`${base}/login`, { username, password });
  if (!response.ok) throw new Error(`login ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

// ---- a licence as a vendor would issue it: the bench's own key, trusted by the server it starts ----
export interface BenchKey {
  /** For GANTRY_LICENCE_PUBLIC_KEYS. */
  publicBase64: string;
  privateKey: KeyObject;
}
let benchKey: BenchKey | undefined;
export function licenceKey(): BenchKey {
  if (!benchKey) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    benchKey = { publicBase64: rawPublicKey(publicKey).toString('base64'), privateKey };
  }
  return benchKey;
}

/** Uploads a platform licence for this machine (signed with the bench key) through the API, as an administrator does. */
/**
 * A connection to ask PostgreSQL which backends serve one application (the server's pool, or the
 * direct pool), for their CPU; the caller ends `client`.
 */
export async function backendCatalogue(connection: pg.ClientConfig) {
  const client = new pg.Client({ ...connection, application_name: 'gantry-bench-explain' });
  await client.connect();
  const backends = async (application: string) =>
    (
      await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [application],
      )
    ).rows.map((row) => row.pid);
  return { client, backends };
}

/** A month's grant for one user, with room for these tables and dashboards (the table and template benches). */
export function monthGrant(tableCount: number, dashboardCount: number) {
  return {
    validityPeriod: 30,
    startTime: localDate(new Date()),
    userCount: 1,
    flow: { tableCount, flowCount: 1 },
    visual: { dashboardCount },
  };
}

export async function installLicence(origin: string, token: string): Promise<void> {
  const machineCode = machineCodeOf(await readMachineIdentity());
  const text = signLicence(
    {
      format: LICENCE_FORMAT,
      id: `bench-${Date.now()}`,
      product: PLATFORM_PRODUCT,
      machineCode,
      issuedAt: new Date().toISOString(),
      grant: {
        validityPeriod: 3650,
        startTime: localDate(new Date()),
        userCount: 9_999_999,
        flow: { tableCount: 99_999_999, flowCount: 9_999_999 },
        visual: { dashboardCount: 9_999_999 },
        features: ['gis', 'video', 'DST', 'DI'],
      },
    },
    licenceKey().privateKey,
  );
  const form = new FormData();
  form.append('file', new Blob([text]), 'platform.lic');
  const response = await fetch(`${origin}/portal/rest/license/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 200) throw new Error(`licence upload: ${response.status} ${await response.text()}`);
}

// ---- statistics ----
/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return must(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))], 'sample');
}

export interface Samples {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarise(times: number[]): Samples {
  times.sort((x, y) => x - y);
  return { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? Number.NaN };
}

export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

/**
 * Times `run` sequentially: a few warm-up calls, then at least `min` and at most `max` calls, stopping
 * early once `budgetMs` is spent. With fewer than 100 samples p99 is the largest one.
 */
export async function sample(
  run: () => Promise<unknown>,
  options: { min: number; max: number; budgetMs: number; warmUp?: number },
): Promise<Samples> {
  for (let i = 0; i < (options.warmUp ?? 3); i++) await run();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < options.max && (times.length < options.min || performance.now() - started < options.budgetMs)) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return summarise(times);
}

export const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// ---- output ----
/** Prints a markdown table. */
export function printTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  console.log(`\n| ${head.join(' | ')} |\n| ${head.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.map((cell) => cell.trim()).join(' | ')} |`);
}

/** Notes printed under a table: what its figures include. */
export function printNotes(notes: readonly string[]): void {
  for (const note of notes) console.log(`- ${note}`);
}

export interface Goal {
  name: string;
  target: string;
  figure: string;
  met: boolean;
}
/** Every goal checked in this run, for the summary line at the end. */
export const goals: Goal[] = [];
/** Records a goal; answers the cell text ('met' / 'MISSED'). */
export function goal(name: string, target: string, figure: string, met: boolean): string {
  goals.push({ name, target, figure, met });
  return met ? `met (${target})` : `MISSED (${target})`;
}

/**
 * A platform on a fresh server: the administrator registered with `password`, the bench licence
 * installed, and one blank project `id` with a ten-year grant. Answers the administrator's token.
 */
export async function benchPlatform(origin: string, password: string, id: string, name: string): Promise<string> {
  const spm = `${origin}/portal/rest/spm`;
  if (!(await post(`${spm}/admin/register`, { password })).ok) throw new Error('register failed');
  const token = await login(spm, 'admin', password);
  await installLicence(origin, token);
  const created = await post(
    `${spm}/project`,
    {
      id,
      name,
      industry: 'heating',
      projectType: 'blank',
      grant: {
        validityPeriod: 3650,
        startTime: new Date().toISOString().slice(0, 10),
        userCount: 10,
        flow: { tableCount: 100, flowCount: 10 },
        visual: { dashboardCount: 10 },
        features: [],
      },
    },
    { authorization: `Bearer ${token}` },
  );
  if (!created.ok) throw new Error(`project ${created.status}: ${await created.text()}`);
  return token;
}
