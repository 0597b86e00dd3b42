import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startVsftpd, type Vsftpd } from '../../test/vsftpd.js';
import { createFtpStorage, type FtpConnection } from '../ftp/ftp-storage.js';
import {
  CORE,
  call,
  change,
  closeWorlds,
  DB,
  database,
  dump,
  files,
  job,
  openWorld,
  project,
  seed,
  type World,
  worlds,
} from './db-backup.fixtures.js';

const servers: Vsftpd[] = [];
afterEach(async () => {
  await closeWorlds();
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/** An app whose FTP storage is a private vsftpd (the settings' part replaced by the connection itself). */
async function withFtp(): Promise<{ world: World; ftp: Vsftpd; connection: FtpConnection }> {
  const ftp = await startVsftpd();
  servers.push(ftp);
  const connection = ftp.connection({ remoteFolder: '/' });
  const world = await openWorld({
    ftpStorage: createFtpStorage({ settings: { connection: async () => connection }, timeoutMs: 5_000 }),
  });
  worlds.current = world;
  return { world, ftp, connection };
}

describe('database backups on FTP storage (vsftpd)', () => {
  it('pushes each dump with its sidecar, lists, downloads, restores from and deletes on the server', async () => {
    const { world, ftp } = await withFtp();
    await seed();
    const expectedData = await database();
    const expectedFiles = await files();
    const id = await dump('to ftp');
    const answer = await job(id);
    expect(answer.log).toContain(`FTP: ${id}.zip uploaded`);
    expect(answer.warning).toBeUndefined();
    expect((await call('GET', `${DB}/backup`)).json()[0]).not.toHaveProperty('warning');

    // On the server: <projectId>/<id>.zip and its sidecar, the same bytes as the local archive.
    expect((await readdir(path.join(ftp.root, project))).sort()).toEqual([`${id}.json`, `${id}.zip`]);
    const local = await readFile(path.join(world.app.dataDir, 'backups', project, 'dumps', `${id}.zip`));
    expect((await readFile(path.join(ftp.root, project, `${id}.zip`))).equals(local)).toBe(true);
    const sidecar = JSON.parse(await readFile(path.join(ftp.root, project, `${id}.json`), 'utf8'));
    expect(sidecar).toMatchObject({ id, name: 'to ftp', size: local.length, item: { database: true } });

    const list = await call('GET', `${DB}/ftp`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['ftp-configured']).toBe('true');
    expect(list.json()).toEqual([
      {
        id,
        name: 'to ftp',
        item: { fileServer: true, html: true, database: true },
        uploadTime: expect.any(String),
        fileSize: 0,
      },
    ]);
    // Another project of the same tenant sees none of it.
    expect((await call('GET', `${DB}/ftp`, { projectId: 'plant2' })).json()).toEqual([]);
    expect((await call('GET', `${DB}/ftp/download/${id}`, { projectId: 'plant2' })).statusCode).toBe(404);

    const download = await call('GET', `${DB}/ftp/download/${id}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(local)).toBe(true);

    // The local copy gone, the data changed: restored from the FTP server.
    expect((await call('DELETE', `${DB}/backup/${id}`)).statusCode).toBe(200);
    await change();
    const started = await call('POST', `${DB}/ftp/restore?id=${id}`, {
      body: { fileServer: true, html: true, database: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(await job(started.json().id)).toMatchObject({
      status: 'success',
      log: expect.stringMatching(/^Restore successful\narchive verified \(\d+ entries\) in \d+ ms\n/),
    });
    expect(await database()).toEqual(expectedData);
    expect(await files()).toEqual(expectedFiles);

    expect((await call('DELETE', `${DB}/ftp/${id}`)).statusCode).toBe(200);
    expect((await call('GET', `${DB}/ftp`)).json()).toEqual([]);
    expect(await readdir(path.join(ftp.root, project))).toEqual([]);
    expect((await call('DELETE', `${DB}/ftp/${id}`)).statusCode).toBe(404);
    // a dump, a restore and four FTP transfers: 32 s on a loaded machine
  }, 90_000);

  it('refuses a tampered FTP archive (the sidecar hash) and changes nothing', async () => {
    const { ftp } = await withFtp();
    await seed();
    const id = await dump('tamper');
    const remote = path.join(ftp.root, project, `${id}.zip`);
    const bytes = await readFile(remote);
    bytes.writeUInt8(bytes.readUInt8(100) ^ 0xff, 100);
    await writeFile(remote, bytes);
    await change();
    const before = await database();
    const started = await call('POST', `${DB}/ftp/restore?id=${id}`, { body: { database: true } });
    expect(started.statusCode, started.body).toBe(200);
    const failed = await job(started.json().id);
    expect(failed.status).toBe('failed');
    expect(failed.log).toContain('The backup file is not valid');
    expect(await database()).toEqual(before);
    expect((await call('GET', `${CORE}/rule`)).statusCode).toBe(200);
  });

  it('keeps the local backup when the push fails (server stopped): a success with a translated warning', async () => {
    const { ftp } = await withFtp();
    await seed();
    await ftp.kill();
    const started = await call('POST', `${DB}/dump`, { body: { name: 'no ftp', item: { database: true } } });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json<{ id: string }>().id;
    const done = await job(id);
    const english =
      'backup complete, but its copy to the FTP server failed: the FTP server refused the connection or cannot be ' +
      'reached (the local backup is kept)';
    const warning = { key: 'dbBackup.ftpCopyFailed', params: { reason: 'ftp.error.refused' } };
    expect(done.status).toBe('success');
    expect(done.log.split('\n')[0]).toBe(english);
    // The server's own words stay in the job's log, for whoever looks into it.
    expect(done.log).toMatch(
      /\nFTP upload failed \(the local backup is kept\): The FTP server 127\.0\.0\.1:\d+ refused/,
    );
    expect(done.warning).toEqual({ ...warning, message: english });
    const chinese = '备份完成，但复制到 FTP 服务器失败：FTP 服务器拒绝连接或无法到达（本地备份已保留）';
    const zhJob = await call('GET', `${DB}/${id}`, { language: 'zh' });
    expect(zhJob.json().warning).toEqual({ ...warning, message: chinese });

    // The list shows the backup with its warning, in the caller's language.
    expect((await call('GET', `${DB}/backup`)).json()).toEqual([
      expect.objectContaining({ id, name: 'no ftp', warning: { ...warning, message: english } }),
    ]);
    expect((await call('GET', `${DB}/backup`, { language: 'zh' })).json()).toEqual([
      expect.objectContaining({ id, warning: { ...warning, message: chinese } }),
    ]);

    // The FTP list says what failed, translated (not the library's English).
    const list = await call('GET', `${DB}/ftp`);
    expect(list.statusCode).toBe(502);
    expect(list.json()).toEqual({
      code: 'dbBackupFtpFailed',
      message: 'FTP storage failed: the FTP server refused the connection or cannot be reached',
    });
    const zhList = await call('GET', `${DB}/ftp`, { language: 'zh' });
    expect(zhList.json().message).toBe('FTP 存储出错：FTP 服务器拒绝连接或无法到达');
  });

  it('warns of an FTP server nobody answers at (a loopback port nothing listens on)', async () => {
    const port = await freePort();
    const world = await openWorld({
      ftpStorage: createFtpStorage({
        settings: {
          connection: async () => ({
            host: '127.0.0.1',
            port,
            user: 'nobody',
            password: 'secret',
            remoteFolder: '/',
            tls: 'none',
            allowUntrustedCertificate: false,
          }),
        },
        timeoutMs: 5_000,
      }),
    });
    worlds.current = world;
    await seed();
    const started = await call('POST', `${DB}/dump`, { body: { name: 'unreachable', item: { database: true } } });
    const done = await job(started.json<{ id: string }>().id);
    expect(done).toMatchObject({
      status: 'success',
      warning: { key: 'dbBackup.ftpCopyFailed', params: { reason: 'ftp.error.refused' } },
    });
    const listed = await call('GET', `${DB}/ftp`);
    expect(listed.statusCode).toBe(502);
    expect(listed.headers['ftp-configured']).toBeUndefined();
  });
});

/** A loopback port free now (bound, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
