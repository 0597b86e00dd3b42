import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MEDIA_TEMP_PREFIX, translate } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { SERVER_STOPPED } from './modules/tasks/task.engine.js';
import { openConfiguredDatabase } from './open-database.js';
import {
  call,
  createBlankProject,
  enginePidOf,
  freePort,
  isAlive,
  setUpProject,
  sleep,
  startServer,
  stopServer,
} from './test/server-process.js';
import { ADMIN_PASSWORD, wire } from './test/test-app.js';

/**
 * `count` loops writing data records into `project` until `stopped()`, each a payload and its digest
 * (a half-written one would not match); the ids the server confirmed go to `confirmed`.
 */
function digestWriters(
  base: string,
  token: string,
  project: string,
  count: number,
  confirmed: string[],
  stopped: () => boolean,
): Array<Promise<void>> {
  let sequence = 0;
  return Array.from({ length: count }, async () => {
    while (!stopped()) {
      const id = `d${sequence++}`;
      const payload = id.repeat(500);
      const response = await call(
        base,
        'POST',
        '/portal/rest/core/data_record',
        { id, payload, digest: createHash('sha256').update(payload).digest('hex') },
        token,
        { 'x-request-project': project },
      ).catch(() => undefined);
      if (response?.status === 200) confirmed.push(id);
    }
  });
}

/**
 * kill -9 of the server while it writes: its embedded engine leaves by itself, and the next start
 * on the same directory has every write the server had confirmed.
 */
