import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveReader } from './lib/archive/archive-reader.js';
import { verifyArchive } from './modules/backups/backup-archive.js';
import { fileTree } from './test/file-tree.js';
import {
  enginePidOf,
  freePort,
  isAlive,
  removeDrill,
  setUpProject,
  sleep,
  startServer,
} from './test/server-process.js';

const PROJECT = 'bdrill';
const BACKUP = '/portal/rest/spm/proxy/core/backup';
const MEDIA = '/portal/rest/spm/proxy/core/mediaLibrary';
const TASKS = '/portal/rest/spm/proxy/core/taskmanager';
const CORE = '/portal/rest/core';
/** The restored modules (none brings a linked module along), each restored with "clear then add". */
const MODULES = ['rule', 'cron', 'message'] as const;
const DOCUMENTS_PER_MODULE = 200;
const ITEM = { fileServer: true, html: false, mongodb: true };

interface State {
  documents: Record<string, unknown[]>;
  files: Record<string, string>;
}
type Round = {
  kind: 'export' | 'restore';
  at: { fraction: number } | { event: 'staging' | 'journal' | 'swap' | 'renamed' };
};

/**
 * kill -9 of the server during backups and restores (issue 12 §6): after each restart no task is
 * left ongoing, the list shows only whole archives, no partial archive, staging folder or journal
 * remains, and the project is wholly one state or the other, never a mix.
 */
