import { execFileSync } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { createTenant, SPM_URL, TENANT_PASSWORD } from '../../test/fixtures.js';
import { ADMIN_PASSWORD, multipartFile, wire } from '../../test/test-app.js';
import { closeWorlds, openWorld, seed, type World, worlds } from '../db-backups/db-backup.fixtures.js';

const PLATFORM = '/portal/rest/platform-backup';

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function backup(w: World): Promise<string> {
  const started = await w.app.call('POST', PLATFORM, w.admin);
  expect(started.statusCode, started.body).toBe(200);
  const { taskId } = started.json<{ taskId: string }>();
  const [task] = await waitFor(
    () =>
      queryRows<{ status: string; message: string | null }>(
        w.app.database.db,
        sql`SELECT status, message FROM tasks WHERE id = ${taskId}`,
      ),
    (rows) => rows[0]?.status !== 'ongoing',
    'the backup task',
  );
  expect(task?.status, task?.message ?? '').toBe('success');
  return task?.message ?? '';
}

const status = async (w: World) =>
  (await w.app.call('GET', `${PLATFORM}/restore-status`)).json<{ state: string; reason?: string }>();

afterEach(closeWorlds);

describe('platform backups from the settings area (issue 13 §4)', () => {
  it('is the administrator’s alone', async () => {
    const w = await openWorld();
    for (const [method, url] of [
      ['GET', PLATFORM],
      ['POST', PLATFORM],
      ['GET', `${PLATFORM}/x.zip/download`],
      ['DELETE', `${PLATFORM}/x.zip`],
      ['POST', `${PLATFORM}/x.zip/restore`],
    ] as const) {
      const answer = await w.app.call(method, url, w.acme, method === 'POST' ? { password: 'x' } : undefined);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await w.app.call('GET', PLATFORM, w.admin)).json()).toEqual([]);
  });

  it('backs up, downloads, uploads and restores the platform; the restore signs everyone out and nothing answers meanwhile', async () => {
    const w = await openWorld();
    worlds.current = w;
    await seed(w);
    const name = await backup(w);
    const listed = (await w.app.call('GET', PLATFORM, w.admin)).json<Array<{ name: string; size: number }>>();
    expect(listed.map((file) => file.name)).toEqual([name]);

    const download = await w.app.call('GET', `${PLATFORM}/${name}/download`, w.admin);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.rawPayload.subarray(0, 4).toString('hex')).toBe('504b0304');
    const uploaded = await w.app.app.inject({
      method: 'POST',
      url: `${PLATFORM}/upload`,
      ...(() => {
        const form = multipartFile('file', 'copy of it.zip', download.rawPayload, 'application/zip');
        return { payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${w.admin}` } };
      })(),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json<{ name: string }>().name).toBe('copy_of_it.zip');

    // After the backup: a new tenant, which the restore removes.
    await createTenant(w.app, w.admin, 'latecomer');
    const wrong = await w.app.call('POST', `${PLATFORM}/copy_of_it.zip/restore`, w.admin, {
      password: wire('nope1234'),
    });
    expect(wrong.statusCode).toBe(400);
    expect((await status(w)).state).toBe('idle');

    const restore = await w.app.call('POST', `${PLATFORM}/copy_of_it.zip/restore`, w.admin, {
      password: wire(ADMIN_PASSWORD),
    });
    expect(restore.statusCode, restore.body).toBe(200);
    expect((await status(w)).state).toBe('restoring');
    const meanwhile = await w.app.call('GET', `${SPM_URL}/project/plant1`, w.acme);
    expect(meanwhile.statusCode).toBe(503);
    expect(meanwhile.json<{ code: string }>().code).toBe('platformRestoring');
    const ended = await waitFor(
      () => status(w),
      (value) => value.state !== 'restoring',
      'the restore',
    );
    expect(ended.state, ended.reason).toBe('succeeded');

    expect((await w.app.call('GET', PLATFORM, w.admin)).statusCode).toBe(401);
    const admin = await w.app.login();
    await expect(w.app.login('latecomer', TENANT_PASSWORD)).rejects.toThrow();
    expect(
      (await w.app.call('GET', `${SPM_URL}/project/plant1`, await w.app.login('acme', TENANT_PASSWORD))).statusCode,
    ).toBe(200);
    // The platform backups themselves stay; the task engine runs again.
    expect((await w.app.call('GET', PLATFORM, admin)).json<unknown[]>()).toHaveLength(2);
    const again = await w.app.call('POST', PLATFORM, admin);
    expect(again.statusCode).toBe(200);
    await waitFor(
      () =>
        queryRows<{ status: string }>(
          w.app.database.db,
          sql`SELECT status FROM tasks WHERE id = ${again.json<{ taskId: string }>().taskId}`,
        ),
      (rows) => rows[0]?.status === 'success',
      'a backup after the restore',
    );
  });

  it('refuses a damaged upload with the reason, an upload that would fill the disk, and a restore while tasks run', async () => {
    const w = await openWorld();
    worlds.current = w;
    const form = multipartFile('file', 'junk.zip', Buffer.from('PK\u0003\u0004 not really'), 'application/zip');
    const junk = await w.app.app.inject({
      method: 'POST',
      url: `${PLATFORM}/upload`,
      payload: form.payload,
      headers: { ...form.headers, authorization: `Bearer ${w.admin}`, 'accept-language': 'en' },
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.json<{ message: string }>().message).toBe('The backup file is not valid: not a zip file, or damaged');
    expect((await w.app.call('GET', PLATFORM, w.admin)).json()).toEqual([]);

    // An upload never fills the disk: with 8 MB to spare (a 520 MB disk, 512 MB always left free), 9 MB is refused.
    const disk = path.join(w.app.dataDir, 'platform-backups');
    await mkdir(disk, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=520m', 'tmpfs', disk]);
    try {
      const big = multipartFile('file', 'big.zip', Buffer.alloc(9 * 1024 * 1024, 1), 'application/zip');
      const refused = await w.app.app.inject({
        method: 'POST',
        url: `${PLATFORM}/upload`,
        payload: big.payload,
        headers: { ...big.headers, authorization: `Bearer ${w.admin}`, 'accept-language': 'en' },
      });
      expect(refused.statusCode).toBe(413);
      expect(await readdir(disk)).toEqual([]);
    } finally {
      execFileSync('umount', [disk]);
    }

    const name = await backup(w);
    await w.app.database.db.execute(
      sql`INSERT INTO tasks (id, type, status, progress, params, requester, request_id, log, start_time, updated_at)
          VALUES ('tbusy', 'backup.export', 'ongoing', 0, '{}', 'admin', 'r1', '', now(), now())`,
    );
    const refused = await w.app.call('POST', `${PLATFORM}/${name}/restore`, w.admin, {
      password: wire(ADMIN_PASSWORD),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ code: string }>().code).toBe('platformTasksRunning');
    expect((await status(w)).state).toBe('idle');
    expect((await w.app.call('GET', `${SPM_URL}/project/plant1`, w.acme)).statusCode).toBe(200);
  });
});
