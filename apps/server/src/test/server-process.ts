import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The built server (apps/server/dist/main.js), as operators run it: the server-process project's
 * global setup (built-server.setup.ts) builds it from the sources first. Through tsx each start
 * spent about 1.5 s more compiling, and the drills start the server dozens of times.
 */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a real server process on `dir` and `port` and waits until it is ready; it is added to
 * `started` (so the caller can stop what is left). `log`: a file for its output (default: none).
 */
export async function startServer(
  dir: string,
  port: number,
  started: ChildProcess[],
  options: { logLevel?: string; log?: string; env?: Record<string, string> } = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    env: {
      ...process.env,
      ...options.env,
      NODE_ENV: 'test',
      GANTRY_DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: options.logLevel ?? 'warn',
      GANTRY_LOGIN_RATE_PER_MINUTE: '100000',
    },
    stdio: ['ignore', options.log ? openSync(options.log, 'a') : 'ignore', 'inherit'],
  });
  started.push(child);
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (ready?.status === 200) return child;
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await sleep(100);
  }
  throw new Error('the server did not become ready');
}

/** One SIGTERM, then its exit. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A JSON call; the body as answered (undefined when it is not JSON). */
export async function call(
  base: string,
  method: string,
  url: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as unknown };
}

/** The embedded engine: the server's child running pglite-host. */
export function enginePidOf(serverPid: number): number {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(serverPid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pglite-host')) ?? 0;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
