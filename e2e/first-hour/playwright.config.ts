import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

/**
 * The first hour of a new user, on its own server: the BUILT server started the way `npm start`
 * starts it (scripts/start.mjs: NODE_ENV=production, no vendor licence key, embedded PGlite, a fresh
 * data directory), followed through the README. Independent of the other browser suites (its own
 * config, server, port and data). `npm test` runs it after them (scripts/test.mjs).
 */
const PORT = Number(process.env.GANTRY_FIRST_HOUR_PORT ?? 3218);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DATA = path.join(ROOT, '.tmp', `first-hour-data-${PORT}`);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: 'first-hour.spec.ts',
  outputDir: path.join(ROOT, 'test-results', `first-hour-${PORT}`),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    },
  },
  webServer: {
    // As `npm start` runs it (package.json: node --enable-source-maps scripts/start.mjs), on a fresh data directory.
    command: `rm -rf "${DATA}" && exec node --enable-source-maps scripts/start.mjs`,
    cwd: ROOT,
    url: `${BASE_URL}/readyz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      GANTRY_DATA_DIR: DATA,
      DATABASE_URL: '',
      // What `npm start` sets when NODE_ENV is not set; stated so that the caller's NODE_ENV does not leak in.
      NODE_ENV: 'production',
      GANTRY_LICENCE_PUBLIC_KEYS: '',
      LOG_LEVEL: 'warn',
    },
  },
});
