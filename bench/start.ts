/**
 * Start section of `npm run bench` (`npm run bench -- start`, also part of foundation): the production
 * start as operators run it, `npm start` (builds already up to date, then the bundled server in npm's
 * child process, the embedded database in its own process beside it):
 *  - start → first `GET /healthz` 200, several samples, on new data directories and on an existing one
 *  - RSS of the server process and of the database process: idle after a start on a new directory,
 *    idle after a start on an existing one, and after load (GET setting and /healthz)
 *  - stop: one SIGTERM to npm until npm has exited (the server finished, the database closed)
 * A warm-up start first builds what is stale and is not counted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sha256Hex } from '@gantry/shared';
import { load, post, ROOT } from './lib.js';

const NEW_SAMPLES = Number(process.env.BENCH_START_NEW ?? 3);
const EXISTING_SAMPLES = Number(process.env.BENCH_START_EXISTING ?? 5);
/** How long a started server is left alone before its memory is read. */
const SETTLE_MS = 3_000;

type Report = (name: string, value: string) => void;

interface Started {
  npm: ChildProcess;
  port: number;
  ms: number;
  exited: Promise<number | null>;
}

/** Direct children of a process, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** RSS of npm, of the server (npm's child) and of the database process (the server's child), MiB. */
function memory(npm: ChildProcess) {
  const server = npm.pid === undefined ? undefined : childrenOf(npm.pid)[0];
  const database = server === undefined ? undefined : childrenOf(server)[0];
  return { npm: rssMiB(npm.pid), server: rssMiB(server), database: rssMiB(database) };
}

async function start(dataDir: string, port: number): Promise<Started> {
  const began = performance.now();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), GANTRY_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode} during start`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { npm, port, ms: performance.now() - began, exited };
}

async function stop(started: Started): Promise<number> {
  const began = performance.now();
  started.npm.kill('SIGTERM');
  const code = await started.exited;
  if (code !== 0) throw new Error(`npm start exited with ${code} after SIGTERM`);
  return performance.now() - began;
}

const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const spread = (values: number[]) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}, n=${values.length})`;
const mem = (m: { server: number; database: number }) =>
  `${(m.server + m.database).toFixed(0)} (server ${m.server.toFixed(0)} + database ${m.database.toFixed(0)})`;

export async function startBench(report: Report): Promise<void> {
  const port = 39_000 + Math.floor(Math.random() * 1000);
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-start-'));
    dirs.push(dir);
    return dir;
  };
  try {
    // Warm-up: builds the console and the server if they are stale; not counted.
    await stop(await start(newDir(), port));

    const fresh: number[] = [];
    const stops: number[] = [];
    let freshMemory = { npm: 0, server: 0, database: 0 };
    for (let i = 0; i < NEW_SAMPLES; i++) {
      const started = await start(newDir(), port);
      fresh.push(started.ms);
      if (i === NEW_SAMPLES - 1) {
        await settle();
        freshMemory = memory(started.npm);
      }
      stops.push(await stop(started));
    }

    const existing = newDir();
    await stop(await start(existing, port));
    const again: number[] = [];
    let idle = { npm: 0, server: 0, database: 0 };
    let loaded = { npm: 0, server: 0, database: 0 };
    for (let i = 0; i < EXISTING_SAMPLES; i++) {
      const started = await start(existing, port);
      again.push(started.ms);
      if (i === EXISTING_SAMPLES - 1) {
        await settle();
        idle = memory(started.npm);
        const base = `http://127.0.0.1:${port}/portal/rest/spm`;
        const password = sha256Hex('Bench12345');
        await post(`${base}/admin/register`, { password });
        await load(`${base}/setting`, { connections: 20, seconds: 5 });
        await load(`http://127.0.0.1:${port}/healthz`, { connections: 20, seconds: 5 });
        await settle();
        loaded = memory(started.npm);
      }
      stops.push(await stop(started));
    }

    report('npm start → /healthz 200, new data dir (ms, median (min–max))', spread(fresh));
    report('npm start → /healthz 200, existing data dir (ms, median (min–max))', spread(again));
    report('RSS idle after a start on a new dir (MiB)', mem(freshMemory));
    report('RSS idle after a start on an existing dir (MiB)', mem(idle));
    report('RSS after 10 s of load: GET setting, /healthz (MiB)', mem(loaded));
    report('npm itself, waiting beside the server (MiB, not in the figures above)', idle.npm.toFixed(0));
    report('stop: SIGTERM to npm → npm exited 0 (ms, median (min–max))', spread(stops));
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
