/**
 * hostile (issue 30 "Done when"): ten hostile-manifest archives uploaded at once to the project backup
 * upload of a real server (npm start, PGlite): each a zip of a few hundred KB whose manifest.json
 * inflates to 250 MB. Every upload must be refused; meanwhile /healthz is asked every 20 ms on its own
 * keep-alive connection (its p99 against the 100 ms goal), and the server's RSS is sampled (its rise
 * over the idle server against the 100 MB goal).
 */
import { BACKUP_ARCHIVE } from '@gantry/shared';
import { deflatedRun, rawZip } from '../apps/server/src/test/hostile-zip.js';
import {
  BENCH_PASSWORD,
  benchPlatform,
  goal,
  licenceKey,
  ms,
  printNotes,
  printTable,
  probe,
  processesOf,
  rssMiB,
  scratch,
  sleep,
  startServer,
  stopServer,
  summarise,
} from './lib.js';

const PROJECT = 'hostile';
const UPLOADS = 10;
const MANIFEST_BYTES = 250 * 1000 * 1000;

/** The 250 MB manifest (whitespace after the JSON head), deflated: what each upload sends. */
async function hostileArchive(): Promise<Buffer> {
  const head = Buffer.from(
    JSON.stringify({
      format: BACKUP_ARCHIVE.format,
      version: BACKUP_ARCHIVE.version,
      project: { id: PROJECT, name: PROJECT },
      createTime: new Date().toISOString(),
      appVersion: 'bench',
      item: { fileServer: true, html: false, mongodb: false },
      excludedDirs: [],
      modules: {},
      dirs: [],
      entries: [],
    }),
  );
  const manifest = await deflatedRun(MANIFEST_BYTES, 0x20, head);
  return rawZip([{ name: BACKUP_ARCHIVE.manifest, deflated: manifest }]);
}

export async function hostileBench(): Promise<void> {
  const server = await startServer({
    dataDir: scratch('hostile-data'),
    logFile: `${scratch('hostile-log')}/server.log`,
    env: { GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64 },
  });
  try {
    const token = await benchPlatform(server.origin, BENCH_PASSWORD, PROJECT, 'Hostile uploads');
    const archive = await hostileArchive();
    const pid = processesOf(server).server;
    await sleep(1_000);
    const idle = rssMiB(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 10);
    const health = probe(`${server.origin}/healthz`, 20);
    const began = performance.now();
    const answers = await Promise.all(
      Array.from({ length: UPLOADS }, async (_, i) => {
        const form = new FormData();
        form.append('file', new Blob([archive]), `hostile_${i}.zip`);
        const response = await fetch(`${server.origin}/portal/rest/spm/proxy/core/backup/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'x-request-project': PROJECT },
          body: form,
        });
        return { status: response.status, message: ((await response.json()) as { message?: string }).message ?? '' };
      }),
    );
    const uploadMs = performance.now() - began;
    // A moment after: what the memory settles to.
    await sleep(1_000);
    clearInterval(sampler);
    const after = rssMiB(pid);
    const { times, failed } = await health.stop();
    const probeTimes = summarise(times);
    const refused = answers.filter((answer) => answer.status === 400).length;
    const rise = peak - idle;
    printTable(
      ['figure', 'value'],
      [
        [
          'archive sent (each)',
          `${(archive.length / 1024).toFixed(0)} KiB, manifest inflating to ${MANIFEST_BYTES / 1e6} MB`,
        ],
        [
          'uploads refused (400)',
          `${refused} of ${UPLOADS} in ${ms(uploadMs)} ms ${goal('hostile uploads refused', `${UPLOADS} of ${UPLOADS}`, String(refused), refused === UPLOADS)}`,
        ],
        [
          'server RSS: idle → peak → after',
          `${idle.toFixed(0)} → ${peak.toFixed(0)} → ${after.toFixed(0)} MiB ${goal('RSS rise, 10 hostile uploads', '< 95 MiB (100 MB)', `${rise.toFixed(0)} MiB`, rise < 95)}`,
        ],
        [
          '/healthz meanwhile',
          `p50 ${ms(probeTimes.p50)} ms, p99 ${ms(probeTimes.p99)} ms, max ${ms(probeTimes.max)} ms, ${probeTimes.n} calls, ${failed} failed ${goal('/healthz p99 during hostile uploads', '< 100 ms', `${ms(probeTimes.p99)} ms`, probeTimes.p99 < 100 && failed === 0)}`,
        ],
      ],
    );
    printNotes([
      `Refusals said: ${[...new Set(answers.map((answer) => answer.message))].join(' | ')}`,
      'RSS of the server process (not its PGlite engine), sampled every 10 ms from 1 s before the uploads to 1 s after.',
    ]);
  } finally {
    await stopServer(server);
  }
}
