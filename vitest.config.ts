import { defineConfig } from 'vitest/config';

// Unit and integration suite (`npm test`). Browser tests live in vitest.e2e.config.ts.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // A throwaway PostgreSQL cluster for the tests of the PostgreSQL engine (skipped without one).
          globalSetup: ['server/test-helpers/postgres-global-setup.ts'],
        },
      },
      {
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        test: {
          name: 'widget',
          include: ['widget/**/*.test.ts', 'widget/**/*.test.tsx'],
          environment: 'happy-dom',
          testTimeout: 60_000,
        },
      },
      {
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        test: {
          name: 'dashboard',
          include: ['dashboard/**/*.test.ts', 'dashboard/**/*.test.tsx'],
          environment: 'happy-dom',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
