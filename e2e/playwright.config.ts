import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests: Debian's chromium (never a downloaded browser) against the real server serving the
 * built console, on a fresh data directory with embedded PGlite.
 */
const PORT = Number(process.env.GANTRY_E2E_PORT ?? 3217);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Per port, so two suites on one machine (GANTRY_E2E_PORT) never share a data directory.
const DATA = path.join(ROOT, '.tmp', `e2e-data-${PORT}`);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The TLS port of project domains (SNI, issue 15): the suite's port + 20000 unless told. */
export const SITES_HTTPS_PORT = Number(process.env.GANTRY_E2E_SITES_HTTPS_PORT ?? PORT + 20_000);

/**
 * CI runs the browser tests in two lanes, each with its own server (scripts/test.mjs): the second,
 * after the PostgreSQL pass, takes these projects; `GANTRY_E2E_LANE` (`first` or `second`) picks a
 * lane, and without it every project runs.
 */
const SECOND_LANE = new Set(['templates', 'hub']);
const LANE = process.env.GANTRY_E2E_LANE;
const inLane = (project: { name: string }) => !LANE || (LANE === 'second') === SECOND_LANE.has(project.name);

export default defineConfig({
  testDir: '.',
  outputDir: path.join(ROOT, 'test-results', String(PORT)),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  // A page's first visit in a fresh browser is CPU-bound: the project form takes 1.2-1.9 s to appear
  // on an idle machine here, mostly the browser's main thread, and CI runs these tests beside the
  // PostgreSQL API pass on two cores, where two first visits in a row took over 10 s (stop 26's CI).
  // These tests assert what a page shows, not how fast: speed is measured in `npm run bench`.
  expect: { timeout: 20_000 },
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1366, height: 860 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // Independent suites (issue 10): each sets up what it needs through the API (e2e/seed.ts), so one
  // failure skips nothing else. The first-run flow needs the empty server it starts on: it is listed
  // first, and with one worker Playwright runs the projects in this order.
  projects: [
    { name: 'first-run', testMatch: 'foundation.spec.ts' },
    { name: 'console', testMatch: 'console.spec.ts' },
    { name: 'licence', testMatch: 'licence.spec.ts' },
    { name: 'tenants-projects', testMatch: 'tenants-projects.spec.ts' },
    { name: 'layout', testMatch: 'layout.spec.ts' },
    { name: 'guide', testMatch: 'guide.spec.ts' },
    { name: 'project-data', testMatch: 'project-data.spec.ts' },
    { name: 'backups', testMatch: 'backups.spec.ts' },
    { name: 'db-backups', testMatch: 'db-backups.spec.ts' },
    { name: 'templates', testMatch: 'templates.spec.ts' },
    { name: 'sites', testMatch: 'sites.spec.ts' },
    { name: 'tables', testMatch: 'tables.spec.ts' },
    { name: 'a11y', testMatch: 'a11y.spec.ts' },
    { name: 'account-security', testMatch: 'account-security.spec.ts' },
    { name: 'sso', testMatch: 'sso.spec.ts' },
    { name: 'hub', testMatch: 'hub.spec.ts' },
    // Last: its restore ends every session (and puts the platform back as it was).
    { name: 'platform-backup', testMatch: 'platform-backup.spec.ts' },
  ].filter(inLane),
  webServer: {
    command: `rm -rf "${DATA}" && node --import tsx apps/server/src/main.ts`,
    cwd: ROOT,
    url: `${BASE_URL}/readyz`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      GANTRY_DATA_DIR: DATA,
      GANTRY_SITES_HTTPS_PORT: String(SITES_HTTPS_PORT),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
  },
});