describe('kill -9 drill', () => {
  let dir = '';
  const started: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
    // A killed server's engine leaves by itself a moment later, and may still write as it goes.
    if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
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
      const { token } = await setUpProject(base, { id: 'drill1', name: 'Drill' });

      // Each document carries a payload and its digest: a half-written one would not match.
      const confirmed: string[] = [];
      let stop = false;
      const writers = digestWriters(base, token, 'drill1', 4, confirmed, () => stop);
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
      await rm(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
    }
  }, 180_000);

  it('leaves no partial upload or stuck task across kill -9 during uploads, data writes and a clean-up', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gantry-kill-media-'));
    const began = Date.now();
    const slow: Array<{ cancel: () => void }> = [];
    try {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const first = await startServer(dataDir, port, started);
      const { token } = await setUpProject(base, { id: 'drill2', name: 'drill2' });
      await createBlankProject(base, token, { id: 'aged', name: 'aged' });
      const policy = await call(
        base,
        'PATCH',
        '/portal/rest/spm/setting',
        { retentionPolicy: { count: 1, unit: 'd' } },
        token,
      );
      expect(policy.status, JSON.stringify(policy.body)).toBe(200);
      // Data records ten days old for the clean-up to work through, written while the server is stopped
      // (records take the time they are stored; no API writes an old one).
      await stopServer(first);
      const database = await openConfiguredDatabase(
        loadConfig({ ...process.env, GANTRY_DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' }),
        () => undefined,
      );
      try {
        await database.background.execute(sql`
          insert into project_documents (project_id, collection, id, doc, create_time, update_time)
          select 'aged', 'data_record', 'old' || g, jsonb_build_object('value', g),
                 now() - interval '10 days' + g * interval '1 millisecond',
                 now() - interval '10 days' + g * interval '1 millisecond'
          from generate_series(1, ${AGED_RECORDS}) as g`);
      } finally {
        await database.close();
      }
      const second = await startServer(dataDir, port, started);
      const auth = { authorization: `Bearer ${token}` };
      const drill = { ...auth, 'x-request-project': 'drill2' };

      const run = await call(base, 'POST', '/portal/rest/spm/setting/bbs_realtime/run', {}, token);
      expect(run.status, JSON.stringify(run.body)).toBe(200);
      const taskId = (run.body as { id: string }).id;
      const taskOf = async () => {
        const query = encodeURIComponent(JSON.stringify({ filter: { id: taskId } }));
        const response = await fetch(`${base}/portal/rest/spm/proxy/core/taskmanager?query=${query}`, {
          headers: auth,
        });
        const [task] = (await response.json()) as Array<{ status: string; progress: number; message: string | null }>;
        return task;
      };

      // Data writes, each a payload with its digest (a half-written one would not match).
      const confirmedDocs: string[] = [];
      let stop = false;
      const writers = digestWriters(base, token, 'drill2', 2, confirmedDocs, () => stop);

      // Whole uploads one after another (2 MiB each: the kill may land in one), and two that stream
      // slowly and are still being written when the server dies.
      const uploads = new Map<string, { sha256: string; size: number; confirmed: boolean }>();
      let uploadSequence = 0;
      const uploader = (async () => {
        while (!stop) {
          const name = `whole-${uploadSequence++}.bin`;
          const bytes = randomBytes(2 * 1024 * 1024);
          uploads.set(name, { sha256: sha256(bytes), size: bytes.length, confirmed: false });
          const form = new FormData();
          form.append('file', new Blob([bytes]), name);
          const response = await fetch(`${base}${MEDIA}/upload`, { method: 'POST', headers: drill, body: form }).catch(
            () => undefined,
          );
          const entry = uploads.get(name);
          if (response?.status === 200 && entry) entry.confirmed = true;
          else await response?.body?.cancel();
        }
      })();
      for (const name of ['slow-1.bin', 'slow-2.bin']) {
        const bytes = randomBytes(8 * 1024 * 1024);
        uploads.set(name, { sha256: sha256(bytes), size: bytes.length, confirmed: false });
        slow.push(slowUpload(`${base}${MEDIA}/upload`, drill, name, bytes));
      }

      // Kill once everything is under way: confirmed writes and uploads, the slow uploads' temporary
      // files on disk, the clean-up started and not done.
      const area = path.join(dataDir, 'projects', 'drill2', 'fileServer');
      const temporaries = async () =>
        (await readdir(area).catch(() => [] as string[])).filter((name) => name.startsWith(MEDIA_TEMP_PREFIX)).length;
      const until = Date.now() + 90_000;
      for (;;) {
        const task = await taskOf();
        const state = {
          documents: confirmedDocs.length,
          uploads: [...uploads.values()].filter((upload) => upload.confirmed).length,
          temporaries: await temporaries(),
          progress: task?.progress ?? 0,
        };
        expect(task?.status, 'the clean-up ended before the kill: more aged records are needed').toBe('ongoing');
        if (state.documents >= 5 && state.uploads >= 1 && state.temporaries >= 2 && state.progress > 0) break;
        expect(Date.now() < until, `the drill did not get under way: ${JSON.stringify(state)}`).toBe(true);
        await sleep(50);
      }
      second.kill('SIGKILL');
      await new Promise((resolve) => second.once('exit', resolve));
      stop = true;
      for (const upload of slow) upload.cancel();
      await Promise.all([...writers, uploader]);

      await startServer(dataDir, port, started);
      console.log(
        `media kill drill: killed ${Date.now() - began} ms in, ${confirmedDocs.length} documents and ${[...uploads.values()].filter((u) => u.confirmed).length} uploads confirmed`,
      );

      // The clean-up that was running is failed, not left ongoing.
      const task = await taskOf();
      expect(task).toMatchObject({ status: 'failed', message: translate(SERVER_STOPPED, 'zh_Hans') });

      // Every confirmed document is there, and every document is whole.
      const stored = await fetch(
        `${base}/portal/rest/core/data_record?query=${encodeURIComponent(JSON.stringify({ limit: 10_000 }))}`,
        { headers: drill },
      );
      expect(stored.status).toBe(200);
      const documents = (await stored.json()) as Array<{ id: string; payload: string; digest: string }>;
      const ids = new Set(documents.map((doc) => doc.id));
      for (const id of confirmedDocs) expect(ids.has(id), id).toBe(true);
      for (const doc of documents) expect(sha256(Buffer.from(doc.payload)), doc.id).toBe(doc.digest);

      // Every upload is there with its exact bytes, or not there at all; no temporary file is listed.
      const tree = await fetch(`${base}${MEDIA}/all/dir?files=true`, { headers: drill });
      expect(tree.status).toBe(200);
      const listed = (await tree.json()) as Array<{ path: string; name: string; type: string; size?: number }>;
      expect(listed.filter((node) => node.name.startsWith(MEDIA_TEMP_PREFIX))).toEqual([]);
      expect(listed.every((node) => node.type === 'file' && uploads.has(node.name))).toBe(true);
      const present = new Set(listed.map((node) => node.name));
      for (const [name, upload] of uploads) {
        if (upload.confirmed) expect(present.has(name), `${name} was confirmed`).toBe(true);
        if (!present.has(name)) continue;
        const file = await fetch(`${base}${MEDIA}/download?path=${encodeURIComponent(name)}`, { headers: drill });
        expect(file.status).toBe(200);
        const bytes = Buffer.from(await file.arrayBuffer());
        expect({ name, size: bytes.length, sha256: sha256(bytes) }).toEqual({
          name,
          size: upload.size,
          sha256: upload.sha256,
        });
      }
      // The slow uploads never completed: they are not in the library.
      expect(present.has('slow-1.bin') || present.has('slow-2.bin')).toBe(false);
    } finally {
      for (const upload of slow) upload.cancel();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
    }
  }, 180_000);
});

const MEDIA = '/portal/rest/spm/proxy/core/mediaLibrary';
/** Ten-day-old data records: enough for the clean-up to run for seconds, in batches of 1,000. */
const AGED_RECORDS = 60_000;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A multipart upload of one file that sends its first MiB and then waits: its temporary file is
 * being written until `cancel`.
 */
function slowUpload(url: string, headers: Record<string, string>, name: string, bytes: Buffer): { cancel: () => void } {
  const boundary = `drill${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  let cancel: () => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      controller.enqueue(bytes.subarray(0, 1024 * 1024));
      cancel = () => {
        try {
          controller.error(new Error('cancelled'));
        } catch {
          // already closed
        }
      };
    },
  });
  fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit).catch(() => undefined);
  return { cancel: () => cancel() };
}
