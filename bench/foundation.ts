/**
 * Foundation section of `npm run bench` (`npm run bench -- foundation`):
 *  - GET setting requests/s against a bare Fastify hello-world started in the same run (ratio)
 *  - login p50 (ms)
 *  - event-loop lag p99 under load on PGlite
 *  - the production start through npm start: times, RSS, stop (bench/start.ts)
 *  - gzip size of the login route's JavaScript
 * Load comes from autocannon in a child process, so the measured server has its process to itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { sha256Hex } from '@gantry/shared';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { LAG_RESOLUTION_MS, lagMs, load as loadWith, post, ROOT } from './lib.js';
import { startBench } from './start.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
const PASSWORD = sha256Hex('Bench12345');
let results: Array<[string, string]> = [];
const report = (name: string, value: string) => {
  results.push([name, value]);
  console.log(`  ${name}: ${value}`);
};

/** autocannon with this section's 20 connections. */
function load(url: string, headers: Record<string, string> = {}, seconds = SECONDS, body?: unknown) {
  return loadWith(url, { connections: CONNECTIONS, seconds, headers, body });
}

/** Runs the section; answers its rows (measure, value). */
export async function foundation(): Promise<Array<[string, string]>> {
  results = [];
  await throughputAndLag();
  await startBench(report);
  loginRouteSize();
  return results;
}

async function throughputAndLag(): Promise<void> {
  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: 0, host: '127.0.0.1' });
  const helloUrl = `http://127.0.0.1:${(hello.server.address() as { port: number }).port}/`;
  await load(helloUrl, {}, 2); // warm-up
  const bare = await load(helloUrl);
  await hello.close();

  const dataDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-'));
  const config = {
    ...loadConfig({
      GANTRY_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      GANTRY_LOGIN_RATE_PER_MINUTE: '1000000',
      DATABASE_URL: '',
    }),
  };
  const { app } = await buildApp({ config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/portal/rest/spm`;
  await post(`${base}/admin/register`, { password: PASSWORD });
  const token = (
    (await (await post(`${base}/login`, { username: 'admin', password: PASSWORD })).json()) as { token: string }
  ).token;

  await load(`${base}/setting`, {}, 2);
  const setting = await load(`${base}/setting`);
  report('GET setting (anonymous, cached) req/s', setting.requests.average.toFixed(0));
  report('bare Fastify hello-world req/s', bare.requests.average.toFixed(0));
  report('GET setting / hello-world', `${((setting.requests.average / bare.requests.average) * 100).toFixed(0)} %`);

  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  lag.enable();
  const authed = await load(`${base}/login/current/user`, { authorization: `Bearer ${token}` });
  lag.disable();
  report('GET login/current/user (session lookup on PGlite) req/s', authed.requests.average.toFixed(0));
  report('  its latency p50 / p99 (ms)', `${authed.latency.p50} / ${authed.latency.p99}`);
  report('event-loop lag under that load, p50 / p99 (ms)', `${lagMs(lag, 50)} / ${lagMs(lag, 99)}`);

  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    const response = await post(`${base}/login`, { username: 'admin', password: PASSWORD });
    if (response.status !== 200) throw new Error(`login ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  report(
    'login p50 / p90 (ms, sequential, argon2id 19 MiB t=2)',
    `${times[15]!.toFixed(1)} / ${times[27]!.toFixed(1)}`,
  );

  const quiet = await load(`${base}/setting`, {}, Math.max(2, SECONDS - 2));
  report('GET setting p99, no other load (ms)', String(quiet.latency.p99));
  await flood('login flood, rate limit raised (many addresses)', base);
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });

  // The same flood against the default configuration: the per-address limit answers at the door.
  const defaultDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-'));
  const defaults = await buildApp({
    config: loadConfig({ GANTRY_DATA_DIR: defaultDir, LOG_LEVEL: 'silent', DATABASE_URL: '' }),
    logger: false,
  });
  await defaults.app.listen({ port: 0, host: '127.0.0.1' });
  const defaultBase = `http://127.0.0.1:${(defaults.app.server.address() as { port: number }).port}/portal/rest/spm`;
  await post(`${defaultBase}/admin/register`, { password: PASSWORD });
  await flood('login flood, default limit (one address)', defaultBase);
  await defaults.app.close();
  rmSync(defaultDir, { recursive: true, force: true });
}

/** 20 clients post wrong passwords while another 20 read settings: does the flood starve them? */
async function flood(name: string, base: string): Promise<void> {
  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  lag.enable();
  const [attack, during] = await Promise.all([
    load(`${base}/login`, { 'content-type': 'application/json' }, SECONDS, {
      username: 'admin',
      password: sha256Hex('Wrong12345'),
    }),
    (async () => {
      await new Promise((r) => setTimeout(r, 1000));
      return load(`${base}/setting`, {}, Math.max(2, SECONDS - 2));
    })(),
  ]);
  lag.disable();
  report(`${name}: login answers/s (mostly refusals)`, attack.requests.average.toFixed(0));
  report(`${name}: GET setting p99 (ms)`, String(during.latency.p99));
  report(`${name}: event-loop lag p99 (ms)`, lagMs(lag, 99));
}

/** Builds the console with a manifest into a temp dir and sums the gzip size of what /login loads. */
function loginRouteSize(): void {
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
  report(
    `login route JavaScript (${files.size} files), gzip / raw (KiB)`,
    `${(gzip / 1024).toFixed(1)} / ${(raw / 1024).toFixed(1)}`,
  );
}
