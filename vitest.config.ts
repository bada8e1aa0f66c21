import { defineConfig } from 'vitest/config';
import { postgresTestsOn } from './server/test-helpers/postgres-available.js';

// The PostgreSQL run needs a cluster: one named by OUTING_TEST_DATABASE_URL, or PostgreSQL installed
// (the global setup starts a throwaway one). `.ci/run` installs it; without it only SQLite runs.
const postgres = postgresTestsOn();

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
          setupFiles: ['server/test-helpers/postgres-setup-file.ts'],
        },
      },
      ...(postgres ? [{
        // Every suite that touches the database, again on PostgreSQL (OUTING_TEST_ENGINE): createTestApp
        // and processDatabase give each test a migrated database of the throwaway cluster no other test
        // uses. Suites of SQLite itself (backups, query plans, its file) and those that touch no
        // database run once, above.
        test: {
          name: 'server-postgres',
          include: [
            'server/routes/**/*.test.ts',
            'server/services/**/*.test.ts',
            'server/jobs/**/*.test.ts',
            'server/http/auth.test.ts',
            'server/http/body.test.ts',
            'server/http/client-errors.test.ts',
            'server/http/idempotency.test.ts',
            'server/http/rate-limit.test.ts',
            'server/http/octo.test.ts',
            'server/ical/feed.test.ts',
            'server/mail/restart.test.ts',
            'server/webhooks/restart.test.ts',
            'server/payments/restart.test.ts',
            'server/concurrency.test.ts',
            'server/cli.test.ts',
            'server/cli-users.test.ts',
            'server/cli-hardening.test.ts',
            'server/demo.test.ts',
            // The store's own suite: one file per table module, expected values on both engines.
            'server/store/*.test.ts',
            'server/app.test.ts',
          ],
          exclude: [
            'server/routes/static.test.ts',
            'server/routes/dashboard-app.test.ts',
            // SQLite itself: its file, backups, query plans, upgrades; the parity test reads both migration folders.
            'server/store/db.test.ts',
            'server/store/list-plans.test.ts',
            'server/store/migrations-parity.test.ts',
            'server/store/private-files.test.ts',
            'server/store/report-plans.test.ts',
            'server/store/restore.test.ts',
            'server/store/transactions.test.ts',
            'server/store/upgrade.test.ts',
          ],
          environment: 'node',
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { OUTING_TEST_ENGINE: 'postgres' },
          globalSetup: ['server/test-helpers/postgres-global-setup.ts'],
          setupFiles: ['server/test-helpers/postgres-setup-file.ts'],
        },
      }] : []),
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
