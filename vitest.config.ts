import { defineConfig } from 'vitest/config';

/**
 * Projects: shared rules, server (API through app.inject on a real database), server-unit (no
 * database: run once), server-process
 * (tests that start real processes, run once) and console components (happy-dom). GANTRY_TEST_DATABASE_URL switches the server suite to PostgreSQL.
 */
/**
 * The one unhandled error let through: React's scheduler flushing a component test's last passive
 * effects in a setImmediate that fires after happy-dom tore the file's window down (react-dom reads
 * `window.event` there). It happens after every assertion of the file ran, so it cannot hide a
 * failure; anything else unhandled still fails the run. (Component tests also close antd's static
 * toasts and let React settle before the file ends: src/test/setup.ts.)
 */
function isReactTeardownRace(error: Error): boolean {
  return (
    error.name === 'ReferenceError' &&
    error.message === 'window is not defined' &&
    (error.stack ?? '').includes('react-dom-client') &&
    (error.stack ?? '').includes('performWorkUntilDeadline')
  );
}

export default defineConfig({
  test: {
    onUnhandledError: (error) => !isReactTeardownRace(error),
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.process.test.ts', 'src/**/*.postgres.test.ts', 'src/**/*.unit.test.ts'],
          setupFiles: ['src/test/database-cleanup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Server tests that touch no database (formats, caches, pure functions): run once, not again
      // in the PostgreSQL pass of `npm test`.
      {
        test: {
          name: 'server-unit',
          root: 'apps/server',
          include: ['src/**/*.unit.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Tests that start real processes (the embedded engine, the built server) and bring their own
      // database: run once, not again in the PostgreSQL pass of `npm test`.
      {
        test: {
          name: 'server-process',
          root: 'apps/server',
          include: ['src/**/*.process.test.ts'],
          globalSetup: ['src/test/built-server.setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      // Tests that need PostgreSQL itself (LISTEN/NOTIFY across server processes): the project exists
      // only when GANTRY_TEST_DATABASE_URL is set, so the PGlite pass does not even collect them.
      ...(process.env.GANTRY_TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'server-postgres',
                root: 'apps/server',
                include: ['src/**/*.postgres.test.ts'],
                // The nodes behind nginx are the built server, as operators run it.
                globalSetup: ['src/test/built-server-when-stale.setup.ts'],
                testTimeout: 60_000,
                hookTimeout: 120_000,
                fileParallelism: false,
              },
            },
          ]
        : []),
      './apps/console/vitest.config.ts',
    ],
  },
});
