/**
 * FTP storage against a real vsftpd on loopback (issue 13 §2): round trips over plain FTP, explicit and
 * implicit TLS, and each fault named by the issue. vsftpd missing fails these tests (CI installs it).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep } from '../../test/server-process.js';
import { startVsftpd, type Vsftpd } from '../../test/vsftpd.js';
import {
  createFtpStorage,
  type FtpConnection,
  type FtpFailure,
  FtpStorageError,
  parseRawDate,
  remoteSegments,
  testFtpConnection,
} from './ftp-storage.js';

let local: string;
const servers: Vsftpd[] = [];

beforeAll(async () => {
  local = await mkdtemp(path.join(tmpdir(), 'gantry-ftp-local-'));
});
afterAll(async () => {
  await rm(local, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function server(options: Parameters<typeof startVsftpd>[0] = {}): Promise<Vsftpd> {
  const started = await startVsftpd(options);
  servers.push(started);
  return started;
}

function storageOn(connection: FtpConnection | null, extra: { timeoutMs?: number; log?: string[] } = {}) {
  return createFtpStorage({
    settings: { connection: async () => connection },
    timeoutMs: extra.timeoutMs ?? 5_000,
    log: {
      info: (_object, message) => extra.log?.push(message),
      warn: (_object, message) => extra.log?.push(message),
    },
  });
}

async function randomFile(name: string, bytes: number): Promise<{ file: string; sha: string }> {
  const file = path.join(local, name);
  const content = randomBytes(bytes);
  await writeFile(file, content);
  return { file, sha: sha256(content) };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function failureOf(promise: Promise<unknown>): Promise<FtpStorageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FtpStorageError) return error;
    throw error;
  }
  throw new Error('expected an FtpStorageError, the call succeeded');
}

async function expectFailure(
  promise: Promise<unknown>,
  failure: FtpFailure,
  message: RegExp,
): Promise<FtpStorageError> {
  const error = await failureOf(promise);
  expect({ failure: error.failure, message: error.message }).toMatchObject({
    failure,
    message: expect.stringMatching(message),
  });
  return error;
}

async function roundTrip(ftp: Vsftpd, bytes: number) {
  const storage = storageOn(ftp.connection());
  const { file, sha } = await randomFile(`up-${ftp.port}.bin`, bytes);
  const progress: number[] = [];
  await storage.push(file, 'dumps/p1/backup.zip', { onProgress: (done) => progress.push(done) });
  // The file lands under the remote folder, whole, and nothing else is left beside it.
  const onServer = await readFile(path.join(ftp.root, 'gantry/dumps/p1/backup.zip'));
  expect(sha256(onServer)).toBe(sha);
  expect(await readdir(path.join(ftp.root, 'gantry/dumps/p1'))).toEqual(['backup.zip']);
  const listed = await storage.list('dumps/p1');
  expect(listed).toEqual([{ name: 'backup.zip', size: bytes, modifiedAt: expect.any(Date) }]);
  expect(Math.abs((listed[0]?.modifiedAt?.getTime() ?? 0) - Date.now())).toBeLessThan(5 * 60_000);
  expect(await storage.list('dumps')).toEqual([]); // folders are not files
  expect(await storage.list('nowhere/at/all')).toEqual([]);

  const back = path.join(local, `down-${ftp.port}.bin`);
  await storage.fetch('dumps/p1/backup.zip', back);
  expect(sha256(await readFile(back))).toBe(sha);
  expect(existsSync(`${back}.part`)).toBe(false);

  await storage.pushText('{"name":"nightly"}', 'dumps/p1/backup.json');
  expect(await storage.fetchText('dumps/p1/backup.json', 1024)).toBe('{"name":"nightly"}');
  await expectFailure(storage.fetchText('dumps/p1/backup.zip', 1024), 'other', /larger than 1024 bytes/);

  await storage.remove('dumps/p1/backup.zip');
  await storage.remove('dumps/p1/backup.zip'); // missing: not an error
  expect((await storage.list('dumps/p1')).map((entry) => entry.name)).toEqual(['backup.json']);
  return progress;
}

describe('FTP storage on vsftpd', () => {
  it('pushes, lists, fetches byte for byte and removes over plain FTP', async () => {
    const ftp = await server();
    const progress = await roundTrip(ftp, 3 * 1024 * 1024 + 17);
    expect(progress.every((bytes) => bytes <= 3 * 1024 * 1024 + 17)).toBe(true);
  });

  it('does the same over explicit TLS (FTPS), and refuses the self-signed certificate unless allowed', async () => {
    const ftp = await server({ tls: 'explicit' });
    await roundTrip(ftp, 2 * 1024 * 1024 + 3);
    await expectFailure(
      storageOn(ftp.connection({ allowUntrustedCertificate: false })).list(''),
      'tls',
      /TLS connection to the FTP server 127\.0\.0\.1:\d+ failed: the certificate is self-signed/,
    );
    // A server that demands TLS, reached without it: says so.
    await expectFailure(
      storageOn(ftp.connection({ tls: 'none' })).list(''),
      'tls',
      /requires an encrypted \(TLS\) connection/,
    );
  });

  it('does the same over implicit TLS', async () => {
    const ftp = await server({ tls: 'implicit' });
    await roundTrip(ftp, 1024 * 1024);
  });

  it('names a wrong password, a refused port, an unknown host and a silent server', async () => {
    const ftp = await server();
    const wrong = await expectFailure(
      storageOn(ftp.connection({ password: 'not-the-password' })).list(''),
      'login',
      /refused the user name or password/,
    );
    expect(wrong.message).not.toContain('not-the-password');
    const closedPort = await freePort();
    await expectFailure(
      storageOn(ftp.connection({ port: closedPort })).list(''),
      'refused',
      new RegExp(`127\\.0\\.0\\.1:${closedPort} refused the connection`),
    );
    await expectFailure(
      storageOn(ftp.connection({ host: 'gantry-nowhere.invalid' })).list(''),
      'dns',
      /gantry-nowhere\.invalid:\d+ could not be resolved \(DNS\)/,
    );
    // Accepts the connection and never greets: the connect timeout.
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const started = Date.now();
      await expectFailure(
        storageOn(ftp.connection({ port }), { timeoutMs: 300 }).list(''),
        'timeout',
        /did not answer in time/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
  });

  it('fails an upload whose server stops halfway as interrupted, keeps the local file and leaves no partial file', async () => {
    const ftp = await server({ maxRateBytes: 4 * 1024 * 1024 });
    const { file, sha } = await randomFile('interrupted.bin', 12 * 1024 * 1024);
    const storage = storageOn(ftp.connection());
    const partial = path.join(ftp.root, 'gantry/interrupted.zip.part');
    const push = storage.push(file, 'interrupted.zip');
    push.catch(() => {});
    await waitFor(async () => ((await stat(partial).catch(() => null))?.size ?? 0) > 1024 * 1024);
    await ftp.kill();
    // The resume runs as soon as the upload's connection drops: while the server's listener dies it
    // may still accept and then close, after it the port refuses.
    await expectFailure(
      push,
      'interrupted',
      /connection to the FTP server 127\.0\.0\.1:\d+ was lost during the upload of "\/gantry\/interrupted\.zip"\. Resuming failed: .*(refused the connection|closed the connection before answering)/,
    );
    expect(sha256(await readFile(file))).toBe(sha);
    // The server is down: its partial file stays (and is never listed: *.part), nothing named as the backup.
    expect(existsSync(path.join(ftp.root, 'gantry/interrupted.zip'))).toBe(false);
  });

  it('resumes an upload whose connection drops, appending to what the server kept', async () => {
    const ftp = await server({ maxRateBytes: 4 * 1024 * 1024 });
    const { file, sha } = await randomFile('resumed.bin', 8 * 1024 * 1024);
    const log: string[] = [];
    const storage = storageOn(ftp.connection(), { log });
    const partial = path.join(ftp.root, 'gantry/resumed.zip.part');
    const push = storage.push(file, 'resumed.zip');
    push.catch(() => {});
    await waitFor(async () => ((await stat(partial).catch(() => null))?.size ?? 0) > 2 * 1024 * 1024);
    ftp.killSessions();
    await push;
    expect(log).toContain('resuming an interrupted FTP upload');
    expect(sha256(await readFile(path.join(ftp.root, 'gantry/resumed.zip')))).toBe(sha);
  });

  it('resumes a download whose connection drops, from where the local part ends', async () => {
    const ftp = await server({ maxRateBytes: 4 * 1024 * 1024 });
    const { file, sha } = await randomFile('download.bin', 8 * 1024 * 1024);
    const log: string[] = [];
    const storage = storageOn(ftp.connection(), { log });
    await storage.push(file, 'download.zip');
    const target = path.join(local, 'download-back.zip');
    const fetch = storage.fetch('download.zip', target);
    fetch.catch(() => {});
    await waitFor(async () => ((await stat(`${target}.part`).catch(() => null))?.size ?? 0) > 2 * 1024 * 1024);
    ftp.killSessions();
    await fetch;
    expect(log).toContain('resuming an interrupted FTP download');
    expect(sha256(await readFile(target))).toBe(sha);
    expect(existsSync(`${target}.part`)).toBe(false);
  });

  it('stops a transfer when its signal aborts, as interrupted, and cleans up', async () => {
    const ftp = await server({ maxRateBytes: 2 * 1024 * 1024 });
    const { file, sha } = await randomFile('aborted.bin', 8 * 1024 * 1024);
    const storage = storageOn(ftp.connection());
    const controller = new AbortController();
    const partial = path.join(ftp.root, 'gantry/aborted.zip.part');
    const push = storage.push(file, 'aborted.zip', { signal: controller.signal });
    push.catch(() => {});
    await waitFor(async () => ((await stat(partial).catch(() => null))?.size ?? 0) > 512 * 1024);
    controller.abort();
    await expectFailure(push, 'interrupted', /was cancelled/);
    expect(sha256(await readFile(file))).toBe(sha);
    await waitFor(async () => !existsSync(partial));
    expect(existsSync(path.join(ftp.root, 'gantry/aborted.zip'))).toBe(false);
  });

  it('fails an upload to a full disk as diskFull and removes the partial remote file', async () => {
    const ftp = await server({ diskBytes: 1024 * 1024 });
    const { file, sha } = await randomFile('full.bin', 3 * 1024 * 1024);
    const error = await expectFailure(storageOn(ftp.connection()).push(file, 'full.zip'), 'diskFull', /full\.zip/);
    expect(error.message).toMatch(/no space left|disk full/);
    expect(sha256(await readFile(file))).toBe(sha);
    expect(await readdir(path.join(ftp.root, 'gantry'))).toEqual([]);
  });

  it('fails a fetch of a file removed after the list as notFound, creating no local file', async () => {
    const ftp = await server();
    const storage = storageOn(ftp.connection());
    const { file } = await randomFile('gone.bin', 64 * 1024);
    await storage.push(file, 'gone.zip');
    expect((await storage.list('')).map((entry) => entry.name)).toEqual(['gone.zip']);
    await rm(path.join(ftp.root, 'gantry/gone.zip'));
    const target = path.join(local, 'gone-down.zip');
    await expectFailure(
      storage.fetch('gone.zip', target),
      'notFound',
      /"\/gantry\/gone\.zip" does not exist on the FTP server/,
    );
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.part`)).toBe(false);
    await expectFailure(storage.fetchText('gone.zip', 100), 'notFound', /does not exist/);
  });

  it('names a folder it may not write as a permission failure', async () => {
    const ftp = await server();
    // A folder the FTP user does not own (created by root, mode 0755).
    await mkdir(path.join(ftp.root, 'locked'));
    const storage = storageOn(ftp.connection({ remoteFolder: '/locked' }));
    const { file } = await randomFile('locked.bin', 1024);
    await expectFailure(
      storage.push(file, 'sub/x.zip'),
      'permission',
      /refused the creation of the folder .*\(permission\)/,
    );
    await expectFailure(
      storage.push(file, 'x.zip'),
      'permission',
      /refused the upload of "\/locked\/x\.zip" \(permission\)/,
    );
  });

  it('refuses paths that leave the remote folder, before connecting', async () => {
    let asked = 0;
    const storage = createFtpStorage({
      settings: {
        connection: async () => {
          asked += 1;
          return null;
        },
      },
    });
    for (const bad of ['../x.zip', 'a/../../x.zip', '/etc/passwd', 'a\\b.zip', 'a\0b.zip', 'a\r\nDELE x', '']) {
      await expectFailure(storage.push(path.join(local, 'none'), bad), 'other', /The remote path .* is refused/);
      await expectFailure(storage.fetch(bad, path.join(local, 'none')), 'other', /is refused/);
      await expectFailure(storage.remove(bad), 'other', /is refused/);
    }
    await expectFailure(storage.list('../'), 'other', /leaves the remote folder/);
    expect(asked).toBe(0);
    expect(remoteSegments('a/./b//c.zip', false)).toEqual(['a', 'b', 'c.zip']);
  });

  it('says when FTP is not enabled', async () => {
    const storage = storageOn(null);
    expect(await storage.enabled()).toBe(false);
    await expectFailure(storage.list(''), 'notConfigured', /not enabled or not configured/);
    expect(await storageOn({ ...(await server()).connection() }).enabled()).toBe(true);
  });

  it('tests a connection step by step and says which step failed', async () => {
    const ftp = await server();
    expect(await testFtpConnection(ftp.connection())).toEqual({
      ok: true,
      detail: expect.stringMatching(/logged in, and wrote, read and deleted a file in "\/gantry"/),
      folder: '/gantry',
    });
    // The probe file is gone, the folder stays.
    expect(await readdir(path.join(ftp.root, 'gantry'))).toEqual([]);
    expect(await testFtpConnection(ftp.connection({ password: 'nope' }))).toMatchObject({
      ok: false,
      failure: 'login',
      key: 'ftp.error.login',
    });
    await mkdir(path.join(ftp.root, 'locked'));
    expect(await testFtpConnection(ftp.connection({ remoteFolder: '/locked/deeper' }))).toMatchObject({
      ok: false,
      failure: 'permission',
      key: 'ftp.error.permission',
      detail: expect.stringMatching(/creation of the folder "\/locked\/deeper"/),
    });
  });
});

describe('listing dates', () => {
  it('reads Unix listing dates, with and without the year', () => {
    const now = new Date(Date.UTC(2026, 10, 23, 6, 0));
    expect(parseRawDate('Nov 23 05:40', now)?.toISOString()).toBe('2026-11-23T05:40:00.000Z');
    expect(parseRawDate('Dec 24 10:00', now)?.toISOString()).toBe('2025-12-24T10:00:00.000Z');
    expect(parseRawDate('Jan  2  2024', now)?.toISOString()).toBe('2024-01-02T00:00:00.000Z');
    expect(parseRawDate('yesterday', now)).toBeNull();
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(10);
  }
  throw new Error('condition not met in time');
}