describe('backup kill -9 drill', () => {
  let dir = '';
  const started: ChildProcess[] = [];

  afterAll(() => removeDrill(dir, started, ['.log']));

  it('never leaves a mixed project, a stuck task or a partial archive across kill -9 during backups and restores', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-backup-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(dir, port, started, { logLevel: 'error', log: `${dir}.log` });
    const drill = await setUpProject(base, { id: PROJECT, name: 'Backup drill' });
    const { headers } = drill;
    const serverLog = () => readFileSync(`${dir}.log`, 'utf8').split('\n').slice(-30).join('\n');
    const project = drill.call;
    const upload = drill.upload;

    // State A: 3 modules of 300 documents, 20 media files (three of 1–4 MiB) in a few folders.
    await parallel(
      MODULES.flatMap((module) =>
        Array.from({ length: DOCUMENTS_PER_MODULE }, (_, i) => async () => {
          const response = await project('POST', `${CORE}/${module}`, {
            id: `${module}-${String(i).padStart(4, '0')}`,
            name: `${module} ${i}`,
            value: i,
            text: randomBytes(300).toString('base64'),
          });
          expect(response.status, JSON.stringify(response.body)).toBe(200);
        }),
      ),
      8,
    );
    for (const folder of ['', 'docs', 'docs/deep', 'images']) {
      if (folder) expect((await project('POST', `${MEDIA}/dir`, { path: folder })).status).toBe(200);
    }
    const big = [1, 2, 4];
    for (let i = 0; i < 20; i++) {
      const folder = ['', 'docs', 'docs/deep', 'images'][i % 4] as string;
      const size = i < big.length ? (big[i] as number) * 1024 * 1024 : 2_000 + i * 5_000;
      await upload(folder, `file-${i}.bin`, randomBytes(size));
    }
    const exportOf = async (name: string) => {
      const query = { name, item: ITEM, moduleRules: Object.fromEntries(MODULES.map((m) => [m, 0])), excludedDirs: [] };
      const response = await fetch(`${base}${BACKUP}/export?query=${q(query)}`, { headers });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { id: string }).id;
    };
    const restoreOf = async (id: string) => {
      const query = {
        id,
        name: `restore ${id}`,
        item: ITEM,
        moduleRules: Object.fromEntries(MODULES.map((m) => [m, 2])),
      };
      const response = await fetch(`${base}${BACKUP}/import?query=${q(query)}`, { headers });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { id: string }).id;
    };
    const taskOf = async (id: string) => {
      const response = await fetch(`${base}${TASKS}/${id}`, { headers });
      expect(response.status).toBe(200);
      return (await response.json()) as { status: string; message: string | null; log: string };
    };
    const finished = async (id: string) => {
      const from = Date.now();
      for (;;) {
        const task = await taskOf(id);
        if (task.status !== 'ongoing') {
          expect(task.status, `${task.message}\n${task.log}\n${serverLog()}`).toBe('success');
          return Date.now() - from;
        }
        expect(Date.now() - from, `task ${id} did not finish`).toBeLessThan(60_000);
        await sleep(20);
      }
    };
    const mediaRoot = path.join(dir, 'projects', PROJECT, 'fileServer');
    const stateNow = async (): Promise<State> => {
      const documents: Record<string, unknown[]> = {};
      for (const module of MODULES) {
        const response = await fetch(`${base}${CORE}/${module}?query=${q({ limit: 10_000, sort: { id: 1 } })}`, {
          headers,
        });
        expect(response.status).toBe(200);
        // A restore writes documents as the archive has them; updateTime is when they were stored here.
        documents[module] = ((await response.json()) as Array<Record<string, unknown>>).map(
          ({ updateTime: _u, ...doc }) => doc,
        );
      }
      return { documents, files: await fileTree(mediaRoot) };
    };

    const backupA = await exportOf('state A');
    const exportMs = await finished(backupA);

    // State B: documents deleted, changed and added in every module; files removed, replaced, added.
    for (const module of MODULES) {
      for (let i = 0; i < 40; i++) {
        const id = `${module}-${String(i).padStart(4, '0')}`;
        expect((await project('DELETE', `${CORE}/${module}/${id}`)).status).toBe(200);
      }
      for (let i = 40; i < 80; i++) {
        const id = `${module}-${String(i).padStart(4, '0')}`;
        expect((await project('PATCH', `${CORE}/${module}/${id}`, { value: -i, changed: true })).status).toBe(200);
      }
      for (let i = 0; i < 30; i++) {
        expect((await project('POST', `${CORE}/${module}`, { id: `${module}-new-${i}`, value: i })).status).toBe(200);
      }
    }
    for (const name of ['file-0.bin', 'images/file-3.bin', 'docs/file-5.bin']) {
      expect((await project('DELETE', `${MEDIA}?path=${encodeURIComponent(name)}`)).status).toBe(200);
    }
    await upload('', 'file-0.bin', randomBytes(1024 * 1024));
    expect((await project('POST', `${MEDIA}/dir`, { path: 'extra' })).status).toBe(200);
    await upload('extra', 'added-1.bin', randomBytes(500_000));
    await upload('docs', 'added-2.bin', randomBytes(70_000));
    const backupB = await exportOf('state B');
    await finished(backupB);

    // One uninterrupted restore of each, measured; the states are what a whole restore leaves.
    const restoreMs = await finished(await restoreOf(backupA));
    const stateA = await stateNow();
    await finished(await restoreOf(backupB));
    const stateB = await stateNow();
    expect(stateA).not.toEqual(stateB);
    expect(stateB.documents.rule).toHaveLength(DOCUMENTS_PER_MODULE - 40 + 30);
    let current: 'A' | 'B' = 'B';

    // The rounds: delays spread over each task's length (and past it), and kills at the moments
    // the restore's journal appears (data about to commit, files about to swap) and the export's
    // archive takes its final name (its record not yet inserted).
    const fractions = [0, 0.1, 0.25, 0.4, 0.55, 0.7, 0.82, 0.92, 1, 1.15];
    const rounds: Round[] = [];
    for (const fraction of fractions) {
      rounds.push({ kind: 'export', at: { fraction } }, { kind: 'restore', at: { fraction } });
    }
    rounds.push(
      { kind: 'restore', at: { event: 'staging' } },
      { kind: 'restore', at: { event: 'journal' } },
      { kind: 'restore', at: { event: 'swap' } },
      { kind: 'export', at: { event: 'renamed' } },
    );
    const verified = new Map<string, number>();
    const backupsDir = path.join(dir, 'backups', PROJECT);
    const journalsDir = path.join(dir, 'restore-journals');
    const projectDir = path.join(dir, 'projects', PROJECT);
    const outcomes: string[] = [];
    for (const [index, round] of rounds.entries()) {
      const engine = enginePidOf(server.pid ?? 0);
      expect(engine).toBeGreaterThan(0);
      const from = current;
      const taskId =
        round.kind === 'export' ? await exportOf(`round ${index}`) : await restoreOf(from === 'B' ? backupA : backupB);
      let waited = 0;
      if ('fraction' in round.at) {
        waited = Math.round(round.at.fraction * (round.kind === 'export' ? exportMs : restoreMs));
        await sleep(waited);
      } else {
        const event = round.at.event;
        const begin = Date.now();
        const happened = async () =>
          event === 'journal'
            ? (await readdir(journalsDir).catch(() => [] as string[])).some((name) => name.endsWith('.json'))
            : event === 'swap'
              ? (await readdir(projectDir)).some(
                  (name) => name.startsWith('.restore-') && swapping(path.join(projectDir, name)),
                )
              : event === 'staging'
                ? (await readdir(projectDir)).some((name) => name.startsWith('.restore-'))
                : (await readdir(backupsDir)).includes(`${taskId}.zip`);
        while (!(await happened()) && Date.now() - begin < 30_000) await sleep(1);
        waited = Date.now() - begin;
      }
      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      const until = Date.now() + 15_000;
      while (Date.now() < until && isAlive(engine)) await sleep(50);
      expect(isAlive(engine), 'the embedded engine outlived its server').toBe(false);
      // What the killed server left, for the recovery to finish or drop.
      const left = [
        ...(await readdir(backupsDir)).filter((name) => name.startsWith('.partial-')).map(() => 'partial'),
        ...(await readdir(projectDir)).filter((name) => name.startsWith('.restore-')).map(() => 'staging'),
        ...(await readdir(journalsDir).catch(() => [] as string[])).map(() => 'journal'),
      ];
      server = await startServer(dir, port, started, { logLevel: 'error', log: `${dir}.log` });

      // No task is stuck: the killed one is failed, or (never claimed) claimed again and run to its end.
      const ongoing = async () => {
        const response = await fetch(`${base}${TASKS}?query=${q({ filter: { status: 'ongoing' }, limit: 100 })}`, {
          headers,
        });
        expect(response.status).toBe(200);
        return (await response.json()) as Array<{ id: string }>;
      };
      const settle = Date.now() + 90_000;
      let running = await ongoing();
      while (running.length > 0 && Date.now() < settle) {
        expect(
          running.map((t) => t.id),
          `round ${index}: only the round's task may still run`,
        ).toEqual([taskId]);
        await sleep(100);
        running = await ongoing();
      }
      expect(running, `round ${index}`).toEqual([]);
      const task = await taskOf(taskId);
      expect(['success', 'failed']).toContain(task.status);

      // The list shows only whole archives; no partial archive, staging folder or journal remains.
      const listed = await fetch(`${base}${BACKUP}?query=${q({ withCount: true, limit: 1000 })}`, { headers });
      expect(listed.status).toBe(200);
      const records = (await listed.json()) as Array<{ id: string; type: string; file: string | null }>;
      expect(Number(listed.headers.get('count'))).toBe(records.length);
      for (const record of records) {
        if (record.type === 'import') continue;
        expect(record.file, record.id).toBeTruthy();
        const file = path.join(backupsDir, record.file as string);
        const { size } = await stat(file);
        if (verified.get(record.id) === size) continue;
        const reader = await ArchiveReader.open(file);
        try {
          await verifyArchive(reader);
        } finally {
          await reader.close();
        }
        verified.set(record.id, size);
      }
      const archives = await readdir(backupsDir);
      expect(
        archives.filter((name) => name.startsWith('.partial-')),
        `round ${index}`,
      ).toEqual([]);
      expect(archives.sort()).toEqual(
        records
          .filter((record) => record.file)
          .map((record) => record.file)
          .sort(),
      );
      expect(
        (await readdir(projectDir)).filter((name) => name.startsWith('.restore-')),
        `round ${index}`,
      ).toEqual([]);
      expect(await readdir(journalsDir).catch(() => [] as string[]), `round ${index}`).toEqual([]);

      // Wholly one state or the other; an export never changes it, a restore only as a whole.
      const now = await stateNow();
      const state = sameState(now, stateA) ? 'A' : sameState(now, stateB) ? 'B' : 'mixed';
      expect(state, `round ${index} (${round.kind} at ${JSON.stringify(round.at)}, ${waited} ms)`).not.toBe('mixed');
      if (round.kind === 'export') expect(state).toBe(from);
      // A restore changed the project only as a whole, and then its record is listed (its data committed).
      if (round.kind === 'restore' && state !== from) {
        expect(records.map((record) => record.id)).toContain(taskId);
      }
      if (task.status === 'success' && round.kind === 'restore') expect(state).not.toBe(from);
      current = state as 'A' | 'B';
      outcomes.push(
        `${round.kind}@${waited}ms:${task.status}${round.kind === 'restore' ? `:${from}->${current}` : ''}[${[...new Set(left)].join(',')}]`,
      );
    }
    // The drill covered both outcomes of each kind (killed, and finished before the kill).
    const summary = outcomes.join(' ');
    expect(summary, summary).toMatch(/export@\d+ms:failed/);
    expect(summary, summary).toMatch(/restore@\d+ms:failed/);
    expect(summary, summary).toMatch(/restore@\d+ms:success/);
    // The kills landed in the work: a partial archive, a staging folder and a journal were each left.
    expect(summary, summary).toMatch(/\[[^\]]*partial/);
    expect(summary, summary).toMatch(/\[[^\]]*staging/);
    expect(summary, summary).toMatch(/\[[^\]]*journal/);
    console.log(`backup kill drill: ${summary}`);
  }, 900_000);
});

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const _sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Whether a restore's staging folder holds a live area set aside (the swap is under way). */
function swapping(staging: string): boolean {
  try {
    return readdirSync(staging).some((name) => name.startsWith('old-'));
  } catch {
    return false;
  }
}

function sameState(a: State, b: State): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function parallel(jobs: Array<() => Promise<void>>, width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) await (jobs[next++] as () => Promise<void>)();
    }),
  );
}
