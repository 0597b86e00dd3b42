// npm test: every suite, installing what it needs.
//   1. lint (Biome, and every installed package's engines.node), and the typecheck beside the console build
//   2. unit + API tests on embedded PGlite (two workers)
//   3. the process tests (real server processes: kill -9 drills, the built server's start and stop),
//      with the console's component tests beside them at the lowest priority (nice 19)
//   4. two lanes at once: the API suite again on PostgreSQL (GANTRY_TEST_DATABASE_URL, or a throwaway
//      cluster started here) followed by the browser tests' second lane; and the browser tests' first
//      lane (Playwright driving Debian's chromium against the built console) followed by the
//      first-hour test against the built server as `npm start` runs it (e2e/first-hour/). The browser
//      output is kept in artifacts/reports/browser*.log and printed when both lanes are done, with the
//      page snapshot of each failed browser test.
// Ends with where the time went (each phase's end, the cores busy), each failed test with the start
// of its error (CI keeps only the tail of the output), and one line "N passed, M failed" over all suites.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureChromium, ensureConsoleBuilt, ensureDependencies, mustRun, ROOT, run } from './lib.mjs';

const reports = path.join(ROOT, 'artifacts', 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0 };
const failedSuites = [];
/** One line per failed test and the start of its error, repeated at the very end (CI keeps only the tail of the output). */
const failedTests = [];
const firstLines = (text, count = 6) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .slice(0, count)
    .map((line) => `      ${line}`)
    .join('\n');

