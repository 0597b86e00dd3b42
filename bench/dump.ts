/**
 * Database backup section of `npm run bench` (`npm run bench -- dump`), issue 13 §5, on PostgreSQL (a
 * throwaway cluster, or GANTRY_BENCH_DATABASE_URL):
 *  - a project of about 1 GB of rows (2,000,000 documents of every data module, `npm run demo`);
 *  - a database backup (`POST db-backup/dump`, the whole job: every collection as JSON lines, deflated,
 *    hashed, the zip fsynced) against `pg_dump -Fc -t 'project_documents*'` of the same rows in the same run;
 *  - its restore (`POST db-backup/restore`, the whole job: verifying every entry, loading the project's
 *    next partition and building its indexes, the one transaction that swaps it in), over the rows as dumped and again after every
 *    document changed, against `TRUNCATE` + `pg_restore --data-only` of the same rows straight into the
 *    project's partition (its indexes in place), and against `pg_restore` of a full custom-format dump
 *    of the same rows (table, rows, then key and indexes; issue 33);
 *  - the FTP push of the archive (our FtpStorage, as the dump job uploads it) against `curl -T` of the
 *    same file to the same private vsftpd on loopback, five rounds each, interleaved (the first of each
 *    pair alternating, the disk written back before each), medians compared;
 *  - the server's peak RSS (VmHWM) over the dump and the restore.
 * GANTRY_BENCH_SCALE=0.05 gives a quick run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createFtpStorage } from '../apps/server/src/modules/ftp/ftp-storage.js';
import { startVsftpd } from '../apps/server/src/test/vsftpd.js';
import {
  BENCH_PASSWORD,
  benchPlatform,
  benchScale,
  get,
  goal,
  licenceKey,
  loadAverage,
  login,
  MB,
  median,
  post,
  postOnNewConnection,
  printNotes,
  printTable,
  processesOf,
  ROOT,
  rssMiB,
  type ServerRun,
  scratch,
  sleep,
  startServer,
  stopServer,
} from './lib.js';
import { withPostgres } from './projects.js';

const SCALE = benchScale();
const DOCUMENTS = Math.round(2_000_000 * SCALE);
const PROJECT = 'dp0001';
const FTP_ROUNDS = 5;
/** Rounds of the full pg_restore and of the checked restore's floor, alternated. */
const FULL_ROUNDS = 3;
/** The longest wait for autovacuum before a timed restore. */
const QUIESCE_MS = 120_000;
/** How often a job is asked whether it has ended (its time comes from the server's record). */
const POLL_MS = 250;

/**
 * Waits for a job to end; answers it and how long it took from `began` (Date.now() before the call)
 * to the end the server recorded for its task (`tasks.end_time`, on this machine's one clock). So the
 * polling can be slow: at every 20 ms it cost the server ~10 % of a core during the restore it timed.
 */
async function waitJob(
  server: ServerRun,
  databaseUrl: string,
  headers: Record<string, string>,
  id: string,
  began: number,
) {
  for (;;) {
    const response = await get(`${server.origin}/portal/rest/db-backup/${id}`, headers);
    const job = JSON.parse(response.body) as { status: string; log: string };
    if (job.status !== 'running') {
      const ended = psqlValue(
        databaseUrl,
        `SELECT (extract(epoch FROM end_time) * 1000)::bigint FROM tasks WHERE id = '${id.replaceAll("'", "''")}'`,
      );
      return { ...job, seconds: (ended - began) / 1000 };
    }
    await sleep(POLL_MS);
  }
}

const seconds = (began: number) => (performance.now() - began) / 1000;

/** The one number a query answers. */
const psqlValue = (databaseUrl: string, query: string) =>
  Number(execFileSync('psql', [databaseUrl, '-tA', '-c', query], { encoding: 'utf8' }).trim());

/**
 * Before each timed restore, ours and pg_restore's alike: what earlier steps left to do is done first,
 * so that no restore pays for another's. Autovacuum's workers (the partition a restore swapped in,
 * the rows it moved out of the default one, the UPDATE of every document) are waited for (at most
 * QUIESCE_MS), then what was written is checkpointed.
 */
