import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDate } from '@gantry/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { uploadDevelopmentLicence } from './test/dev-licence.js';
import { ADMIN_PASSWORD, wire } from './test/test-app.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/**
 * kill -9 of the server while it writes: its embedded engine leaves by itself, and the next start
 * on the same directory has every write the server had confirmed.
 */
describe('kill -9 drill', () => {
  let dir = '';
  const started: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every confirmed write across kill -9 of the server, and its engine does not outlive it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startServer(dir, port, started);
    await call(base, 'POST', '/portal/rest/spm/admin/register', { password: wire(ADMIN_PASSWORD) });

    // Sign-ins write a session each; a token the server handed out is a confirmed write.
    const confirmed: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 3 }, async () => {
      while (!stop) {
        const response = await call(base, 'POST', '/portal/rest/spm/login', {
          username: 'admin',
          password: wire(ADMIN_PASSWORD),
        }).catch(() => undefined);
        const token = (response?.body as { token?: string } | undefined)?.token;
        if (token) confirmed.push(token);
      }
    });
    while (confirmed.length < 5) await sleep(50);
    const engine = enginePidOf(first.pid ?? 0);
    expect(engine).toBeGreaterThan(0);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    stop = true;
    await Promise.all(writers);

    // The engine notices its server is gone and closes its files.
    const until = Date.now() + 15_000;
    while (Date.now() < until && isAlive(engine)) await sleep(100);
    expect(isAlive(engine)).toBe(false);

    await startServer(dir, port, started);
    for (const token of confirmed) {
      const me = await fetch(`${base}/portal/rest/spm/login/current/user`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
    }
  }, 120_000);

  it('keeps every confirmed document whole across kill -9 during a burst of data writes', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gantry-kill-data-'));
    try {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const first = await startServer(dataDir, port, started);
      await call(base, 'POST', '/portal/rest/spm/admin/register', { password: wire(ADMIN_PASSWORD) });
      const login = await call(base, 'POST', '/portal/rest/spm/login', {
        username: 'admin',
        password: wire(ADMIN_PASSWORD),
      });
      const token = (login.body as { token: string }).token;
      const licensed = await uploadDevelopmentLicence(base, token);
      expect(licensed.status, await licensed.clone().text()).toBe(200);
      const today = localDate(new Date());
      const project = await call(
        base,
        'POST',
        '/portal/rest/spm/project',
        {
          id: 'drill1',
          name: 'Drill',
          industry: 'coal',
          projectType: 'blank',
          grant: {
            validityPeriod: 30,
            startTime: today,
            userCount: 1,
            flow: { tableCount: 1 },
            dataGathering: { point: 1 },
            features: [],
          },
        },
        token,
      );
      expect(project.status, JSON.stringify(project.body)).toBe(200);

      // Each document carries a payload and its digest: a half-written one would not match.
      const confirmed: string[] = [];
      let stop = false;
      let sequence = 0;
      const writers = Array.from({ length: 4 }, async () => {
        while (!stop) {
          const id = `d${sequence++}`;
          const payload = id.repeat(500);
          const response = await call(
            base,
            'POST',
            '/portal/rest/core/data_record',
            { id, payload, digest: createHash('sha256').update(payload).digest('hex') },
            token,
            { 'x-request-project': 'drill1' },
          ).catch(() => undefined);
          if (response?.status === 200) confirmed.push(id);
        }
      });
      while (confirmed.length < 40) await sleep(20);
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      stop = true;
      await Promise.all(writers);

      await startServer(dataDir, port, started);
      const stored = await fetch(
        `${base}/portal/rest/core/data_record?query=${encodeURIComponent(JSON.stringify({ limit: 10_000, withCount: true }))}`,
        { headers: { authorization: token, 'x-request-project': 'drill1' } },
      );
      expect(stored.status).toBe(200);
      const documents = (await stored.json()) as Array<{ id: string; payload: string; digest: string }>;
      const ids = new Set(documents.map((doc) => doc.id));
      for (const id of confirmed) expect(ids.has(id), id).toBe(true);
      for (const doc of documents) expect(createHash('sha256').update(doc.payload).digest('hex')).toBe(doc.digest);
      // The maintained total agrees with the rows (the trigger ran in the writes' transactions).
      expect(Number(stored.headers.get('count'))).toBe(documents.length);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

async function startServer(dir: string, port: number, started: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      GANTRY_DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      GANTRY_LOGIN_RATE_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(child);
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (ready?.status === 200) return child;
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await sleep(200);
  }
  throw new Error('the server did not become ready');
}

async function call(
  base: string,
  method: string,
  url: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** The embedded engine: the server's child running pglite-host. */
function enginePidOf(serverPid: number): number {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(serverPid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pglite-host')) ?? 0;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
