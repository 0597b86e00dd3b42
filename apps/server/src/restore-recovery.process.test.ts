import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TRASH_FOLDER } from './lib/trash.js';
import { fileTree } from './test/file-tree.js';
import {
  call,
  enginePidOf,
  freePort,
  isAlive,
  MEDIA_URL,
  removeDrill,
  setUpProject,
  sleep,
  startServer,
  stopServer,
} from './test/server-process.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const PROJECT = 'rrecov';
const MEDIA = MEDIA_URL;
/** The interrupted restore: its journal written, its data never committed (no record): rolled back. */
const RESTORE = 'interrupted-restore';
/** A restore killed while it staged (no journal yet). */
const STRAY = 'stray-restore';
const FOLDERS = 100;
const FILES_PER_FOLDER = 1_000;
const ROUNDS = 10;
/** Every start answers /healthz within this. */
const HEALTHY_MS = 15_000;

/**
 * Issue 30 item 3: recovery never holds up a start. The state a kill -9 leaves in a restore of
 * 100,000 staged files (its journal, its staging folder; and a second restore killed while staging),
 * then 10 starts each killed at a different moment of the background removal: every start answers
 * /healthz within 15 s, and the journal's decision (roll back: the project's files as they were) is
 * taken before the server listens. Left to run, the last start removes every leftover.
 */
