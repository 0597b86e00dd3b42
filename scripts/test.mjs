// npm test: every suite, installing what it needs.
//   1. lint (Biome, and every installed package's engines.node) and typecheck
//   2. unit + component + API tests (API on embedded PGlite)
//   3. the API suite again on PostgreSQL: GANTRY_TEST_DATABASE_URL, or a throwaway cluster started here
//   4. browser tests (Playwright driving Debian's chromium against the built console), then the
//      first-hour test against the built server as `npm start` runs it (e2e/first-hour/)
// Ends with one line "N passed, M failed" over all suites.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium, ensureConsoleBuilt, ensureDependencies, mustRun, ROOT, run } from './lib.mjs';

const reports = path.join(ROOT, 'artifacts', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0 };
const failedSuites = [];

function vitest(name, args, env = {}) {
  const output = path.join(reports, `${name}.json`);
  const status = run(
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
    {
      env: { ...process.env, ...env },
    },
  );
  const report = existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : undefined;
  totals.passed += report?.numPassedTests ?? 0;
  totals.failed += report?.numFailedTests ?? 0;
  if (status !== 0 || !report) failedSuites.push(name);
}

ensureDependencies();
ensureChromium();

console.log('\n▸ lint and typecheck');
mustRun('npx', ['biome', 'check', '.']);
mustRun('node', ['scripts/check-engines.mjs']);
mustRun('npm', ['run', 'typecheck', '--silent']);

// The console's route weight budgets (apps/console/weight) read this build's manifest.
ensureConsoleBuilt({ force: true });

console.log('\n▸ unit, component and API tests (PGlite)');
vitest('vitest-pglite', []);

console.log('\n▸ API tests (PostgreSQL)');
let pgUrl = process.env.GANTRY_TEST_DATABASE_URL;
let throwaway;
if (!pgUrl) {
  throwaway = path.join(tmpdir(), `gantry-pg-${process.pid}`);
  pgUrl = execFileSync(
    path.join(ROOT, 'scripts/pg-throwaway.sh'),
    ['start', throwaway, process.env.GANTRY_TEST_PG_PORT ?? '55433'],
    {
      encoding: 'utf8',
    },
  ).trim();
}
try {
  // server-postgres: tests that need PostgreSQL itself (two server processes, LISTEN/NOTIFY); the
  // project exists only when GANTRY_TEST_DATABASE_URL is set (vitest.config.ts).
  vitest('vitest-postgres', ['--project', 'server', '--project', 'server-postgres'], {
    GANTRY_TEST_DATABASE_URL: pgUrl,
  });
} finally {
  if (throwaway) run(path.join(ROOT, 'scripts/pg-throwaway.sh'), ['stop', throwaway]);
}

console.log('\n▸ browser tests (Playwright + Debian chromium)');
ensureConsoleBuilt(); // built before the unit tests; again only if a source changed since
const e2eReport = path.join(reports, 'playwright.json');
const e2eStatus = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
});
const e2e = existsSync(e2eReport) ? JSON.parse(readFileSync(e2eReport, 'utf8')).stats : undefined;
totals.passed += (e2e?.expected ?? 0) + (e2e?.flaky ?? 0);
totals.failed += e2e?.unexpected ?? 0;
if (e2eStatus !== 0 || !e2e) failedSuites.push('playwright');

// The first hour on a plain `npm start` (built server, NODE_ENV=production): its own config and server.
console.log('\n▸ first-hour browser test (README on npm start)');
const firstHourReport = path.join(reports, 'playwright-first-hour.json');
const firstHourStatus = run(
  'npx',
  ['playwright', 'test', '-c', 'e2e/first-hour/playwright.config.ts', '--reporter=list,json'],
  { env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: firstHourReport, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } },
);
const firstHour = existsSync(firstHourReport) ? JSON.parse(readFileSync(firstHourReport, 'utf8')).stats : undefined;
totals.passed += (firstHour?.expected ?? 0) + (firstHour?.flaky ?? 0);
totals.failed += firstHour?.unexpected ?? 0;
if (firstHourStatus !== 0 || !firstHour) failedSuites.push('playwright-first-hour');

if (failedSuites.length) console.error(`\nFailed suites: ${failedSuites.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSuites.length || totals.failed ? 1 : 0);
