import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../lib/s3-file-store.js';
import { type S3TestServer, startS3Server } from '../test/s3-server.js';
import {
  call,
  freePort,
  MEDIA_URL,
  removeDrill,
  setUpProject,
  startServer,
  stopServer,
} from '../test/server-process.js';
import { ADMIN_PASSWORD, wire } from '../test/test-app.js';

/**
 * Moving storage with the command line (issue 35 §3), as the README tells an operator: `npm run backup
 * -- platform` with the server stopped, then `npm run restore -- platform FILE` with the new
 * GANTRY_STORAGE: from the data directory into object storage, and back. Real processes throughout: the
 * built server, the command as npm runs it, a private S3-compatible server.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = path.join(ROOT, 'apps/server/src/cli/platform.ts');
const project = { id: 'moved1', name: 'Moved' };

/** The platform command with `env` (its output, exit code). */
function platformCommand(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) => resolve({ code, output }));
  });
}

let s3: S3TestServer;
let work: string;
const started: ChildProcess[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
  work = await mkdtemp(path.join(tmpdir(), 'gantry-platform-cli-'));
});
afterAll(async () => {
  await removeDrill('', started);
  await s3.stop();
  await rm(work, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
});

/** The media file's bytes as the server on `dir` (with `env`) answers them, signed in afresh. */
async function mediaOn(dir: string, env: Record<string, string>): Promise<Buffer> {
  const port = await freePort();
  const server = await startServer(dir, port, started, { env });
  try {
    const base = `http://127.0.0.1:${port}`;
    const login = await call(base, 'POST', '/portal/rest/spm/login', {
      username: 'admin',
      password: wire(ADMIN_PASSWORD),
    });
    expect(login.status).toBe(200);
    const token = (login.body as { token: string }).token;
    const answer = await fetch(`${base}${MEDIA_URL}/download?path=${encodeURIComponent('docs/manual.bin')}`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-project': project.id },
    });
    expect(answer.status).toBe(200);
    return Buffer.from(await answer.arrayBuffer());
  } finally {
    await stopServer(server);
  }
}

describe('npm run backup / restore -- platform across stores', () => {
  it('moves a platform from the data directory into object storage and back with the server stopped', async () => {
    // On disk: a project with a media file larger than one multipart part.
    const onDisk = path.join(work, 'disk');
    const media = randomBytes(9 * 1024 * 1024 + 5);
    const port = await freePort();
    const server = await startServer(onDisk, port, started);
    const drill = await setUpProject(`http://127.0.0.1:${port}`, project);
    await drill.call('POST', `${MEDIA_URL}/dir`, { path: 'docs' });
    await drill.upload('docs', 'manual.bin', media);
    await stopServer(server);

    const fromDisk = path.join(work, 'from-disk.zip');
    const backup = await platformCommand(['backup', 'platform', '--out', fromDisk], { GANTRY_DATA_DIR: onDisk });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Platform backup written: .*, 1 files\)/);

    // Into object storage: a new node's data directory, the files in the bucket.
    const prefix = `cli-${randomUUID()}/`;
    const s3Env = { ...s3.env, GANTRY_S3_PREFIX: prefix };
    const onS3 = path.join(work, 's3');
    const restore = await platformCommand(['restore', 'platform', fromDisk, '--yes'], {
      ...s3Env,
      GANTRY_DATA_DIR: onS3,
    });
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/Platform restored from/);
    const bucket = new S3FileStore(s3.location(prefix));
    expect(await bucket.stat(`projects/${project.id}/fileServer`, ['docs', 'manual.bin'])).toMatchObject({
      size: media.length,
    });
    expect(existsSync(path.join(onS3, 'projects', project.id, 'fileServer'))).toBe(false);
    expect(Buffer.compare(await mediaOn(onS3, s3Env), media)).toBe(0);

    // And back to a data directory on disk.
    const fromS3 = path.join(work, 'from-s3.zip');
    const again = await platformCommand(['backup', 'platform', '--out', fromS3], { ...s3Env, GANTRY_DATA_DIR: onS3 });
    expect(again.code, again.output).toBe(0);
    const back = path.join(work, 'back');
    const restoredBack = await platformCommand(['restore', 'platform', fromS3, '--yes'], { GANTRY_DATA_DIR: back });
    expect(restoredBack.code, restoredBack.output).toBe(0);
    const file = await readFile(path.join(back, 'projects', project.id, 'fileServer', 'docs', 'manual.bin'));
    expect(Buffer.compare(file, media)).toBe(0);
    expect(Buffer.compare(await mediaOn(back, {}), media)).toBe(0);
  }, 240_000);
});
