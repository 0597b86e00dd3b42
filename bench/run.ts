/**
 * npm run bench [-- all | foundation | projects | licence]: one run on this machine, printed as tables.
 *  - foundation (bench/foundation.ts): settings, sessions, login, start times, RSS, login route size
 *  - projects (bench/projects.ts): the project list with 150,000 projects, on PGlite and PostgreSQL
 *  - licence (bench/licence.ts): licence verification, machine identity, upload/info/history calls
 */
import { execFileSync } from 'node:child_process';
import { foundation } from './foundation.js';
import { printTable } from './lib.js';
import { licenceBench } from './licence.js';
import { projectsBench } from './projects.js';

const SECTIONS = ['all', 'foundation', 'projects', 'licence'] as const;
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
if (section === 'all' || section === 'projects') await projectsBench();
if (section === 'all' || section === 'licence') await licenceBench();
process.exit(0);
