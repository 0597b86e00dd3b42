import { defineConfig } from 'vitest/config';

/**
 * Three projects: shared rules, server (API through app.inject on a real database) and console
 * components (happy-dom). GANTRY_TEST_DATABASE_URL switches the server suite to PostgreSQL.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './apps/console/vitest.config.ts',
    ],
  },
});
