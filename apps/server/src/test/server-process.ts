import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { localDate } from '@gantry/shared';
import { uploadDevelopmentLicence } from './dev-licence.js';
import { ADMIN_PASSWORD, wire } from './test-app.js';

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

/** The media library's calls (the drills' files go there). */
export const MEDIA_URL = '/portal/rest/spm/proxy/core/mediaLibrary';

/** A project set up on a fresh server, and the calls a drill makes in it. */
export interface DrillProject {
  token: string;
  /** The bearer token and the project header. */
  headers: Record<string, string>;
  /** A JSON call in the project. */
  call(method: string, url: string, body?: unknown): ReturnType<typeof call>;
  /** Uploads `bytes` as `folder/name` into the project's media library (a 200, or it throws). */
  upload(folder: string, name: string, bytes: Uint8Array): Promise<void>;
}

/** The answer's body when it is a 200; else it throws, naming `what`. */
async function must(what: string, answer: Promise<{ status: number; body: unknown }>): Promise<unknown> {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** A blank project of the caller of `token` (the smallest grant), or it throws. */
export async function createBlankProject(base: string, token: string, project: { id: string; name: string }) {
  const grant = {
    validityPeriod: 30,
    startTime: localDate(new Date()),
    userCount: 1,
    flow: { tableCount: 1 },
    dataGathering: { point: 1 },
    features: [],
  };
  await must(
    'project',
    call(
      base,
      'POST',
      '/portal/rest/spm/project',
      { ...project, industry: 'coal', projectType: 'blank', grant },
      token,
    ),
  );
}

/**
 * On a fresh server at `base`: the administrator registered and signed in, the development licence
 * uploaded, and a blank project `id` created; what the process drills begin with.
 */
export async function setUpProject(base: string, project: { id: string; name: string }): Promise<DrillProject> {
  await must('register', call(base, 'POST', '/portal/rest/spm/admin/register', { password: wire(ADMIN_PASSWORD) }));
  const login = await must(
    'login',
    call(base, 'POST', '/portal/rest/spm/login', { username: 'admin', password: wire(ADMIN_PASSWORD) }),
  );
  const token = login !== null && typeof login === 'object' && 'token' in login ? String(login.token) : '';
  const licensed = await uploadDevelopmentLicence(base, token);
  if (licensed.status !== 200) throw new Error(`licence: ${licensed.status} ${await licensed.text()}`);
  await createBlankProject(base, token, project);
  const headers = { authorization: `Bearer ${token}`, 'x-request-project': project.id };
  return {
    token,
    headers,
    call: (method, url, body) => call(base, method, url, body, token, { 'x-request-project': project.id }),
    upload: async (folder, name, bytes) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      const response = await fetch(`${base}${MEDIA_URL}/upload?path=${encodeURIComponent(folder)}`, {
        method: 'POST',
        headers,
        body: form,
      });
      if (response.status !== 200)
        throw new Error(`upload ${folder}/${name}: ${response.status} ${await response.text()}`);
    },
  };
}

/** After a drill: its servers killed, its data directory (and what lies beside it: `<dir>.log`…) removed. */
export async function removeDrill(dir: string, started: ChildProcess[], beside: string[] = []): Promise<void> {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  if (!dir) return;
  // A killed server's engine leaves by itself a moment later, and may still write as it goes.
  await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  for (const suffix of beside) await rm(`${dir}${suffix}`, { recursive: true, force: true });
}
