/**
 * Two server processes on one PostgreSQL (GANTRY_TEST_DATABASE_URL): what one changes, the other
 * sees within a second, although both cache sessions, the licence and settings for 5 s. Each is a
 * real `node --import tsx src/main.ts` with its own pools and its own LISTEN connection. Collected
 * only by the `server-postgres` project (it exists only when that variable is set).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDate, sha256Hex } from '@gantry/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { uploadDevelopmentLicence } from './test/dev-licence.js';
import { selfSigned } from './test/self-signed.js';

const PG_URL = process.env.GANTRY_TEST_DATABASE_URL as string;
const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPM = '/portal/rest/spm';
const ADMIN_PASSWORD = sha256Hex('Admin12345');
/** What "seen by the other process" must take at most. */
const WITHIN_MS = 1_000;

const name = `gantry_two_${randomBytes(6).toString('hex')}`;
const servers: Array<{ child: ChildProcess; base: string; dataDir: string; output: string[] }> = [];

let testUrl: string;

/** `work` on a connection of its own: to the PostgreSQL server's own database (`PG_URL`, where databases are created), or (`inTest`) to the test's. */
async function admin<T>(work: (client: pg.Client) => Promise<T>, inTest = false): Promise<T> {
  const client = new pg.Client({ connectionString: inTest ? testUrl : PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const freePort = (host = '127.0.0.1') =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/**
 * `host`: the second process listens on another loopback address, so both can hold a project's port;
 * `shared`: its data directory is the first's (files such as certificates are shared, as deployed).
 */
async function startServer(databaseUrl: string, host = '127.0.0.1', env: Record<string, string> = {}, shared?: string) {
  const port = await freePort(host);
  const dataDir = shared ?? (await mkdtemp(path.join(tmpdir(), 'gantry-two-')));
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: host,
      DATABASE_URL: databaseUrl,
      GANTRY_DATA_DIR: dataDir,
      GANTRY_LOGIN_RATE_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const server = { child, base: `http://${host}:${port}`, dataDir, output };
  servers.push(server);
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.join('')}`);
    try {
      if ((await fetch(`${server.base}/readyz`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 90_000) throw new Error(`server did not start: ${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Server = Awaited<ReturnType<typeof startServer>>;
let a: Server;
let b: Server;
/** The TLS port of project domains (SNI) of `b`. */
let bHttpsPort: number;

async function call(server: Server, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(`${server.base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function login(server: Server, username = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const response = await call(server, 'POST', `${SPM}/login`, undefined, { username, password });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.token as string;
}

/** Asks until `seen` holds; fails if that takes longer than WITHIN_MS. Answers the time taken. */
async function seenWithin(ask: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await ask()) return performance.now() - started;
    if (performance.now() - started > WITHIN_MS) throw new Error(`not seen within ${WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Asks until `found` answers something (at most a minute). */
async function until<T>(found: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 1_200; i++) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('not seen within a minute');
}

const PLATFORM = '/portal/rest/platform-backup';

const currentUser = (server: Server, token: string) => call(server, 'GET', `${SPM}/login/current/user`, token);

/** A GET of `/` on `host:port` naming `hostHeader` (fetch cannot set Host): status and body, or the error code. */
function plainGet(host: string, port: number, hostHeader: string) {
  return new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const request = http.get({ host, port, path: '/', headers: { host: hostHeader }, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

/** An HTTPS GET of `/` on 127.0.0.2 naming `servername` (SNI and Host), trusting only `ca`. */
function secureGet(port: number, servername: string, ca: Buffer) {
  return new Promise<{ status?: number; error?: string }>((resolve) => {
    const request = https.get(
      { host: '127.0.0.2', port, servername, headers: { host: servername }, path: '/', ca, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

function uploadCertificate(server: Server, token: string, id: string, pair: { key: Buffer; pem: Buffer }) {
  const form = new FormData();
  form.append('id', id);
  form.append('certKey', new Blob([pair.key]), 'site.key');
  form.append('certPem', new Blob([pair.pem]), 'site.pem');
  return fetch(`${server.base}${SPM}/project/cert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

beforeAll(async () => {
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  testUrl = url.toString();
  // One after the other: the second finds the database migrated (both would also be safe together).
  a = await startServer(testUrl);
  bHttpsPort = await freePort('127.0.0.2');
  b = await startServer(testUrl, '127.0.0.2', { GANTRY_SITES_HTTPS_PORT: String(bHttpsPort) }, a.dataDir);
  const registered = await call(a, 'POST', `${SPM}/admin/register`, undefined, { password: ADMIN_PASSWORD });
  expect(registered.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await Promise.all(
    servers.map(async ({ child, dataDir }) => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    }),
  );
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}, 60_000);

describe('two server processes on one PostgreSQL', () => {
  it('a websocket on one process shows the progress of tasks, whichever process runs them', async () => {
    const token = await login(a);
    const socket = new WebSocket(
      `${b.base.replace('http', 'ws')}${SPM}/proxy/ws/historycomputed?token=${encodeURIComponent(token)}`,
    );
    const messages: Array<{ name: string; data: Record<string, Record<string, { status: string; type: string }>> }> =
      [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ name: 'historycomputed' }));
    try {
      const run = await call(a, 'POST', `${SPM}/setting/bbs_realtime/run`, token);
      expect(run.status, JSON.stringify(run.body)).toBe(200);
      const requestId = run.body.requestId as string;
      const started = performance.now();
      while (!messages.some((m) => m.data.default?.[requestId]?.type === 'data.retention')) {
        // The hub looks once a second: two looks at most.
        if (performance.now() - started > 2_500) throw new Error(`no progress through b: ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      socket.terminate();
    }
  });

  it('cache sessions: a session deleted behind their back still answers until it expires from the cache', async () => {
    const token = await login(a);
    expect((await currentUser(b, token)).status).toBe(200);
    const deleted = await admin(
      (client) =>
        client.query('DELETE FROM sessions WHERE token_hash = $1', [createHash('sha256').update(token).digest('hex')]),
      true,
    );
    expect(deleted.rowCount).toBe(1);
    expect((await currentUser(b, token)).status).toBe(200);
  });

  it('a sign-out in one ends the session in the other within a second', async () => {
    const token = await login(a);
    expect((await currentUser(a, token)).status).toBe(200);
    expect((await currentUser(b, token)).status).toBe(200); // now cached by b
    expect((await call(a, 'POST', `${SPM}/login/exit`, token)).status).toBe(200);
    await seenWithin(async () => (await currentUser(b, token)).status === 401);
  });

  it('a password change in one ends every session of the user in the other within a second', async () => {
    const there = await login(b);
    const here = await login(a);
    expect((await currentUser(b, there)).status).toBe(200);
    const newPassword = sha256Hex('Admin67890');
    const changed = await call(a, 'PUT', `${SPM}/login/current/password`, here, {
      oldPassword: ADMIN_PASSWORD,
      newPassword,
      newPassword2: newPassword,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await seenWithin(async () => (await currentUser(b, there)).status === 401);
    // Back to the first password for the other tests.
    const again = await login(b, 'admin', newPassword);
    const restored = await call(b, 'PUT', `${SPM}/login/current/password`, again, {
      oldPassword: newPassword,
      newPassword: ADMIN_PASSWORD,
      newPassword2: ADMIN_PASSWORD,
    });
    expect(restored.status).toBe(200);
  });

  it('a licence uploaded in one is in force in the other within a second', async () => {
    const token = await login(a);
    const before = await currentUser(b, token);
    expect(before.body).toMatchObject({ grant: null, features: [] });
    const uploaded = await uploadDevelopmentLicence(a.base, token, ['gis', 'DST']);
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    await seenWithin(async () => {
      const features = (await currentUser(b, token)).body.features as string[];
      return features.join() === 'DST,gis';
    });
  });

  it('settings changed in one are served by the other within a second', async () => {
    const token = await login(a);
    expect((await call(b, 'GET', `${SPM}/setting`)).body.name).not.toBe('Renamed platform');
    const patched = await call(a, 'PATCH', `${SPM}/setting`, token, { name: 'Renamed platform' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await seenWithin(async () => (await call(b, 'GET', `${SPM}/setting`)).body.name === 'Renamed platform');
  });

  it('a tenant disabled in one is signed out of the other within a second', async () => {
    const adminToken = await login(a);
    const password = sha256Hex('Tenant123');
    const created = await call(a, 'POST', `${SPM}/user`, adminToken, {
      id: 'acme',
      name: 'Acme',
      type: 1,
      industry: 'coal',
      grant: {
        validityPeriod: 30,
        startTime: localDate(new Date()),
        userCount: 1,
        flow: { tableCount: 1 },
        dataGathering: { point: 10 },
        features: ['gis'],
      },
      password,
      password1: password,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const tenant = await login(b, 'acme', password);
    expect((await currentUser(b, tenant)).status).toBe(200);
    expect((await call(a, 'PATCH', `${SPM}/user/acme/disable`, adminToken)).status).toBe(200);
    await seenWithin(async () => (await currentUser(b, tenant)).status === 401);
  });
  it('a project port, domain and certificate saved in one are served by the other within a second', async () => {
    const token = await login(a);
    expect((await uploadDevelopmentLicence(a.base, token, ['gis', 'DST'])).status).toBe(200);
    const project = (more: Record<string, unknown>) => ({
      name: 'Two plant',
      industry: 'coal',
      projectType: 'blank',
      grant: {
        validityPeriod: 30,
        startTime: localDate(new Date()),
        userCount: 1,
        flow: { tableCount: 1 },
        dataGathering: { point: 10 },
        features: ['gis'],
      },
      ...more,
    });
    expect((await call(a, 'POST', `${SPM}/project`, token, project({ id: 'twosite' }))).status).toBe(200);
    const port = await freePort();
    const onPort = () => plainGet('127.0.0.2', port, 'whatever');
    expect(await onPort()).toEqual({ error: 'ECONNREFUSED' });
    const saved = await call(a, 'PUT', `${SPM}/project/twosite`, token, project({ port }));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await seenWithin(async () => {
      const answer = await onPort();
      return 'body' in answer && answer.body.includes('Two plant');
    });

    // The domain: Host routing on the main port of the other process, then over TLS with its certificate.
    const bPort = Number(new URL(b.base).port);
    const byHost = () => plainGet('127.0.0.2', bPort, 'two.example.com');
    expect(await byHost()).not.toMatchObject({ body: expect.stringContaining('Two plant') });
    const first = selfSigned('two.example.com');
    const second = selfSigned('two.example.com');
    expect((await uploadCertificate(a, token, 'twosite', first)).status).toBe(200);
    const domain = { port, domain: 'two.example.com', isUseDomain: true, isUseHttps: true };
    expect((await call(a, 'PUT', `${SPM}/project/twosite`, token, project(domain))).status).toBe(200);
    await seenWithin(async () => {
      const answer = await byHost();
      return 'body' in answer && answer.body.includes('Two plant');
    });
    await seenWithin(async () => (await secureGet(bHttpsPort, 'two.example.com', first.pem)).status === 200);
    // A replaced certificate: the other process's TLS listener serves the new one.
    expect((await uploadCertificate(a, token, 'twosite', second)).status).toBe(200);
    await seenWithin(async () => (await secureGet(bHttpsPort, 'two.example.com', second.pem)).status === 200);
    expect(await secureGet(bHttpsPort, 'two.example.com', first.pem)).toHaveProperty('error');

    // The port removed: the other process lets it go.
    expect((await call(a, 'PUT', `${SPM}/project/twosite`, token, project({ port: null }))).status).toBe(200);
    await seenWithin(async () => 'error' in (await onPort()));
  });

  // Last: the restore puts the database back as the backup found it.
  it('a platform restore on one puts the other in maintenance until it ends', async () => {
    const token = await login(a);
    const started = await call(a, 'POST', `${PLATFORM}`, token);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const taskId = started.body.taskId as string;
    const backupName = await until(async () => {
      const rows = await admin(
        (client) =>
          client.query<{ status: string; message: string }>('SELECT status, message FROM tasks WHERE id = $1', [
            taskId,
          ]),
        true,
      );
      const task = rows.rows[0];
      return task && task.status !== 'ongoing' ? task : undefined;
    });
    expect(backupName.status, backupName.message).toBe('success');

    const restore = await call(a, 'POST', `${PLATFORM}/${backupName.message}/restore`, token, {
      password: ADMIN_PASSWORD,
    });
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    // The other node: its calls refused, its status that of the restore, as soon as it starts.
    const seen: number[] = [];
    await seenWithin(async () => {
      const answer = await call(b, 'GET', `${SPM}/login/current/user`, token);
      seen.push(answer.status);
      return answer.status === 503 && answer.body.code === 'platformRestoring';
    });
    expect((await call(b, 'GET', `${PLATFORM}/restore-status`)).body).toMatchObject({ state: 'restoring' });
    const ended = await until(async () => {
      const answer = await call(a, 'GET', `${PLATFORM}/restore-status`);
      return answer.body.state === 'restoring' ? undefined : answer.body;
    });
    expect(ended.state, String(ended.reason)).toBe('succeeded');
    // And once it has ended: the other node answers again (everyone was signed out by the restore).
    await seenWithin(async () => (await call(b, 'GET', `${SPM}/login/current/user`, token)).status === 401);
    expect((await call(b, 'GET', `${PLATFORM}/restore-status`)).body).toMatchObject({ state: 'idle' });
    await login(b);
  }, 120_000);
});