describe('restore recovery after kill -9', () => {
  let dir = '';
  const started: ChildProcess[] = [];

  afterAll(() => removeDrill(dir, started, ['.log', '-seed']));

  it('starts healthy within 15 s across kill -9 during the removal of 100,000 staged files, then removes them all', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-restore-recovery-'));
    const log = `${dir}.log`;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;

    // A project with a few media files: what the rolled-back restore must leave as it is.
    let server = await startServer(dir, port, started, { logLevel: 'error', log });
    const drill = await setUpProject(base, { id: PROJECT, name: 'Restore recovery' });
    const { token, headers } = drill;
    expect((await drill.call('POST', `${MEDIA}/dir`, { path: 'docs' })).status).toBe(200);
    await drill.upload('', 'a.bin', randomBytes(50_000));
    await drill.upload('docs', 'b.bin', randomBytes(50_000));
    const projectDir = path.join(dir, 'projects', PROJECT);
    const before = await fileTree(path.join(projectDir, 'fileServer'));
    expect(Object.keys(before)).toHaveLength(3);
    await stopServer(server);

    // What the killed restore left, laid out as applyRestore stages: files extracted under the
    // staging folder beside the project's areas, the journal written (the data not yet committed).
    // The files are hard links of a few seeds: 100,000 directory entries, made in a few seconds.
    const making = performance.now();
    const seeds = `${dir}-seed`;
    mkdirSync(seeds);
    const seedFiles = Array.from({ length: 10 }, (_, i) => path.join(seeds, `seed-${i}`));
    for (const seed of seedFiles) await writeFile(seed, randomBytes(4_096));
    const staging = path.join(projectDir, `.restore-${RESTORE}`, 'fileServer');
    for (let folder = 0; folder < FOLDERS; folder++) {
      const into = path.join(staging, `folder-${folder}`);
      mkdirSync(into, { recursive: true });
      for (let i = 0; i < FILES_PER_FOLDER; i++) {
        linkSync(seedFiles[i % seedFiles.length] as string, path.join(into, `file-${i}.bin`));
      }
    }
    await mkdir(path.join(dir, 'restore-journals'), { recursive: true });
    await writeFile(
      path.join(dir, 'restore-journals', `${RESTORE}.json`),
      JSON.stringify({ restoreId: RESTORE, projectId: PROJECT, kinds: ['fileServer'] }),
    );
    const stray = path.join(projectDir, `.restore-${STRAY}`, 'fileServer', 'docs');
    await mkdir(stray, { recursive: true });
    for (let i = 0; i < 100; i++) linkSync(seedFiles[0] as string, path.join(stray, `part-${i}.bin`));
    const makeMs = Math.round(performance.now() - making);
    const total = FOLDERS * FILES_PER_FOLDER + 100;

    const trash = path.join(dir, TRASH_FOLDER);
    /** Files left in the trash (its leftovers are two folder levels deep at most, then files). */
    const remaining = async (): Promise<number> => countFiles(trash);
    const lines = () => readFileSync(log, 'utf8').split('\n');
    const count = (message: string) => lines().filter((line) => line.includes(`"msg":"${message}"`)).length;

    const rounds: string[] = [];
    let left = total;
    let killedDuring = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const emptying = count('emptying the restore trash');
      const emptied = count('restore trash emptied');
      const spawned = performance.now();
      server = spawnServer(dir, port, log, started);
      const healthyMs = await healthy(base, server, spawned);
      expect(healthyMs, `round ${round}: /healthz within 15 s`).toBeLessThan(HEALTHY_MS);
      // The journal's decision was taken before the server listened: nothing of either restore is
      // left beside the project's areas, and the journal is gone.
      expect((await readdir(projectDir)).sort(), `round ${round}`).toEqual(['fileServer']);
      expect(await readdir(path.join(dir, 'restore-journals')), `round ${round}`).toEqual([]);
      // A moment into the background removal (its start logged), different each round: kill -9.
      const until = Date.now() + HEALTHY_MS;
      while (count('emptying the restore trash') === emptying && Date.now() < until) await sleep(5);
      expect(count('emptying the restore trash'), `round ${round}: the removal started`).toBe(emptying + 1);
      const delay = round * 15;
      await sleep(delay);
      const engine = enginePidOf(server.pid ?? 0);
      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
      const gone = Date.now() + 15_000;
      while (engine > 0 && isAlive(engine) && Date.now() < gone) await sleep(50);
      const finished = count('restore trash emptied') > emptied;
      const now = await remaining();
      expect(now, `round ${round}: the trash only shrinks`).toBeLessThanOrEqual(left);
      left = now;
      if (!finished && now > 0) killedDuring++;
      rounds.push(`${healthyMs}ms+${delay}ms:${now}`);
    }
    // The kills landed in the removal (it was under way and files were left for the next start).
    const summary = `made ${total} in ${makeMs} ms; rounds (healthy + kill delay: files left) ${rounds.join(' ')}`;
    expect(killedDuring, summary).toBeGreaterThanOrEqual(ROUNDS / 2);
    expect(left, summary).toBeLessThan(total);

    // Left to run, the next start removes the rest; the project's files are as they were.
    const lastEmptied = count('restore trash emptied');
    const spawned = performance.now();
    server = spawnServer(dir, port, log, started);
    expect(await healthy(base, server, spawned)).toBeLessThan(HEALTHY_MS);
    const until = Date.now() + 60_000;
    while (count('restore trash emptied') === lastEmptied && Date.now() < until) await sleep(50);
    const done = lines().findLast((line) => line.includes('"msg":"restore trash emptied"'));
    expect(count('restore trash emptied'), summary).toBe(lastEmptied + 1);
    expect(await readdir(trash)).toEqual([]);
    expect((await readdir(projectDir)).sort()).toEqual(['fileServer']);
    expect(await fileTree(path.join(projectDir, 'fileServer'))).toEqual(before);
    const listed = await call(base, 'GET', `${MEDIA}/all/dir?files=true`, undefined, token, headers);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(JSON.stringify(listed.body)).toContain('b.bin');
    await stopServer(server);
    console.log(`restore recovery: ${summary}; last: ${done ?? ''}`);
  }, 180_000);
});

/** A server process started on `dir` with its info log appended to `log`; not waited for. */
function spawnServer(dir: string, port: number, log: string, started: ChildProcess[]): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      GANTRY_DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', openSync(log, 'a'), 'inherit'],
  });
  started.push(child);
  return child;
}

/** Milliseconds from `spawned` to the first 200 of /healthz (HEALTHY_MS and more when never). */
async function healthy(base: string, child: ChildProcess, spawned: number): Promise<number> {
  while (performance.now() - spawned < HEALTHY_MS + 5_000) {
    const response = await fetch(`${base}/healthz`).catch(() => undefined);
    if (response?.status === 200) return Math.round(performance.now() - spawned);
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await sleep(25);
  }
  return HEALTHY_MS + 5_000;
}

async function countFiles(folder: string): Promise<number> {
  let files = 0;
  const walk = async (at: string) => {
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) await walk(path.join(at, entry.name));
      else files++;
    }
  };
  await walk(folder);
  return files;
}
