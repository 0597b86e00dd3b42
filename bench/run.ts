/**
 * npm run bench [-- all | foundation | start | projects | fairness | data | backup | dump | hostile | licence | templates | sites | tables | lighthouse]: one run on this machine, printed as
 * tables, each saying what its figures include, then one line of goals met and missed.
 *  - foundation (bench/foundation.ts): cheap calls on the real server (npm start) vs a bare Fastify
 *    hello-world in the same run; sign-in, a login flood, the console's login route size
 *  - start (bench/start.ts): npm start → healthy on new and existing data directories, RSS of the
 *    server and engine processes, stop
 *  - projects (bench/projects.ts): the project list at 150,000 projects / 10,000 tenants, 50 clients,
 *    on embedded PGlite and PostgreSQL, vs the same SQL run directly; /healthz meanwhile; RSS after load
 *  - fairness (bench/fairness.ts): tenant A's single-document reads on PGlite while tenant B runs 6 parallel
 *    `like` lists over ~36 MB of documents, vs one of B's lists alone (goal: A p50 ≤ it, p99 ≤ 2×)
 *  - data (bench/data.ts): the data layer's list / get / save at 1,000,000 documents in one project and
 *    1,000 projects, 50 clients, vs the same SQL run directly; a 1 GiB file uploaded and downloaded
 *    through the media library vs cp; the server's peak RSS throughout (goal < 300 MB)
 *  - backup (bench/backup.ts): a ~1.4 GB project (npm run demo) backed up vs `zip -1 -r` of the same content,
 *    restored (documents/s), server peak RSS, GET setting's latency meanwhile; PGlite and PostgreSQL
 *  - dump (bench/dump.ts): a database backup and restore of ~1 GB of rows on PostgreSQL vs pg_dump -Fc / pg_restore
 *    of the same rows; the FTP push vs curl -T to the same vsftpd; server peak RSS
 *  - hostile (bench/hostile.ts): ten hostile-manifest uploads (250 MB manifests, a few hundred KB each) at once
 *    to the project backup upload: all refused, the server's RSS rise (goal < 100 MB), /healthz p99 meanwhile
 *    (goal < 100 ms)
 *  - licence (bench/licence.ts): licence verification, machine identity, upload/info/history calls
 *  - templates (bench/templates.ts): the template gallery's search at 1,000 templates, 50 clients; install time
 *    of the largest built-in template
 *  - sites (bench/sites.ts): a front site's static files vs a bare @fastify/static (goal ≥ 0.8); 1,000 projects
 *    with ports: memory, bound live and at a restart
 *  - tables (bench/tables.ts): a table of 50 fields with 100,000 records: the records list (filter + sort, page of 100)
 *    at 50 clients vs the same statement direct (goals: throughput ≥ 0.8, p99 ≤ 1.2 of direct); a record write with auto-number and formula
 *  - lighthouse (bench/lighthouse.ts): Lighthouse mobile on the login page; each route's JS weight
 */
import { execFileSync } from 'node:child_process';
import { backupBench } from './backup.js';
import { dataBench } from './data.js';
import { dumpBench } from './dump.js';
import { fairnessBench } from './fairness.js';
import { foundation } from './foundation.js';
import { hostileBench } from './hostile.js';
import { goals, loadAverage } from './lib.js';
import { licenceBench } from './licence.js';
import { lighthouseBench } from './lighthouse.js';
import { projectsBench } from './projects.js';
import { sitesBench } from './sites.js';
import { startBench } from './start.js';
import { tablesBench } from './tables.js';
import { templatesBench } from './templates.js';

const SECTIONS = [
  'all',
  'foundation',
  'start',
  'projects',
  'fairness',
  'backup',
  'dump',
  'hostile',
  'data',
  'licence',
  'templates',
  'sites',
  'tables',
  'lighthouse',
] as const;
type Section = (typeof SECTIONS)[number];
const section = (process.argv[2] ?? 'all') as Section;
if (!SECTIONS.includes(section)) {
  console.error(`usage: npm run bench [-- ${SECTIONS.join(' | ')}]`);
  process.exit(2);
}

const began = performance.now();
console.log(
  `# Gantry bench (${section}) — ${new Date().toISOString()}, node ${process.version}, ${execFileSync('nproc').toString().trim()} cores, load average ${loadAverage()}`,
);
console.log(
  'This machine is shared with other work: read the figures as shapes (ratios within one run), not as capacities.',
);
const run = async (name: Section, bench: () => Promise<void>) => {
  if (section !== 'all' && section !== name) return;
  const started = performance.now();
  console.log(`\n## ${name}`);
  await bench();
  console.log(`\n(${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
};
await run('foundation', foundation);
await run('start', startBench);
await run('projects', projectsBench);
await run('fairness', fairnessBench);
await run('data', dataBench);
await run('backup', backupBench);
await run('dump', dumpBench);
await run('hostile', hostileBench);
await run('licence', licenceBench);
await run('templates', templatesBench);
await run('sites', sitesBench);
await run('tables', tablesBench);
await run('lighthouse', lighthouseBench);

const missed = goals.filter((g) => !g.met);
console.log(
  `\nGoals: ${goals.length === 0 ? 'none in this section' : `${goals.length - missed.length} of ${goals.length} met`}${missed.length ? `; MISSED: ${missed.map((g) => `${g.name} ${g.figure} (goal ${g.target})`).join('; ')}` : ''}. ` +
    `Whole run ${((performance.now() - began) / 1000 / 60).toFixed(1)} min, load average ${loadAverage()}.`,
);
process.exit(0);