async function quiesce(databaseUrl: string): Promise<void> {
  const workers = () =>
    psqlValue(databaseUrl, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'");
  for (const until = Date.now() + QUIESCE_MS; workers() > 0 && Date.now() < until; ) await sleep(250);
  execFileSync('psql', [databaseUrl, '-q', '-c', 'CHECKPOINT']);
}

/** Seconds until every one of `commands`, started together, has ended. */
async function timedTogether(commands: Array<[string, string[]]>): Promise<number> {
  const began = performance.now();
  await Promise.all(commands.map(([command, args]) => promisify(execFile)(command, args)));
  return seconds(began);
}

function timed(command: string, args: string[]): number {
  const began = performance.now();
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  return seconds(began);
}

export async function dumpBench(): Promise<void> {
  console.log(`  scale ${SCALE}: ${DOCUMENTS.toLocaleString('en')} documents; load average ${loadAverage()}`);
  await withPostgres(async (databaseUrl) => {
    const dataDir = scratch('dump-data');
    const options = {
      dataDir,
      logFile: `${scratch('dump-log')}/server.log`,
      databaseUrl,
      env: { GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64 },
    };
    let server = await startServer(options);
    const spm = () => `${server.origin}/portal/rest/spm`;
    let token = await benchPlatform(server.origin, BENCH_PASSWORD, PROJECT, 'Dump bench');
    await stopServer(server);
    console.log(`  npm run demo -- --project ${PROJECT} --docs ${DOCUMENTS}…`);
    execFileSync(
      'node',
      ['--import', 'tsx', 'apps/server/src/cli/demo.ts', '--project', PROJECT, '--docs', String(DOCUMENTS)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, GANTRY_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
      },
    );
    execFileSync('psql', [databaseUrl, '-q', '-c', 'VACUUM ANALYZE project_documents']);
    // Partitioned by project (migration 0020): the sizes of its partitions.
    const rowsMB =
      psqlValue(databaseUrl, "SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('project_documents')") /
      MB;

    server = await startServer(options);
    token = await login(spm(), 'admin', BENCH_PASSWORD);
    const headers = {
      authorization: `Bearer ${token}`,
      'x-request-project': PROJECT,
      'content-type': 'application/json',
    };
    const { server: serverPid } = processesOf(server);
    // The server's RSS sampled every 200 ms, its highest per phase (VmHWM gives only the whole run's).
    const phasePeaks = new Map<string, number>();
    let phase = 'dump';
    const sampler = setInterval(() => {
      phasePeaks.set(phase, Math.max(phasePeaks.get(phase) ?? 0, rssMiB(serverPid)));
    }, 200);

    // Ours: the dump job, then pg_dump of the same rows.
    const dumpBegan = Date.now();
    const started = await post(
      `${server.origin}/portal/rest/db-backup/dump`,
      { name: 'bench', item: { fileServer: true, html: true, database: true } },
      headers,
    );
    if (!started.ok) throw new Error(`dump ${started.status}: ${await started.text()}`);
    const { id: dumpId } = (await started.json()) as { id: string };
    const dumped = await waitJob(server, databaseUrl, headers, dumpId, dumpBegan);
    const dumpSeconds = dumped.seconds;
    if (dumped.status !== 'success') throw new Error(`dump ${dumped.status}: ${dumped.log}`);
    const archive = path.join(dataDir, 'backups', PROJECT, 'dumps', `${dumpId}.zip`);
    const archiveMB = statSync(archive).size / MB;
    const pgDumpFile = path.join(scratch('dump-pg'), 'rows.dump');
    rmSync(pgDumpFile, { force: true });
    // The table and its partitions (`project_documents*`), their rows written to be loaded through the
    // partitioned table (each row then goes to its project's partition, as ours).
    const pgDumpSeconds = timed('pg_dump', [
      '-Fc',
      '--load-via-partition-root',
      '-t',
      'project_documents*',
      '-f',
      pgDumpFile,
      databaseUrl,
    ]);
    const pgDumpMB = statSync(pgDumpFile).size / MB;

    // Ours: the restore job (the project's whole database), twice: over the rows as they were dumped
    // (a restore writes only what differs), then after every document changed (each one rewritten).
    const restoreJob = async () => {
      await quiesce(databaseUrl);
      const began = Date.now();
      const restoring = await postOnNewConnection(
        `${server.origin}/portal/rest/db-backup/restore?id=${encodeURIComponent(dumpId)}`,
        { database: true },
        headers,
      );
      if (!restoring.ok) throw new Error(`restore ${restoring.status}: ${await restoring.text()}`);
      const job = await waitJob(server, databaseUrl, headers, ((await restoring.json()) as { id: string }).id, began);
      if (job.status !== 'success') throw new Error(`restore ${job.status}: ${job.log}`);
      return { seconds: job.seconds, log: job.log };
    };
    phase = 'restore over the rows as dumped';
    const restored = await restoreJob();
    const restoreSeconds = restored.seconds;
    execFileSync('psql', [
      databaseUrl,
      '-q',
      '-c',
      `UPDATE project_documents SET doc = doc || '{"benchChanged": true}' WHERE project_id = '${PROJECT}'`,
      '-c',
      'VACUUM ANALYZE project_documents',
    ]);
    phase = 'restore after every document changed';
    const changed = await restoreJob();
    const changedSeconds = changed.seconds;
    const changedLeft = psqlValue(databaseUrl, `SELECT count(*) FROM project_documents WHERE doc ? 'benchChanged'`);
    if (changedLeft !== 0) throw new Error(`the restore left ${changedLeft} changed documents`);
    const peak = rssMiB(serverPid, 'VmHWM');
    clearInterval(sampler);
    await stopServer(server);
    // The baseline: the same rows loaded by pg_restore straight into the project's partition (our
    // restores made it), its indexes in place: COPY's batched inserts. Through the partitioned table
    // (the dump above, rows routed) PostgreSQL inserts row by row, because of the totals' statement
    // triggers with transition tables on it: slower, shown for reference only.
    const own = `project_documents_p_${createHash('md5').update(PROJECT).digest('hex')}`;
    const partitionDump = path.join(scratch('dump-pg'), 'partition.dump');
    rmSync(partitionDump, { force: true });
    execFileSync('pg_dump', ['-Fc', '-t', own, '-f', partitionDump, databaseUrl]);
    const pgRestore = async (dumpFile: string, table: string) => {
      await quiesce(databaseUrl);
      const began = performance.now();
      execFileSync('psql', [databaseUrl, '-q', '-c', `TRUNCATE ${table}`]);
      execFileSync('pg_restore', ['--data-only', '-d', databaseUrl, dumpFile], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      return seconds(began);
    };
    const pgRestoreSeconds = await pgRestore(partitionDump, own);
    const pgRestoreRootSeconds = await pgRestore(pgDumpFile, 'project_documents');
    // Issue 33's baseline: pg_restore of a full custom-format dump of the same documents (the table,
    // its rows, then its key and indexes), as an operator restores a table into an empty database. The
    // rows go into a table of their own shaped like the partition (LIKE … INCLUDING ALL: key, indexes,
    // defaults), dumped whole, dropped, then restored.
    const FULL = 'bench_full_restore';
    const fullDump = path.join(scratch('dump-pg'), 'full.dump');
    rmSync(fullDump, { force: true });
    execFileSync('psql', [
      databaseUrl,
      '-q',
      '-c',
      `DROP TABLE IF EXISTS ${FULL}`,
      '-c',
      `CREATE TABLE ${FULL} (LIKE ${own} INCLUDING ALL)`,
      '-c',
      `INSERT INTO ${FULL} SELECT * FROM ${own}`,
    ]);
    execFileSync('pg_dump', ['-Fc', '-t', FULL, '-f', fullDump, databaseUrl]);
    execFileSync('psql', [databaseUrl, '-q', '-c', `DROP TABLE ${FULL}`]);
    // The floor of a restore that checks its archive before it commits (ours must: a bad entry loses
    // nothing): pg_restore's own work with the least checking our archive needs beside it (every entry
    // inflated and its CRC checked by unzip, every byte hashed by sha256sum), both at once on the same
    // cores, as if the checking cost the restore nothing but CPU. The two alternate, FULL_ROUNDS each.
    const fullRestore: number[] = [];
    const floor: number[] = [];
    /** One timed restore of the full dump, its table dropped after. */
    const restoreFullDump = async (into: number[], time: () => Promise<number>) => {
      await quiesce(databaseUrl);
      into.push(await time());
      execFileSync('psql', [databaseUrl, '-q', '-c', `DROP TABLE ${FULL}`]);
    };
    const restoreFull = () =>
      restoreFullDump(fullRestore, async () => timed('pg_restore', ['-d', databaseUrl, fullDump]));
    const restoreFloor = () =>
      restoreFullDump(floor, () =>
        timedTogether([
          ['pg_restore', ['-d', databaseUrl, fullDump]],
          ['bash', ['-c', 'set -o pipefail; unzip -p "$1" | sha256sum > /dev/null', 'floor', archive]],
        ]),
      );
    for (let round = 0; round < FULL_ROUNDS; round++) {
      for (const restore of round % 2 === 0 ? [restoreFull, restoreFloor] : [restoreFloor, restoreFull])
        await restore();
    }
    const pgFullSeconds = median(fullRestore);
    const floorSeconds = median(floor);

    // FTP push of the archive: ours and curl -T, five rounds each, interleaved, the first of each
    // pair alternating; written-back disk before each (vsftpd's writes of the previous upload
    // otherwise throttle the next, whichever it is).
    const ftp = await startVsftpd();
    const push: number[] = [];
    const curl: number[] = [];
    try {
      const connection = ftp.connection();
      const storage = createFtpStorage({ settings: { connection: async () => connection } });
      const ours = async (round: number) => {
        execFileSync('sync');
        const began = performance.now();
        await storage.push(archive, `ours-${round}.zip`);
        push.push(seconds(began));
      };
      const theirs = (round: number) => {
        execFileSync('sync');
        const url = `ftp://${connection.host}:${connection.port}${connection.remoteFolder}/curl-${round}.zip`;
        curl.push(
          timed('curl', [
            '-sS',
            '--ftp-create-dirs',
            '-u',
            `${connection.user}:${connection.password}`,
            '-T',
            archive,
            url,
          ]),
        );
      };
      for (let round = 0; round < FTP_ROUNDS; round++) {
        if (round % 2 === 0) {
          await ours(round);
          theirs(round);
        } else {
          theirs(round);
          await ours(round);
        }
      }
    } finally {
      await ftp.stop();
    }

    const dumpRatio = pgDumpSeconds / dumpSeconds;
    const restoreRatio = pgRestoreSeconds / restoreSeconds;
    const changedRatio = pgRestoreSeconds / changedSeconds;
    const fullRatio = pgFullSeconds / changedSeconds;
    const floorRatio = pgFullSeconds / floorSeconds;
    const medianPush = median(push);
    const medianCurl = median(curl);
    const ftpRatio = medianCurl / medianPush;
    printTable(
      ['what', 'ours', 'baseline', 'ratio (baseline time ÷ ours)'],
      [
        [
          `dump: ${DOCUMENTS.toLocaleString('en')} rows (${rowsMB.toFixed(0)} MB in the table with its indexes)`,
          `${dumpSeconds.toFixed(1)} s, archive ${archiveMB.toFixed(0)} MB`,
          `pg_dump -Fc ${pgDumpSeconds.toFixed(1)} s, ${pgDumpMB.toFixed(0)} MB`,
          `${dumpRatio.toFixed(2)} ${goal('database dump ÷ pg_dump', '≥ 0.8', dumpRatio.toFixed(2), dumpRatio >= 0.8)}`,
        ],
        [
          'restore of that dump, over the rows as dumped',
          `${restoreSeconds.toFixed(1)} s`,
          `TRUNCATE + pg_restore --data-only into the partition ${pgRestoreSeconds.toFixed(1)} s (through the partitioned table ${pgRestoreRootSeconds.toFixed(1)} s)`,
          `${restoreRatio.toFixed(2)}`,
        ],
        [
          'restore of that dump, after every document changed',
          `${changedSeconds.toFixed(1)} s`,
          'the same',
          `${changedRatio.toFixed(2)} ${goal('database restore ÷ pg_restore (every document changed)', '≥ 0.8', changedRatio.toFixed(2), changedRatio >= 0.8)}`,
        ],
        [
          'restore after every document changed, against a full restore',
          `${changedSeconds.toFixed(1)} s`,
          `pg_restore of a full pg_dump -Fc of the same rows (table, rows, key and indexes) ${pgFullSeconds.toFixed(1)} s (median of ${fullRestore.map((s) => s.toFixed(1)).join(', ')})`,
          `${fullRatio.toFixed(2)} ${goal('database restore ÷ full pg_restore (PostgreSQL)', '≥ 1.0', fullRatio.toFixed(2), fullRatio >= 1)}`,
        ],
        [
          'the floor of a checked restore, against the same full restore',
          `${floorSeconds.toFixed(1)} s (median of ${floor.map((s) => s.toFixed(1)).join(', ')}): that pg_restore with unzip -p | sha256sum of our archive beside it; ours ÷ floor ${(floorSeconds / changedSeconds).toFixed(2)}`,
          `${pgFullSeconds.toFixed(1)} s`,
          floorRatio.toFixed(2),
        ],
        [
          `FTP push of the archive (${archiveMB.toFixed(0)} MB)`,
          `${(archiveMB / medianPush).toFixed(0)} MB/s (median of ${push.map((s) => s.toFixed(2)).join(', ')} s)`,
          `curl -T ${(archiveMB / medianCurl).toFixed(0)} MB/s (median of ${curl.map((s) => s.toFixed(2)).join(', ')} s)`,
          `${ftpRatio.toFixed(2)} ${goal('FTP push ÷ curl -T', '≥ 0.8', ftpRatio.toFixed(2), ftpRatio >= 0.8)}`,
        ],
        [
          'server peak RSS over dump and restore',
          `${peak.toFixed(0)} MiB (sampled: ${[...phasePeaks].map(([name, mib]) => `${name} ${mib.toFixed(0)}`).join(', ')})`,
          '',
          goal('server peak RSS (dump, restore)', '< 286 MiB (300 MB)', `${peak.toFixed(0)} MiB`, peak < 286),
        ],
      ],
    );
    console.log(`  dump job log:\n${dumped.log.trim().replace(/^/gm, '    ')}`);
    console.log(`  restore job log (rows as dumped):\n${restored.log.trim().replace(/^/gm, '    ')}`);
    console.log(`  restore job log (every document changed):\n${changed.log.trim().replace(/^/gm, '    ')}`);
    printNotes([
      "ours: from the call to the job's end as the server recorded it (its task's end_time; the job polled every 250 ms: at 20 ms the polling cost the server ~10 % of a core during the restore it timed); the server runs as users run it (npm start, NODE_ENV=production, default logging to a file)",
      "dump: our job writes every collection as JSON lines (built by PostgreSQL, each collection read by one COPY), deflates them, hashes every entry and fsyncs the zip; pg_dump -Fc writes the same table's rows compressed (its default level)",
      "restore: our job verifies every entry, loads every line into a new table (the project's next partition), builds its key, indexes and foreign key, and swaps it in in one transaction (the first restore also deletes the project's rows from the default partition there): first over the rows as dumped, then after an UPDATE changed every document (and VACUUM); the goal is judged on the second. The baseline empties the project's partition and loads a pg_dump of it straight into it (its indexes in place; COPY batches its inserts); loading through the partitioned table, shown in brackets, is slower (COPY inserts row by row into a partitioned table with statement triggers that have transition tables, which the totals use). The full restore (issue 33) is pg_restore of a custom-format dump of a table shaped like the partition (LIKE … INCLUDING ALL) holding the same rows: it creates the table, loads the rows, then builds the key and indexes; the floor runs it with unzip -p | sha256sum of our archive beside it (the least checking our archive needs), the two alternated three times each. Every timed restore, ours and pg_restore's, starts once no autovacuum worker runs (at most 2 min) and after a CHECKPOINT",
      'FTP: our FtpStorage.push (as the dump job uploads: a .part file, size checked, renamed) and curl -T to a private vsftpd on 127.0.0.1, five rounds each, interleaved with the first of each pair alternating, `sync` before each; the medians compared. Most of our extra time is this process reading the file into fresh 1 MiB buffers: touching fresh memory costs about 4.7 ms per MiB on this machine (docs/DECISIONS.md, FTP storage)',
    ]);
  });
}
