import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

const PROJECT = 'dbdrill';
const DB = '/portal/rest/db-backup';
const MEDIA = '/portal/rest/spm/proxy/core/mediaLibrary';
const CORE = '/portal/rest/core';
const COLLECTIONS = ['rule', 'data_record', 'message'] as const;
const WHOLE = { fileServer: true, html: true, database: true };

interface State {
  documents: Record<string, unknown[]>;
  files: Record<string, string>;
}
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/**
 * kill -9 of the server during database dumps and restores (issue 13 §1): after each restart no job
 * is left running, the project is not left restoring, no partial dump, staging folder or journal
 * remains, every listed dump is on disk, and the project is wholly one state or the other. Every
 * restore here goes by partition (loaded, indexed, swapped in: GANTRY_OWN_PARTITION_MIN_DOCUMENTS);
 * the project backups' drill covers the staging table.
 */
const SERVER = { logLevel: 'warn', env: { GANTRY_OWN_PARTITION_MIN_DOCUMENTS: '1' } };
describe('database backup kill -9 drill', () => {
  let dir = '';
  const started: ChildProcess[] = [];

  afterAll(() => removeDrill(dir, started, ['.log']));

  it('never leaves a running job, a locked or mixed project, or a partial dump across kill -9', {
    timeout: 600_000,
  }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-dbbackup-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = await startServer(dir, port, started, { ...SERVER, log: `${dir}.log` });
    const drill = await setUpProject(base, { id: PROJECT, name: 'Dump drill' });
    const serverLog = () => readFileSync(`${dir}.log`, 'utf8').split('\n').slice(-30).join('\n');
    const project = drill.call;
    const upload = drill.upload;
    const job = async (id: string) => (await project('GET', `${DB}/${id}`)).body as { status: string; log: string };
    const finished = async (id: string) => {
      const from = Date.now();
      for (;;) {
        const answer = await job(id);
        if (answer.status !== 'running') {
          expect(answer.status, `${answer.log}\n${serverLog()}`).toBe('success');
          return Date.now() - from;
        }
        expect(Date.now() - from, `job ${id} did not finish`).toBeLessThan(60_000);
        await sleep(20);
      }
    };
    const dump = async (name: string) => {
      const response = await project('POST', `${DB}/dump`, { name, item: WHOLE });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body as { id: string }).id;
    };
    const restore = async (id: string) => {
      const response = await project('POST', `${DB}/restore?id=${id}`, WHOLE);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return (response.body as { id: string }).id;
    };
    const mediaRoot = path.join(dir, 'projects', PROJECT, 'fileServer');
    const stateNow = async (): Promise<State> => {
      const documents: Record<string, unknown[]> = {};
      for (const collection of COLLECTIONS) {
        const response = await project('GET', `${CORE}/${collection}?query=${q({ limit: 10_000, sort: { id: 1 } })}`);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        documents[collection] = (response.body as Array<Record<string, unknown>>).map(
          ({ updateTime: _u, ...doc }) => doc,
        );
      }
      return { documents, files: await fileTree(mediaRoot) };
    };

    // State A: 3 collections of 300 documents, 10 media files (two of 1–2 MiB).
    const saves = COLLECTIONS.flatMap((collection) =>
      Array.from(
        { length: 300 },
        (_, i) => () =>
          project('POST', `${CORE}/${collection}`, {
            id: `${collection}-${String(i).padStart(4, '0')}`,
            value: i,
            text: randomBytes(200).toString('base64'),
          }),
      ),
    );
    for (let at = 0; at < saves.length; at += 10) {
      const answers = await Promise.all(saves.slice(at, at + 10).map((save) => save()));
      for (const answer of answers) expect(answer.status).toBe(200);
    }
    expect((await project('POST', `${MEDIA}/dir`, { path: 'docs' })).status).toBe(200);
    for (let i = 0; i < 10; i++)
      await upload(i % 2 ? 'docs' : '', `file-${i}.bin`, randomBytes(i < 2 ? (i + 1) << 20 : 5_000 * i));
    const dumpA = await dump('state A');
    const dumpMs = await finished(dumpA);

    // State B: documents deleted and added, files removed and added.
    for (const collection of COLLECTIONS) {
      for (let i = 0; i < 50; i++) {
        expect(
          (await project('DELETE', `${CORE}/${collection}/${collection}-${String(i).padStart(4, '0')}`)).status,
        ).toBe(200);
      }
      for (let i = 0; i < 20; i++)
        expect((await project('POST', `${CORE}/${collection}`, { id: `${collection}-new-${i}` })).status).toBe(200);
    }
    expect((await project('DELETE', `${MEDIA}?path=file-0.bin`)).status).toBe(200);
    await upload('', 'added.bin', randomBytes(300_000));
    const dumpB = await dump('state B');
    await finished(dumpB);

    const restoreMs = await finished(await restore(dumpA));
    const stateA = await stateNow();
    await finished(await restore(dumpB));
    const stateB = await stateNow();
    expect(stateA).not.toEqual(stateB);
    let current: 'A' | 'B' = 'B';

    const dumpsDir = path.join(dir, 'backups', PROJECT, 'dumps');
    const journalsDir = path.join(dir, 'restore-journals');
    const projectDir = path.join(dir, 'projects', PROJECT);
    // Delays over each job's length (measured once, uninterrupted) and past it: a restarted server is slower.
    const fractions = [0, 0.25, 0.5, 0.75, 1, 1.5, 2.5, 4];
    const rounds = fractions.flatMap((fraction) => [
      { kind: 'dump' as const, fraction },
      { kind: 'restore' as const, fraction },
    ]);
    const outcomes: string[] = [];
    for (const [index, round] of rounds.entries()) {
      const engine = enginePidOf(server.pid ?? 0);
      expect(engine).toBeGreaterThan(0);
      const from: 'A' | 'B' = current;
      const jobId = round.kind === 'dump' ? await dump(`round ${index}`) : await restore(from === 'B' ? dumpA : dumpB);
      await sleep(Math.round(round.fraction * (round.kind === 'dump' ? dumpMs : restoreMs)));
      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      const until = Date.now() + 15_000;
      while (Date.now() < until && isAlive(engine)) await sleep(50);
      expect(isAlive(engine), 'the embedded engine outlived its server').toBe(false);
      server = await startServer(dir, port, started, { ...SERVER, log: `${dir}.log` });

      // The job ended (failed as stopped, or had finished); the project answers its data calls.
      const settle = Date.now() + 60_000;
      let answer = await job(jobId);
      while (answer.status === 'running' && Date.now() < settle) {
        await sleep(100);
        answer = await job(jobId);
      }
      expect(['success', 'failed'], `round ${index}: ${answer.log}`).toContain(answer.status);
      const now = await stateNow();

      // Only whole, listed dumps on disk; no partial dump, staging folder or journal.
      const listed = (await project('GET', `${DB}/backup`)).body as Array<{ id: string }>;
      const onDisk = (await readdir(dumpsDir)).sort();
      expect(onDisk, `round ${index}: ${onDisk.join(' ')} job ${answer.status}: ${answer.log}\n${serverLog()}`).toEqual(
        listed.map((row) => `${row.id}.zip`).sort(),
      );
      expect(
        (await readdir(projectDir)).filter((name) => name.startsWith('.restore-')),
        `round ${index}`,
      ).toEqual([]);
      expect(await readdir(journalsDir).catch(() => [] as string[]), `round ${index}`).toEqual([]);

      const state = sameState(now, stateA) ? 'A' : sameState(now, stateB) ? 'B' : 'mixed';
      expect(state, `round ${index} (${round.kind} at ${round.fraction})`).not.toBe('mixed');
      if (round.kind === 'dump') expect(state).toBe(from);
      if (round.kind === 'restore' && state !== from) expect(answer.status).toBe('success');
      current = state === 'A' ? 'A' : 'B';
      outcomes.push(`${round.kind}@${round.fraction}:${answer.status}:${from}->${current}`);
    }
    // The drill killed some work midway, and some restores had ended before the kill.
    expect(outcomes.some((o) => o.includes(':failed:'))).toBe(true);
    expect(outcomes.some((o) => o.startsWith('restore') && o.includes(':success:'))).toBe(true);
    console.log(`db-backup kill drill (dump ${dumpMs} ms, restore ${restoreMs} ms): ${outcomes.join(', ')}`);
  });
});

function sameState(a: State, b: State): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