/** Runs a command; with `log`, its output goes to that stream instead of this terminal. Answers its exit status. */
function runAsync(command, args, { env = {}, log } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (log) {
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** A vitest run; `log` takes its output instead of this terminal, `lowestPriority` runs it at nice 19. */
async function vitest(name, args, { env = {}, log, lowestPriority = false } = {}) {
  const output = path.join(reports, `${name}.json`);
  const command = [
    'npx',
    'vitest',
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${output}`,
  ];
  const status = await runAsync(
    lowestPriority ? 'nice' : 'npx',
    lowestPriority ? ['-n', '19', ...command] : command.slice(1),
    { env, log },
  );
  const report = existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : undefined;
  totals.passed += report?.numPassedTests ?? 0;
  totals.failed += report?.numFailedTests ?? 0;
  if (status !== 0 || !report) failedSuites.push(name);
  for (const file of report?.testResults ?? []) {
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed)
      failedTests.push(
        `${name}: ${path.relative(ROOT, file.name)} › ${test.fullName}\n${firstLines(test.failureMessages[0])}`,
      );
    // a file that failed outside its tests (an import, a hook)
    if (file.status === 'failed' && !failed.length)
      failedTests.push(`${name}: ${path.relative(ROOT, file.name)}\n${firstLines(file.message)}`);
  }
}

/** The failed tests of a Playwright JSON report, with the start of each one's error. */
function playwrightFailures(name, suite, titles = []) {
  const titlesHere = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests)
      if (test.status === 'unexpected')
        failedTests.push(
          `${name}: ${[...titlesHere, spec.title].join(' › ')}\n${firstLines(test.results.at(-1)?.errors?.[0]?.message)}`,
        );
  for (const child of suite.suites ?? []) playwrightFailures(name, child, titlesHere);
}

/** The page snapshots Playwright wrote for the tests that failed since `since` (ms), for the log. */
function failureContexts(since) {
  const results = path.join(ROOT, 'test-results');
  const found = (existsSync(results) ? readdirSync(results, { recursive: true, encoding: 'utf8' }) : [])
    .filter((name) => path.basename(name) === 'error-context.md')
    .map((name) => path.join(results, name))
    .filter((file) => statSync(file).mtimeMs >= since);
  // the page's part only: the error and the test's source are in the reporter's output already
  const page = (text) => {
    const start = text.indexOf('```yaml');
    const end = text.indexOf('# Test source');
    return start < 0 ? text : text.slice(start, end < start ? undefined : end);
  };
  return found.map((file) => `\n── ${path.relative(ROOT, file)}\n${page(readFileSync(file, 'utf8'))}`).join('');
}

async function playwright(name, config, log, env = {}) {
  const began = Date.now();
  const report = path.join(reports, `${name}.json`);
  const status = await runAsync('npx', ['playwright', 'test', '-c', config, '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...env },
    log,
  });
  const json = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined;
  const stats = json?.stats;
  for (const suite of json?.suites ?? []) playwrightFailures(name, suite);
  totals.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  totals.failed += stats?.unexpected ?? 0;
  if (status !== 0 || !stats) {
    failedSuites.push(name);
    // What the page showed when each test failed (its accessibility tree): the CI log is all that is kept.
    log.write(failureContexts(began));
  }
}

const scriptBegan = performance.now();
ensureDependencies();
ensureChromium();

console.log('\n▸ lint and typecheck');
mustRun('npx', ['biome', 'check', '.']);
mustRun('node', ['scripts/check-engines.mjs']);
// The typecheck (one core: tsc is single-threaded) beside the console build, whose route weight
// budgets (apps/console/weight) the tests read from this build's manifest.
const typecheck = runAsync('npm', ['run', 'typecheck', '--silent']);
ensureConsoleBuilt({ force: true });
if ((await typecheck) !== 0) {
  console.error('typecheck failed');
  process.exit(1);
}

// The PGlite runs must not see the PostgreSQL URL (.ci/run exports it): with it, the server suite
// would run on PostgreSQL and the PostgreSQL-only project would be collected.
const PGLITE = { GANTRY_TEST_DATABASE_URL: '' };

const began = performance.now();
/** The machine's CPU time so far (/proc/stat, in ticks): busy and all. */
function cpuTicks() {
  if (!existsSync('/proc/stat')) return undefined;
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const all = fields.reduce((sum, ticks) => sum + ticks, 0);
  return { busy: all - fields[3] - fields[4], all };
}
let lastMark = cpuTicks();
/** Where CI time goes: each phase's end, repeated at the end of the output. */
const marks = [];
function mark(what) {
  const line = `${what}: ${minutes()}`;
  marks.push(line);
  console.log(`\n  (${line})`);
}
/** Time since the tests began, and how many cores were busy since the last mark. */
function minutes() {
  const now = cpuTicks();
  const busy =
    now && lastMark && now.all > lastMark.all
      ? ` (${(((now.busy - lastMark.busy) / (now.all - lastMark.all)) * availableParallelism()).toFixed(1)} of ${availableParallelism()} cores busy since the mark before)`
      : '';
  lastMark = now;
  return `tests began ${((performance.now() - began) / 60_000).toFixed(1)} min ago${busy}`;
}

// Two workers: the machine has two cores, and this pass is mostly CPU (each test app starts an
// embedded database of its own).
console.log('\n▸ unit and API tests (PGlite)');
await vitest(
  'vitest-pglite',
  ['--project', 'shared', '--project', 'server', '--project', 'server-unit', '--maxWorkers=2'],
  { env: PGLITE },
);
mark('PGlite pass done');

// The kill -9 drills keep a server busy with writes, uploads and a clean-up at once; beside another
// suite at the same priority they starve (4 confirmed writes in 90 s). Alone they keep 1.1 of the two
// cores busy: the console's component tests (no server, no database) take the other one at the lowest
// priority (nice 19), so the drills' processes are served first whenever they want the CPU.
console.log('\n▸ process tests (real server processes, on PGlite), the component tests beside them (output follows)');
const componentLog = path.join(reports, 'console.log');
const componentStream = createWriteStream(componentLog);
await Promise.all([
  vitest('vitest-process', ['--project', 'server-process'], { env: PGLITE }).then(() => mark('process tests done')),
  vitest('vitest-console', ['--project', 'console', '--maxWorkers=1'], {
    env: PGLITE,
    log: componentStream,
    lowestPriority: true,
  }).then(() => mark('component tests done')),
]);
await new Promise((resolve) => componentStream.end(resolve));
console.log('\n▸ component tests output (also in artifacts/reports/console.log)');
console.log(readFileSync(componentLog, 'utf8'));

async function postgresPass() {
  let pgUrl = process.env.GANTRY_TEST_DATABASE_URL;
  let throwaway;
  if (!pgUrl) {
    throwaway = path.join(tmpdir(), `gantry-pg-${process.pid}`);
    pgUrl = execFileSync(
      path.join(ROOT, 'scripts/pg-throwaway.sh'),
      ['start', throwaway, process.env.GANTRY_TEST_PG_PORT ?? '55433'],
      { encoding: 'utf8' },
    ).trim();
  }
  try {
    // server-postgres: tests that need PostgreSQL itself (two server processes, LISTEN/NOTIFY); the
    // project exists only when GANTRY_TEST_DATABASE_URL is set (vitest.config.ts).
    await vitest('vitest-postgres', ['--project', 'server', '--project', 'server-postgres'], {
      env: { GANTRY_TEST_DATABASE_URL: pgUrl },
    });
  } finally {
    if (throwaway) run(path.join(ROOT, 'scripts/pg-throwaway.sh'), ['stop', throwaway]);
  }
}

async function browserLane(log) {
  log.write('\n▸ browser tests (Playwright + Debian chromium), first lane\n');
  ensureConsoleBuilt(); // built before the tests; again only if a source changed since
  await playwright('playwright', 'e2e/playwright.config.ts', log, { GANTRY_E2E_LANE: 'first' });

  // The first hour on a plain `npm start` (built server, NODE_ENV=production): its own config and server.
  log.write('\n▸ first-hour browser test (README on npm start)\n');
  await playwright('playwright-first-hour', 'e2e/first-hour/playwright.config.ts', log);
}

/** The browser tests' second lane (e2e/playwright.config.ts), on a server of its own, once the PostgreSQL pass is done. */
async function secondBrowserLane(log) {
  log.write('\n▸ browser tests, second lane\n');
  await playwright('playwright-second', 'e2e/playwright.config.ts', log, {
    GANTRY_E2E_LANE: 'second',
    GANTRY_E2E_PORT: process.env.GANTRY_E2E_SECOND_PORT ?? '3219',
  });
}

// Two lanes at once: the PostgreSQL pass then the browser tests' second lane, beside the first lane
// and the first-hour test. The PostgreSQL pass takes about 60 % of the browser tests' time, so the
// second lane evens the two out; each lane keeps its output apart until both are done.
console.log('\n▸ API tests (PostgreSQL), with the browser tests beside them (their output follows)');
const browserLog = path.join(reports, 'browser.log');
const browserStream = createWriteStream(browserLog);
const secondLog = path.join(reports, 'browser-second.log');
const secondStream = createWriteStream(secondLog);
await Promise.all([
  postgresPass()
    .then(() => mark('PostgreSQL pass done'))
    .then(() => secondBrowserLane(secondStream))
    .then(() => mark("browser tests' second lane done")),
  browserLane(browserStream).then(() => mark("browser tests' first lane done")),
]);
await new Promise((resolve) => secondStream.end(resolve));
await new Promise((resolve) => browserStream.end(resolve));
console.log('\n▸ browser tests output (also in artifacts/reports/browser.log and browser-second.log)');
console.log(readFileSync(browserLog, 'utf8'));
console.log(readFileSync(secondLog, 'utf8'));

console.log(
  `\nWhere the time went (lint, typecheck and the console build took ${((began - scriptBegan) / 60_000).toFixed(1)} min before the tests):\n${marks.map((line) => `  ${line}`).join('\n')}`,
);
if (failedSuites.length) console.error(`\nFailed suites: ${failedSuites.join(', ')}`);
if (failedTests.length) console.error(`\nFailed tests:\n${failedTests.map((line) => `  - ${line}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSuites.length || totals.failed ? 1 : 0);
