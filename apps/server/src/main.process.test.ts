import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '@gantry/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The production start: `npm start` (which builds what is stale, then runs apps/server/dist/main.js in
 * its own process) on a fresh data directory, then stopped by one signal sent to npm while a request is
 * in flight; then started again on that directory and stopped with the other signal.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SPM = '/portal/rest/spm';
const PASSWORD = sha256Hex('Admin1234');

interface Server {
  npm: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GANTRY_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // A fresh clone: no vendor licence key, so an evaluation install.
      GANTRY_LICENCE_PUBLIC_KEYS: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  npm.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const healthy = async () => {
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output}`);
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    } catch {
      return false;
    }
  };
  // The first start may build the console and the server.
  await until('/healthz', healthy, 100_000);
  return { npm, port, output: () => output, exited };
}

/**
 * A POST whose headers arrive now and whose body arrives only when `finish` is called: a request the
 * server is already serving when the signal comes. Resolves with the raw HTTP answer.
 */
function slowPost(port: number, url: string, body: object) {
  const text = JSON.stringify(body);
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
  });
  const done = new Promise<string>((resolve, reject) => {
    socket.once('close', () => resolve(answer));
    socket.once('error', reject);
  });
  const sent = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      socket.write(
        `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text.slice(0, 5)}`,
        () => resolve(),
      );
    }),
  );
  return { sent, finish: () => socket.write(text.slice(5)), done };
}

async function stopDuringRequest(server: Server, signal: NodeJS.Signals, url: string, body: object) {
  const request = slowPost(server.port, url, body);
  await request.sent;
  // The server has the request's headers (a keep-alive connection sits idle beside it).
  await fetch(`http://127.0.0.1:${server.port}/healthz`);
  const signalled = Date.now();
  server.npm.kill(signal);
  await until('the shutdown line', () => server.output().includes('shutting down'), 5_000);
  // Closed to new connections while the request is still being served.
  await until('the listener to close', async () => !(await portOpen(server.port)), 5_000);
  request.finish();
  const answer = await request.done;
  const exit = await server.exited;
  return { answer, exit, ms: Date.now() - signalled };
}

describe('the built server started by npm start', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'gantry-start-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on a new data directory: one SIGTERM to npm finishes the request in flight, closes and exits 0', async () => {
    const server = await startServer(dataDir);
    const { answer, exit } = await stopDuringRequest(server, 'SIGTERM', `${SPM}/admin/register`, {
      password: PASSWORD,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(exit).toEqual({ code: 0, signal: null });
    const output = server.output();
    expect(output.match(/shutting down/g)).toHaveLength(1);
    // No vendor key: one warning line at start says this is an evaluation install.
    expect(output.match(/"level":40,[^\n]*"msg":"evaluation install: no vendor licence key configured/g)).toHaveLength(
      1,
    );
    expect(output).toMatch(/"signal":"SIGTERM"/);
    expect(output).toMatch(/"shutdownMs":\d+,"msg":"stopped"|"msg":"stopped".*"shutdownMs":\d+/);
    expect(await portOpen(server.port)).toBe(false);
  }, 150_000);

  it('on the existing directory: one SIGINT to npm does the same, and what the stopped server wrote is there', async () => {
    const server = await startServer(dataDir);
    // The registration answered before the last stop was committed.
    const check = await fetch(`http://127.0.0.1:${server.port}${SPM}/admin/check`);
    expect(check.status).toBe(200);
    const { answer, exit } = await stopDuringRequest(server, 'SIGINT', `${SPM}/login`, {
      username: 'admin',
      password: PASSWORD,
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/"token"/);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.output().match(/shutting down/g)).toHaveLength(1);
    expect(await portOpen(server.port)).toBe(false);
  }, 150_000);
});
