/**
 * npm run bench [-- all | foundation | start | projects | licence]: one run on this machine, printed as tables.
 *  - foundation (bench/foundation.ts): settings, sessions, login, start times, RSS, login route size
 *  - start (bench/start.ts): only the production start of the foundation section (npm start: times, RSS, stop)
 *  - projects (bench/projects.ts): the project list with 150,000 projects, on PGlite and PostgreSQL
 *  - licence (bench/licence.ts): licence verification, machine identity, upload/info/history calls
 */
import { execFileSync } from 'node:child_process';
import { foundation } from './foundation.js';
import { printTable } from './lib.js';
import { licenceBench } from './licence.js';
import { projectsBench } from './projects.js';
import { startBench } from './start.js';

const SECTIONS = ['all', 'foundation', 'start', 'projects', 'licence'] as const;
type Section = (typeof SECTIONS)[number];
const section = (process.argv[2] ?? 'all') as Section;
if (!SECTIONS.includes(section)) {
  console.error(`usage: npm run bench [-- ${SECTIONS.join(' | ')}]`);
  process.exit(2);
}

console.log(
  `Gantry bench (${section}) — ${new Date().toISOString()}, node ${process.version}, ${execFileSync('nproc').toString().trim()} cores`,
);
if (section === 'all' || section === 'foundation') {
  const results = await foundation();
  printTable(['measure', 'value'], results);
}
if (section === 'start') {
  const results: Array<[string, string]> = [];
  await startBench((name, value) => {
    results.push([name, value]);
    console.log(`  ${name}: ${value}`);
  });
  printTable(['measure', 'value'], results);
}
if (section === 'all' || section === 'projects') await projectsBench();
if (section === 'all' || section === 'licence') await licenceBench();
process.exit(0);
